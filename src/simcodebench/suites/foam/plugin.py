"""The ``foam`` plugin: CFDLLMBench's FoamBench, whole OpenFOAM cases run on Debian's OpenFOAM v1912."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.importing import add_import_command
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, EnvironmentSpec, ReportSection, SuitePlugin
from simcodebench.core.references import Reference
from simcodebench.suites.foam import fresh, paper_tables, report, scorer
from simcodebench.suites.foam.importer import import_foambench
from simcodebench.suites.foam.mutants import MUTANT_OPERATIONS

if TYPE_CHECKING:
    import numpy as np

    from simcodebench.core.fresh import FreshCheck, FreshDraw

OPENFOAM = EnvironmentSpec("openfoam", ("openfoam",), kind="apt")
"""Debian's OpenFOAM v1912 (openfoam.com); its bashrc is found by :mod:`simcodebench.execution.openfoam`."""


class FoamSuite(SuitePlugin):
    """FoamBench (``cases/foam``): the solver log ends in End, NMSE of the fields against a reference run."""

    name = "foam"
    mutant_operations = MUTANT_OPERATIONS

    def generate_reference(self, case: Case) -> Reference:
        """A reference run of the case's oracle, its final fields at the cell centres."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """NMSE of U, p, T, rho at the last time against the reference run."""
        return scorer.measure(case, run_dir, reference)

    def diagnose(self, case: Case, solution_dir: Path) -> dict[str, float]:
        """FoamBench's structure and ROUGE-L file similarity to the reference case."""
        return scorer.diagnose(case, solution_dir)

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """The final fields beside the reference run's."""
        return scorer.plot_comparison(case, run_dir, reference, png)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """FoamBench's exec / struct / file / NMSE / success table, then CFDLLMBench's Tables 6, 2 and 8."""
        return [*report.sections(frame), *paper_tables.sections(frame)]

    def environments(self) -> list[EnvironmentSpec]:
        """``openfoam``."""
        return [OPENFOAM]

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """New inflow, geometry or fluid numbers of a published case, one generator per family (:mod:`.fresh`)."""
        return fresh.fresh_draw(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """OpenFOAM's run of the fresh oracle reaches the end time, finite, and passes its family's physics."""
        return fresh.verify(case, workdir)

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench import foambench PATH``."""
        add_import_command(groups, "foambench", import_foambench, "the upstream JSON file of cases")
