"""cfd-code: time to generate each reference, to run its oracle, and to run the convergence check (the oracle
refined 2x), with the check's verdict.

Runs on the local runtime, one process at a time.

Usage: python benchmarks/cfd_code_references.py [CASE ...]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _common import machine

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.project import cases_root
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.convergence import check_convergence
from simcodebench.suites.cfd_code.scorer import generate_reference

PASS_MARK = {"thresholds": {"accuracy": 0.10}}


def main(wanted: list[str]) -> None:
    print(f"machine: {machine()}")
    print("| problem | reference (s) | oracle run (s) | convergence check (s) | converged | errors first -> refined |")
    print("|---|---|---|---|---|---|")
    for case in load_suite_cases(cases_root() / "cfd-code"):
        if wanted and case.id not in wanted:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            start = time.perf_counter()
            reference = generate_reference(case)
            reference_s = time.perf_counter() - start
            write_solution(extract_files(case, oracle_reply(case)), work / "solution")
            start = time.perf_counter()
            run = execute_solution(case, work / "solution", work / "run", "local").to_dict()
            run_s = time.perf_counter() - start
            start = time.perf_counter()
            record = check_convergence(
                case, {"status": "ok"}, work / "solution", run, work / "run", reference, PASS_MARK, work / "c", "local"
            )
            check_s = time.perf_counter() - start
        errors = record.get("metrics", {})
        change = f"{errors.get('error_first', float('nan')):.1e} -> {errors.get('error_refined', float('nan')):.1e}"
        print(
            f"| {case.id} | {reference_s:.1f} | {run_s:.1f} | {check_s:.1f} | {record['converged']} | "
            f"{change if record['status'] == 'checked' else record['status']} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
