"""The fresh Rayleigh-Benard family at the corners of its ranges (and at chosen points): the whole verification.

Each point is written as a fresh case by the family's own edits (``fresh.instance``) and verified as
``simcodebench generate`` verifies a draw (``fresh.verify``): the 6-run reference ensemble on 256 x 65 and its
spread, 3 runs on 384 x 97 scored against it, the fresh oracle, and the published oracle, which must fail.
Prints one markdown table row per point; exits non-zero when a corner of the ranges is dropped.

Usage: python benchmarks/rayleigh_benard_fresh_corners.py [--points RA_E5:PR,...] [--work DIR]
       (about 4 minutes a point on the 2-core machine of BENCHMARKS.md)
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, machine

from simcodebench.core.cases import Case, get_case
from simcodebench.suites.cfd_code import fresh

sys.path.insert(0, str(REPO / "tests"))
from fresh_support import write_case  # noqa: E402

FAMILY = "2D_Rayleigh_Benard_Convection"


def _case(root: Path, name: str, params: dict[str, float]) -> Case:
    """The family's instance at ``params`` as case ``name`` of a copy of the cfd-code protocol under ``root``."""
    published = get_case("cfd-code", FAMILY)
    made = fresh.instance(published, fresh.FAMILIES[FAMILY], params)
    return write_case(root, "cfd-code", name, made.case, made.files)


def _format(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2g}"
    if isinstance(value, list):
        return ", ".join(_format(v) for v in value)
    return "-" if value is None else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", help="RA_E5:PR pairs, comma-separated (default: the corners of the ranges)")
    parser.add_argument("--work", help="scratch folder (default: a temporary one, removed)")
    args = parser.parse_args()
    ranges = fresh.FAMILIES[FAMILY].params
    if args.points:
        points = [dict(zip(ranges, map(float, p.split(":")), strict=True)) for p in args.points.split(",")]
    else:
        corners = itertools.product(*((p.lo, p.hi) for p in ranges.values()))
        points = [dict(zip(ranges, corner, strict=True)) for corner in corners]
    root = Path(args.work or tempfile.mkdtemp(prefix="rb-corners-"))
    print(f"{machine()}\n")
    columns = ["leave_one_out_worst", "finer_member_errors", "finer_mean_error", "oracle_nmse", "published_answer_nmse"]
    print("| Ra | Pr | spread (leave-one-out) | finer runs | finer mean | oracle | published answer | kept | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    dropped = 0
    for index, point in enumerate(points):
        case = _case(root, f"corner-{index}", point)
        started = time.perf_counter()
        check = fresh.verify(case, root / f"work-{index}")
        seconds = time.perf_counter() - started
        dropped += not check.ok
        cells = [_format(check.detail.get(name)) for name in columns]
        verdict = "yes" if check.ok else f"no: {check.detail['reason']}"
        ra, pr = point.values()
        print(f"| {ra:g}e5 | {pr:g} | {' | '.join(cells)} | {verdict} | {seconds:.0f} |", flush=True)
    if not args.work:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if dropped else 0


if __name__ == "__main__":
    raise SystemExit(main())
