"""Measure the published plastic drops' extent ratios the way a fresh plastic case is measured.

Runs each published scene's oracle in Genesis (at the suite variant's video contract, by
:func:`simcodebench.suites.physics.scorer.run_oracle`) and prints its height ratio (and clay's spread) as
the extent checks compute them, unrounded and rounded as :data:`~.fresh_plastic.PUBLISHED` keeps them, with the
run's wall time. These are the values the fresh plastic bounds are scaled from.

Usage: python benchmarks/plastic_published_ratios.py [--suite physics@smoke] [--cases clay_drop,...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simcodebench.core.cases import get_case
from simcodebench.suites.physics import fresh_plastic, scorer
from simcodebench.suites.physics.checks_particles import extent_ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="physics@smoke")
    parser.add_argument("--cases", default=",".join(fresh_plastic.PUBLISHED))
    args = parser.parse_args()
    print("| case | axis | ratio | kept as | published bounds | wall s |")
    print("|---|---|---|---|---|---|")
    for name in args.cases.split(","):
        case = get_case(args.suite, name)
        with tempfile.TemporaryDirectory(prefix="plastic-published-") as work:
            started = time.perf_counter()
            scene = scorer.run_oracle(case, Path(work))
            wall = time.perf_counter() - started
        if isinstance(scene, str):
            print(f"| {name} | - | {scene} | | | {wall:.0f} |")
            continue
        body = next(c["object"] for c in case.hidden.scoring["checks"] if c["check"] == "extent_ratio")
        for axis, (low, high) in fresh_plastic.PUBLISHED[name].published.items():
            value = extent_ratio(scene, {"object": body, "axis": axis}).value
            kept = round(value, fresh_plastic.DIGITS)
            print(f"| {name} | {axis} | {value:.4f} | {kept} | [{low}, {high}] | {wall:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
