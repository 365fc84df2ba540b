"""The ``re4`` plugin: Re^4's numerical problems (six PDEs, Hilbert, keyhole), their references and tables."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.errors import InputError
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, ReportSection, SuitePlugin
from simcodebench.core.project import cases_root
from simcodebench.core.references import Reference
from simcodebench.suites.re4 import fresh, report, scorer
from simcodebench.suites.re4.released import DEFAULT_ID, import_released_keyhole

if TYPE_CHECKING:
    import numpy as np

    from simcodebench.core.fresh import FreshCheck, FreshDraw


class Re4Suite(SuitePlugin):
    """Re^4 (``cases/re4``): exact and DOLFINx references, relative L2 / L-inf errors, the paper's tables."""

    name = "re4"
    fresh_note = "; ".join(f"{case} has none: {why}" for case, why in fresh.NO_GENERATOR.items())

    def generate_reference(self, case: Case) -> Reference:
        """Closed forms (Sod, Burgers, Hilbert), DOLFINx solves (2-D PDEs) or the keyhole data set's law."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """The case's error measure on the written fields (or execution alone under ``re4@paper``)."""
        return scorer.measure(case, run_dir, reference)

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """1-D fields over the reference, 2-D fields side by side with their difference."""
        return scorer.plot_comparison(case, run_dir, reference, png)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """Re^4's tables (Fig. 2, Tables 2 and 4, Hilbert by n, keyhole) for ``re4``-strategy agents."""
        return report.sections(frame)

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """New viscosity and time (Burgers), states and time (shock tube), sizes and solution (Hilbert), disks,
        boundary values and source (the holed Laplace and Helmholtz problems), Re and lid amplitude (the cavity),
        Re, final time, inlet and forcing amplitudes (the forced channel); the keyhole data set has none
        (:data:`.fresh.NO_GENERATOR`)."""
        return fresh.fresh_draw(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """The reference's own check, and the oracle, once and refined, against it (:func:`.fresh.verify`)."""
        return fresh.verify(case, workdir)

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench import re4-transcripts FOLDER --out FOLDER``: the released replies as replay files;
        ``simcodebench import re4-keyhole FOLDER [--out CASE_FOLDER]``: the keyhole case on the released data."""
        parser = groups["import"].add_parser("re4-transcripts", help="Re^4's released replies as replay files")
        parser.add_argument("path", help="the released replies' folder")
        parser.add_argument("--out", help="the folder for the <programmer>.jsonl files")
        parser.set_defaults(func=_import_transcripts)
        keyhole = groups["import"].add_parser("re4-keyhole", help="the keyhole case on Re^4's released data set")
        keyhole.add_argument("folder", help="the folder holding the released dataset_keyhole.csv")
        keyhole.add_argument("--out", help="the case folder to write (default: cases/re4/keyhole_released)")
        keyhole.set_defaults(func=_import_keyhole)


def _import_keyhole(args: argparse.Namespace) -> int:
    out = import_released_keyhole(Path(args.folder), Path(args.out or cases_root() / "re4" / DEFAULT_ID))
    print(f"ok: case {out.name} written to {out}; run it with cases: {{re4: [{out.name}]}}")
    return 0


def _import_transcripts(args: argparse.Namespace) -> int:
    from simcodebench.suites.re4.transcripts import import_re4_transcripts

    if not args.out:
        raise InputError("(command line)", "--out", "is missing", "give the folder for the <programmer>.jsonl files")
    counts, unknown = import_re4_transcripts(Path(args.path), Path(args.out))
    written = ", ".join(f"{programmer}.jsonl ({count} replies)" for programmer, count in counts.items())
    print(f"ok: {written} written to {args.out}" + (f"; not Re^4 problems: {', '.join(unknown)}" if unknown else ""))
    return 0
