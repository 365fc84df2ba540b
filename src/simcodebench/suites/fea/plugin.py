"""The ``fea`` plugin: FEABench's Gold problems re-posed for open solvers (scikit-fem, DOLFINx)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.importing import add_import_command
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, EnvironmentSpec, ReportSection, SuitePlugin
from simcodebench.core.references import Reference
from simcodebench.suites.fea import fresh, report, scorer
from simcodebench.suites.fea.importer import import_feabench
from simcodebench.suites.fea.mutants import MUTANT_OPERATIONS

FEA = EnvironmentSpec(
    "fea",
    (
        "dolfinx-solver-real==0.11.0.post0",
        "gmsh==4.15.2",
        "sympy==1.14.0",
        "numpy==2.5.5",
        "scipy==1.18.1",
        "scikit-fem==12.0.2",
    ),
    min_python=(3, 12),
    smoke_test="from mpi4py import MPI; import dolfinx, gmsh, scipy, skfem, sympy; skfem.MeshTri().refined(1)",
)
"""scikit-fem and DOLFINx side by side."""


class FeaSuite(SuitePlugin):
    """FEABench (``cases/fea``): one scalar target with units, its relative error and its validity."""

    name = "fea"
    mutant_operations = MUTANT_OPERATIONS

    def generate_reference(self, case: Case) -> Reference:
        """The target from a mesh-refinement study (or a closed form)."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """The reported value's validity (no default, no echo) and relative error."""
        return scorer.measure(case, run_dir, reference)

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """New dimensions, materials and loads of a problem with a closed form or an independent solver
        (:mod:`.fresh`)."""
        return fresh.fresh_case(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """The scikit-fem refinement study agrees with the closed form, or with the independent solver, within the
        suite's tolerance."""
        return fresh.verify_fresh_case(case, workdir)

    def run_metrics(self, case: Case, run_dir: Path) -> dict[str, float]:
        """FEABench's executability and API factuality of the run."""
        return scorer.run_metrics(case, run_dir)

    def prepare_run(self, case: Case, run_dir: Path) -> None:
        """The runner that records the script's API calls."""
        scorer.prepare_run(case, run_dir)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """FEABench's Gold table, overall and per problem."""
        return report.sections(frame)

    def environments(self) -> list[EnvironmentSpec]:
        """``fea``."""
        return [FEA]

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench import feabench PATH``."""
        add_import_command(groups, "feabench", import_feabench, "FEABench's benchmark.zip")
