"""Every fem and fem-dealii case's second solution through the workflow beside the oracle (issue 38).

One Snakemake run in a scratch folder with the agents ``oracle``, ``second`` (``backend: alternative``) and
``second-broken`` (the second solution with its grid transposed, fem, or rewritten 1.5 v + 0.5 at exit, fem-dealii);
the calibration times the oracle (1 warm-up, 3 timed runs) and sets the gates. Prints a markdown table per suite
for benchmarks/results/second-solutions-fem.md: the oracle's error and time (e_base, t_base), the gates, the second
solution's error, time and class and the broken one's class. Exits non-zero when a second solution does not pass
or a broken one does not fail.

Usage: python benchmarks/second_solutions_fem.py [--suites fem,fem-dealii] [--cases a,b] [--workdir DIR] [--cores 2]
       [--no-broken]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from _common import REPO, machine, snakemake, workdir

BROKEN = {"fem": "transposed", "fem-dealii": "wrong-answer"}


def table(frame: pd.DataFrame, work: Path, suite: str) -> tuple[str, int]:
    """The suite's markdown table and how many of its rows miss (a second solution not passing, a broken one
    passing)."""
    rows = frame[frame.suite == suite]
    lines = [
        "| case | e_base | tau_acc | e (second) | t_base (s) | tau_time (s) | t (second, s) | second | broken |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    misses = 0
    for case in sorted(rows.case.unique()):
        calibration = json.loads((work / "results" / "calibration" / suite / f"{case}.json").read_text())
        second = rows[(rows.case == case) & (rows.agent == "second")].iloc[0]
        broken = rows[(rows.case == case) & (rows.agent == "second-broken")]
        broken_class = broken.failure_class.iloc[0] if len(broken) else "-"
        misses += int(second.failure_class != "Pass") + int(broken_class == "Pass")
        lines.append(
            f"| {case} | {calibration['e_base']:.2e} | {second.tau_acc:.2e} | {second.error:.2e} | "
            f"{calibration['t_base']:.2f} | {second.tau_time:.1f} | {second.wall_s:.2f} | {second.failure_class} | "
            f"{broken_class} |"
        )
    return "\n".join(lines), misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="fem,fem-dealii")
    parser.add_argument("--cases", default="", help="comma-separated case ids (default: every case)")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the run here (default: a temporary folder)")
    parser.add_argument("--cores", default="2")
    parser.add_argument(
        "--no-broken",
        action="store_true",
        help="leave out the broken second solution (on fem-dealii each one is one more compile, 1-3 minutes)",
    )
    args = parser.parse_args()
    suites = args.suites.split(",")
    root = args.workdir or Path(tempfile.mkdtemp(prefix="second-solutions-fem-"))
    agents = {"oracle": {"backend": "oracle"}, "second": {"backend": "alternative"}}
    if not args.no_broken:
        agents["second-broken"] = {"backend": "mutant", "base": "alternative", "mutants": sorted(set(BROKEN.values()))}
    config = {"cases_dir": str(REPO / "cases"), "runtime": "auto", "suites": suites, "agents": agents}
    if args.cases:
        config["cases"] = {suite: args.cases.split(",") for suite in suites}
    work = workdir(root, config)
    snakemake(work, "--cores", args.cores, "--rerun-incomplete", "--keep-going")
    frame = pd.read_csv(work / "results" / "summary" / "scores.csv")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO)
    print(f"{machine()}, commit {commit.stdout.strip()}, work {work}\n")
    misses = 0
    for suite in suites:
        text, missed = table(frame, work, suite)
        misses += missed
        print(f"### {suite}\n\n{text}\n")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
