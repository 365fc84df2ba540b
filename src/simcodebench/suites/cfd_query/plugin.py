"""The ``cfd-query`` plugin: CFDLLMBench's CFDQuery, multiple-choice questions scored by the chosen option."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.importing import add_import_command
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, ReportSection, SuitePlugin
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_query import report, scorer
from simcodebench.suites.cfd_query.importer import import_cfdquery
from simcodebench.suites.cfd_query.mutants import MUTANT_OPERATIONS


class CfdQuerySuite(SuitePlugin):
    """CFDQuery (``cases/cfd-query``): the correct option is the reference; accuracy with its interval."""

    name = "cfd-query"
    fresh_note = "no generator: a new multiple-choice question needs an author"
    mutant_operations = MUTANT_OPERATIONS

    def generate_reference(self, case: Case) -> Reference:
        """The question's correct option."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """Right (error 0) or wrong (error 1) by the option the reply chose."""
        return scorer.measure(case, run_dir, reference)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """CFDQuery's accuracy table."""
        return report.sections(frame)

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench import cfdquery PATH``."""
        add_import_command(groups, "cfdquery", import_cfdquery, "the upstream JSON file of questions")
