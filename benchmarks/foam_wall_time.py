"""foam: time to generate each reference (an OpenFOAM run of the oracle case, outside the sandbox) and the wall
time of one sample: the oracle's reply run as a sample in the sandbox (``auto`` runtime: bwrap here), then
scored (fields read at the reference's cell centres, NMSE, structure and ROUGE-L diagnostics).

One case at a time, on the case's own cores.

Usage: python benchmarks/foam_wall_time.py [CASE ...]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import machine

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.project import cases_root
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution
from simcodebench.suites.foam import scorer


def main(wanted: list[str]) -> None:
    print(f"machine: {machine()}")
    print("| case | cells | reference (s) | sample run (s) | scoring (s) | sample total (s) | outcome, NMSE |")
    print("|---|---|---|---|---|---|---|")
    totals, references = [], []
    for case in load_suite_cases(cases_root() / "foam"):
        if wanted and case.id not in wanted:
            continue
        runtime = resolve_runtime("auto", case.suite.environment)
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            start = time.perf_counter()
            reference = scorer.generate_reference(case)
            reference_s = time.perf_counter() - start
            start = time.perf_counter()
            write_solution(extract_files(case, oracle_reply(case)), work / "solution")
            run = execute_solution(case, work / "solution", work / "run", runtime)
            run_s = time.perf_counter() - start
            start = time.perf_counter()
            evaluation = scorer.measure(case, work / "run", reference)
            scorer.diagnose(case, work / "solution")
            score_s = time.perf_counter() - start
        totals.append(run_s + score_s)
        references.append(reference_s)
        verdict = f"{evaluation.outcome}, {evaluation.error:.1e}" if evaluation.error is not None else run.status
        print(
            f"| {case.id} | {reference.scalars['cells']} | {reference_s:.1f} | {run_s:.1f} | {score_s:.2f} | "
            f"{run_s + score_s:.1f} | {verdict} |"
        )
    if totals:
        print(
            f"\n{len(totals)} cases ({runtime}): sample total median {statistics.median(totals):.1f} s, "
            f"max {max(totals):.1f} s, sum {sum(totals):.0f} s; references sum {sum(references):.0f} s"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
