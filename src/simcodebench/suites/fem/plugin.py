"""The ``fem`` plugin: PDEAgent-Bench, ``solve(case_spec)`` programs on DOLFINx or deal.II, scored by the masked
relative L2 error on the evaluation grid and the calibrated time."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.importing import add_import_command
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, ContextPiece, EnvironmentSpec, ReportSection, SuitePlugin
from simcodebench.core.references import Reference
from simcodebench.suites.fem import fresh, fresh_refined, harness, outputs, report, scorer
from simcodebench.suites.fem.families import family_metrics
from simcodebench.suites.fem.guide import guide_pieces
from simcodebench.suites.fem.importer import LIBRARIES, import_pdeagent_bench
from simcodebench.suites.fem.mutations import MUTANT_OPERATIONS
from simcodebench.suites.fem.released_prompt import released_body
from simcodebench.suites.fem.released_spec import is_released, released_case_spec

DOLFINX = EnvironmentSpec(
    "dolfinx",
    ("dolfinx-solver-real==0.11.0.post0", "gmsh==4.15.2", "sympy==1.14.0", "numpy==2.5.5", "scipy==1.18.1"),
    min_python=(3, 12),
    smoke_test="from mpi4py import MPI; import dolfinx, gmsh, sympy",
)
"""DOLFINx 0.11 with its own MPICH (the wheel needs Python >= 3.12); the re4 suite's 2-D references use it too."""
DEALII = EnvironmentSpec("dealii", ("libdeal.ii-dev", "cmake", "nlohmann-json3-dev", "g++", "make"), kind="apt")
"""Debian's deal.II 9.4 with CMake and nlohmann-json, for the C++ programs of ``fem-dealii``."""


class FemSuite(SuitePlugin):
    """PDEAgent-Bench (``cases/fem``, ``cases/fem-dealii``): manufactured or refined references on the grid."""

    name = "fem"
    mutant_operations = MUTANT_OPERATIONS

    def generate_reference(self, case: Case) -> Reference:
        """The exact field on the evaluation grid, or a refined solve's."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """The masked relative L2 error of the sampled field."""
        return scorer.measure(case, run_dir, reference)

    def oracle_source(self, case: Case) -> str:
        """The shared oracle with the case's settings."""
        return harness.oracle_source(case)

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """A manufactured case: a new manufactured solution, coefficients and free domain dimensions
        (:mod:`.fresh`), the forcing and boundary data derived by sympy; a refined case: new coefficients and
        data (:mod:`.fresh_refined`)."""
        if family.hidden.reference.get("generator") == "refined":
            return fresh_refined.fresh_case(family, rng)
        return fresh.fresh_case(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """A manufactured case: the oracle's convergence rate at three refinements against the element's order;
        a refined case: its three levels agree and contract (:func:`.fresh_refined.verify_fresh_case`)."""
        if case.hidden.reference.get("generator") == "refined":
            return fresh_refined.verify_fresh_case(case, workdir)
        return fresh.verify_fresh_case(case, workdir)

    def adapt_solution(self, case: Case, source: str) -> str:
        """The second solution under a released variant: handed our ``case_spec`` as the oracle is."""
        return harness.released_adapted(case, source)

    def prompt_context(self, case: Case) -> dict[str, Any]:
        """Under a released variant, ``released_task``: the released prompt's body for the released case_spec
        (which the variant shows the program, so it is the visible part there)."""
        return {"released_task": released_body(released_case_spec(case))} if is_released(case) else {}

    def optional_context(self, case: Case) -> list[ContextPiece]:
        """The library guide's sections, ranked for the case's family."""
        return guide_pieces(case)

    def prepare_run(self, case: Case, run_dir: Path) -> None:
        """The runner that calls ``solve(case_spec)`` and the visible spec."""
        harness.prepare_run(case, run_dir)

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """The field beside the reference and their difference."""
        return scorer.plot_comparison(case, run_dir, reference, png)

    def in_process_seconds(self, case: Case, run_dir: Path) -> float | None:
        """``solve(case_spec)``'s seconds as the runner timed them (``timing: released``: upstream times its
        oracle's solve in process)."""
        return outputs.solve_seconds(run_dir)

    def timed_metrics(
        self, case: Case, run: dict[str, Any], tau_time: float | None, metrics: dict[str, float]
    ) -> dict[str, float]:
        """The case's PDE family and library (:func:`.families.family_metrics`), for the per-family tables."""
        return family_metrics(case)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """PDEAgent-Bench's Table 1 (DOLFINx) and Table 2 (deal.II) pass rates per PDE family."""
        return report.sections(frame)

    def environments(self) -> list[EnvironmentSpec]:
        """``dolfinx`` and ``dealii``."""
        return [DOLFINX, DEALII]

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench import pdeagent-bench PATH [--upstream-tolerance] [--library dolfinx|dealii]``."""
        parser = add_import_command(
            groups, "pdeagent-bench", import_pdeagent_bench, "the upstream JSONL file of records", _options
        )
        parser.add_argument(
            "--upstream-tolerance",
            action="store_true",
            help="each record's own alpha_acc (the released code's quirk) instead of the paper's 10",
        )
        parser.add_argument(
            "--library",
            choices=LIBRARIES,
            default="dolfinx",
            help="dolfinx (default): all 645 records as DOLFINx cases; dealii: the 313 deal.II records as a "
            "deal.II suite (the fem-dealii protocol and oracle)",
        )


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {"upstream_tolerance": args.upstream_tolerance, "library": args.library}
