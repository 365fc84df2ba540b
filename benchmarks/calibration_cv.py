"""Coefficient of variation of t_base over 5 calibration repeats (target <= 3 %).

Each repeat recalibrates every re4 case from scratch (warm-up plus the median of k timed oracle runs);
the CV is taken over the 5 t_base values of each case.

Usage: python benchmarks/calibration_cv.py [REPEATS]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

from _common import machine, snakemake, workdir


def main(repeats: int = 5) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = workdir(Path(tmp), {"suites": ["re4"], "agents": {"oracle": {"backend": "oracle"}}})
        bases: dict[str, list[float]] = {}
        for index in range(repeats):
            snakemake(work, "--cores", "1", "calibrate", *(["--forcerun", "calibration"] if index else []))
            for path in sorted((work / "results" / "calibration" / "re4").glob("*.json")):
                bases.setdefault(path.stem, []).append(json.loads(path.read_text())["t_base"])
        print(f"machine: {machine()} (calibration with --cores 1)")
        print("| case | t_base mean (s) | CV over repeats | values |")
        print("|---|---|---|---|")
        for case, values in bases.items():
            mean = statistics.mean(values)
            cv = statistics.pstdev(values) / mean
            print(f"| {case} | {mean:.3f} | {100 * cv:.1f}% | {', '.join(f'{v:.3f}' for v in values)} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
