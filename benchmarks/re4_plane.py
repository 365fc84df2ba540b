"""re4 2-D cases: time to generate each DOLFINx reference (all levels, one subprocess), its per-level solver
time, and the oracle's wall time (python solution.py, interpreter start-up included; median of 3) and error.

Runs outside the sandbox, one process at a time.

Usage: python benchmarks/re4_plane.py [CASE ...]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import machine

from simcodebench.core.cases import load_suite_cases
from simcodebench.core.project import cases_root
from simcodebench.execution.environments import get_environment
from simcodebench.suites.re4.scorer import generate_reference, measure

CASES = ("poisson_holes", "helmholtz_holes", "lid_driven", "unsteady_ns")


def oracle_times(case, work: Path, repeats: int = 3) -> list[float]:
    """Wall times of the oracle run as a sample would be (its own folder, the python environment)."""
    shutil.copy(case.folder / case.hidden.oracle, work / "solution.py")
    python = str(get_environment("python").python)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([python, "solution.py"], cwd=work, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def main(wanted: list[str]) -> None:
    print(f"machine: {machine()}")
    print("| case | reference (s) | solver per level (s) | oracle wall (s, median of 3) | oracle error |")
    print("|---|---|---|---|---|")
    cases = {c.id: c for c in load_suite_cases(cases_root() / "re4")}
    for case_id in wanted or CASES:
        case = cases[case_id]
        start = time.perf_counter()
        reference = generate_reference(case)
        made = time.perf_counter() - start
        levels = ", ".join(f"{level['seconds']:.1f}" for level in reference.meta["levels"])
        with tempfile.TemporaryDirectory() as tmp:
            times = oracle_times(case, Path(tmp))
            error = measure(case, Path(tmp), reference).error
        print(f"| {case_id} | {made:.1f} | {levels} | {statistics.median(times):.2f} | {error:.2e} |")


if __name__ == "__main__":
    main(sys.argv[1:])
