"""fea and foam: every case's second solution (``hidden.alternative``) through the whole pipeline, beside the
oracle, with mutants built on the second solution; prints one Markdown table row per case.

References, calibration, the oracle, the second solution and its mutants run in a scratch working directory
with the repository's cases (sandbox ``auto``). The mutants of the second solution are those that break any
program (a default or echoed value, wrong units, a crash, no result for fea; a missing patch, a wrong solver,
an unstable time step, a wrong inlet for foam): fea's ``coarse-mesh`` needs the reference's ``--level``.

Another suite's second solutions run the same way with its ``wrong-answer`` mutant (re4's ``unsteady_ns``:
``re4 --cases unsteady_ns``).

Usage: nice -n 5 python benchmarks/second_solutions_fea_foam.py [fea|foam|re4 ...] [--cases ID ...] [--cores N]
       [--mutants NAME ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import pandas as pd
from _common import REPO, machine, snakemake, workdir

from simcodebench.core.cases import load_suite_cases

BROKEN = {
    "fea": ["default-value", "echo-input", "foreign-units", "crash", "no-result"],
    "foam": ["missing-patch", "wrong-solver", "unstable-time-step", "wrong-inlet"],
}
OTHERS = ["wrong-answer"]


def with_alternative(suite: str) -> list[str]:
    """The suite's cases that have a second solution."""
    return [case.id for case in load_suite_cases(REPO / "cases" / suite) if case.hidden.alternative]


def config(suite: str, only: list[str], mutants: list[str] | None = None) -> dict:
    """The run's configuration: the cases with a second solution, their oracle, second solution and the second
    solution's mutants (the suite's list unless ``mutants`` names some)."""
    return {
        "suites": [suite],
        "cases": {suite: [c for c in with_alternative(suite) if not only or c in only]},
        "cases_dir": str(REPO / "cases"),
        "runtime": "auto",
        "agents": {
            "oracle": {"backend": "oracle"},
            "second": {"backend": "alternative"},
            "second-broken": {
                "backend": "mutant",
                "base": "alternative",
                "mutants": mutants or BROKEN.get(suite, OTHERS),
            },
        },
    }


def table(frame: pd.DataFrame) -> list[str]:
    """One row per case: the second solution's class, error and threshold, its run time, and its mutants."""
    rows = [
        "| case | second solution | error | tau | run (s) | its mutants as declared | oracle |",
        "|---|---|---|---|---|---|---|",
    ]
    final = frame[frame.final] if "final" in frame else frame
    for case, group in final.groupby("case"):
        second = group[group.agent == "second"]
        oracle = group[group.agent == "oracle"]
        broken = group[group.agent == "second-broken"]
        row = second.iloc[0]
        wall = json.loads(row.metrics).get("wall_s") if isinstance(row.metrics, str) else None
        wall = row.get("wall_s", wall)
        landed = int((broken.failure_class == broken.declared_class).sum())
        misses = "; ".join(
            f"{m.mutant}: {m.failure_class}" for m in broken.itertuples() if m.failure_class != m.declared_class
        )
        rows.append(
            f"| {case} | {row.failure_class} | {row.error:.2e} | {row.tau_acc:.2e} | "
            f"{float(wall):.1f} | {landed}/{len(broken)}{' (' + misses + ')' if misses else ''} | "
            f"{oracle.failure_class.iloc[0] if len(oracle) else '-'} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("suites", nargs="*", default=["fea", "foam"])
    parser.add_argument("--cases", nargs="*", default=[], help="only these cases")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--mutants", nargs="*", default=[], help="only these mutants of the second solutions")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    for suite in args.suites:
        root = args.keep / suite if args.keep else Path(tempfile.mkdtemp(prefix=f"second-{suite}-"))
        work = workdir(root, config(suite, args.cases, args.mutants))
        start = time.perf_counter()
        snakemake(work, "--cores", str(args.cores), "--rerun-incomplete")
        print(f"\n{suite}: whole run {time.perf_counter() - start:.0f} s ({work})\n")
        print("\n".join(table(pd.read_csv(work / "results" / "summary" / "scores.csv"))))


if __name__ == "__main__":
    main()
