"""How steady is this machine's speed? A fixed pure-Python workload timed back to back, in one process.

No subprocess, no file, no harness: whatever varies here varies for every timed run on the machine, oracle and
agent alike, and bounds the coefficient of variation any calibration can reach. Reported: the per-run CV of
wall and CPU time, the share of runs within 10 % of the fastest, and the CV over consecutive windows of the
window's median (what a calibration of k timed runs sees) for a few window lengths.

Usage: python benchmarks/machine_speed.py [SECONDS]   (default 120)
"""

from __future__ import annotations

import statistics
import sys
import time

from _common import machine

WINDOWS = (5, 25, 100)


def workload() -> int:
    """A fixed amount of integer arithmetic, about 0.1 s on a 2.5 GHz core."""
    total = 0
    for value in range(1_000_000):
        total = (total + value * value) % 1_000_003
    return total


def timed_runs(seconds: float) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each run until ``seconds`` have passed."""
    runs, deadline = [], time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        wall, cpu = time.perf_counter(), time.process_time()
        workload()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    return runs


def cv(values: list[float]) -> float:
    """Population coefficient of variation."""
    return statistics.pstdev(values) / statistics.mean(values)


def main(seconds: float) -> None:
    runs = timed_runs(seconds)
    walls, cpus = [run[0] for run in runs], [run[1] for run in runs]
    fastest = min(walls)
    print(f"machine: {machine()}")
    print(f"{len(runs)} runs in {seconds:g} s; fastest {fastest:.3f} s, median {statistics.median(walls):.3f} s")
    print(f"per-run CV: wall {100 * cv(walls):.1f} %, CPU {100 * cv(cpus):.1f} %")
    print(f"runs within 10 % of the fastest: {100 * sum(w <= 1.1 * fastest for w in walls) / len(walls):.0f} %")
    for size in WINDOWS:
        medians = [statistics.median(walls[i : i + size]) for i in range(0, len(walls) - size + 1, size)]
        if len(medians) > 1:
            print(f"median of {size} consecutive runs: CV over {len(medians)} windows {100 * cv(medians):.1f} %")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 120.0)
