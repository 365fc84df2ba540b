"""The ``cfd-code`` plugin: CFDLLMBench's CFDCodeBench, NMSE against our reference solvers (or the released
arrays), and the replay of upstream's recorded generations."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from simcodebench.core.cases import Case, validate_path
from simcodebench.core.errors import InputError
from simcodebench.core.layout import Layout
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import CommandGroups, SuitePlugin
from simcodebench.core.project import cases_root
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import fresh, released, scorer

if TYPE_CHECKING:
    import numpy as np

    from simcodebench.core.fresh import FreshCheck, FreshDraw


class CfdCodeSuite(SuitePlugin):
    """CFDCodeBench (``cases/cfd-code``): final-time fields scored by NMSE, convergence under refinement."""

    name = "cfd-code"

    def generate_reference(self, case: Case) -> Reference:
        """The case's reference solver, run finer than the oracle."""
        return scorer.generate_reference(case)

    def released_reference_files(self, case: Case, folder: Path, field: str) -> list[Path]:
        """The case's released arrays ``<var>_<case>.npy`` in ``folder`` (legacy variant only), shapes checked."""
        return released.check_folder(case, folder, field)

    def read_released_reference(self, case: Case, files: list[Path]) -> Reference:
        """The released arrays as the reference, in the upstream layout."""
        return released.read(case, files)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """NMSE of each saved field against the reference, scored 1 / 0.5 / 0 as the paper."""
        return scorer.measure(case, run_dir, reference)

    def oracle_source(self, case: Case) -> str:
        """The case's reference solver at the oracle's resolution."""
        return scorer.oracle_source(case)

    def convergence_error(self, case: Case, measurement: Measurement) -> float:
        """The worst NMSE of the variables that converge pointwise (``hidden.scoring.convergence_fields``)."""
        return scorer.convergence_error(case, measurement)

    def adapt_solution(self, case: Case, source: str) -> str:
        """In legacy mode, the released layout appended (as for the oracle)."""
        return scorer.released_layout(case, source)

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """The fields beside the reference and their difference (statistics for the convection case)."""
        return scorer.plot_comparison(case, run_dir, reference, png)

    def prompt_context(self, case: Case) -> dict[str, float]:
        """The pass mark the prompt states (``pass_mark``): the paper's fixed NMSE bound, public by definition."""
        return {"pass_mark": float(case.threshold_policy()["accuracy"]["value"])}

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """New coefficients, final times, initial and boundary data (:mod:`.fresh_families` lists the families)."""
        return fresh.fresh_draw(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """The reference's two finer levels agree with it, and the oracle matches it (:func:`.fresh.verify`)."""
        return fresh.verify(case, workdir)

    def add_commands(self, groups: CommandGroups) -> None:
        """``simcodebench replay cfdcodebench`` and ``simcodebench compare cfdcodebench``."""
        replay = groups["replay"].add_parser("cfdcodebench", help="CFDCodeBench's recorded scripts as a replay file")
        replay.add_argument("folder", help="the upstream folder of <task>.py scripts (solver/<model>/prompts)")
        replay.add_argument("--out", required=True, help="replay JSONL file to write")
        replay.set_defaults(func=_replay)
        compare = groups["compare"].add_parser("cfdcodebench", help="our scores of a replayed agent beside upstream's")
        compare.add_argument("--agent", required=True, help="the replay agent's name in the config")
        compare.add_argument("--comparison-log", required=True, help="compare/comparison_results_<model>_prompts.log")
        compare.add_argument("--execution-log", help="report/execution_results_<model>_prompts_*.log")
        compare.add_argument(
            "--suite", default="cfd-code@legacy", help="the suite the agent ran (default cfd-code@legacy)"
        )
        compare.add_argument("--results", default="results", help="the results folder (default results)")
        compare.set_defaults(func=_compare)


def _cases() -> set[str]:
    return {case.id for case in validate_path(cases_root() / "cfd-code")}


def _replay(args: argparse.Namespace) -> int:
    from simcodebench.suites.cfd_code.upstream import write_replay

    count, skipped = write_replay(Path(args.folder), Path(args.out), _cases())
    print(
        f"ok: {count} replies written to {args.out}"
        + (f"; not cases of cfd-code: {', '.join(skipped)}" if skipped else "")
    )
    return 0


def _compare(args: argparse.Namespace) -> int:
    from simcodebench.suites.cfd_code import upstream

    logs = {}
    for name in ("comparison_log", "execution_log"):
        path = getattr(args, name)
        try:
            logs[name] = Path(path).read_text(encoding="utf-8", errors="replace") if path else ""
        except OSError as exc:
            raise InputError(path, "(file)", f"cannot be read ({exc.strerror})", "point at the upstream log") from exc
    runs = Path(Layout(args.results).runs)
    scores = upstream.read_scores(runs, args.agent, args.suite)
    if not scores:
        raise InputError(
            runs / args.agent / args.suite,
            "(folder)",
            "holds no score.json",
            "run the replay agent on the suite first (see cases/cfd-code/README.md)",
        )
    rows = upstream.compare(
        upstream.parse_comparison_log(logs["comparison_log"], _cases()),
        upstream.parse_execution_log(logs["execution_log"]),
        scores,
    )
    print(upstream.markdown(rows), end="")
    return 0
