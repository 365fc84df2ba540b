"""The corners of the foam families' drawn geometry: OpenFOAM's run of each corner's fresh oracle and its check.

For the wedge (angle x Mach number), the forward step (height x Mach number) and the dam break (obstacle and
water column), each corner of the ranges is written as a fresh case by the family's own case builder, run
with OpenFOAM as the generator's verification runs it (``fresh.verify``) and judged by the family's physical
check; so is each published case of the family, whose geometry the same checks now read from its mesh. Prints
one markdown table row per run (measured against predicted) and exits non-zero when one fails.

Usage: python benchmarks/foam_geometry_corners.py [--families wedge,forwardStep,damBreak] [--work DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

from simcodebench.core.cases import Case, get_case, load_case, load_suite
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.project import cases_root
from simcodebench.suites.foam import fresh, fresh_dambreak, fresh_supersonic

CORNERS = {
    "wedge": (
        "wedge-1",
        fresh_supersonic.wedge_case,
        [{"wedge_deg": w, "inlet_speed": u} for w in (10.0, 20.0) for u in (4.0, 6.0)],
    ),
    "forwardStep": (
        "forwardStep-1",
        fresh_supersonic.step_case,
        [
            {"step_height": h, "inlet_speed": u, "inlet_temperature": t}
            for h in (0.1, 0.3)
            for u, t in ((2.5, 1.2), (3.2, 0.9))
        ],
    ),
    "damBreak": (
        "damBreak-1",
        fresh_dambreak.column_case,
        [
            {**obstacle, "width": w, "height": h, "nu_exponent": -6.0}
            for obstacle in fresh_dambreak.OBSTACLE_CORNERS
            for w, h in ((0.1, 0.2), (0.2, 0.3))
        ],
    ),
}
SHOWN = ("wedge_deg", "fitted_angle_deg", "shock_angle_deg", "fitted_jump", "pressure_jump", "step_height")
SHOWN += ("face_max_ratio", "pitot_ratio", "standoff", "water_area", "filled_area", "centroid_height")


def _write(root: Path, family: Case, index: int, made: FreshDraw) -> Case:
    """The drawn case as case ``<family>-fresh<index>`` of a scratch copy of the foam suite."""
    folder = root / "foam-fresh-s0"
    if not folder.is_dir():
        folder.mkdir(parents=True)
        for path in (cases_root() / "foam").iterdir():
            if path.is_file():
                (folder / path.name).write_bytes(path.read_bytes())
        protocol = yaml.safe_load((folder / "suite.yaml").read_text())
        (folder / "suite.yaml").write_text(yaml.safe_dump({**protocol, "name": folder.name}, sort_keys=False))
    case_dir = folder / f"{family.id}-fresh{index}"
    for path in (family.folder / "oracle").rglob("*"):
        if path.is_file():
            target = case_dir / path.relative_to(family.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    for name, text in made.files.items():
        (case_dir / name).write_text(text, encoding="utf-8")
    (case_dir / "case.yaml").write_text(yaml.safe_dump({**made.case, "id": case_dir.name}, sort_keys=False))
    return load_case(load_suite(folder), case_dir)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(CORNERS))
    parser.add_argument("--work", help="scratch folder (default: a temporary one)")
    args = parser.parse_args()
    root = Path(args.work or tempfile.mkdtemp(prefix="foam-corners-"))
    failed = 0
    print("| family | corner | kept | measured (check detail) | seconds |\n|---|---|---|---|---|")
    for name in args.families.split(","):
        published, build, corners = CORNERS[name]
        family = get_case("foam", published)
        runs = [(str(corner), _write(root, family, i, build(family, corner))) for i, corner in enumerate(corners)]
        runs += [(f"published {n}", get_case("foam", f"{name}-{n}")) for n in (1, 2, 3)]
        for corner, case in runs:
            started = time.perf_counter()
            check = fresh.verify(case, root)
            seconds = time.perf_counter() - started
            shown = {k: float(f"{v:.6g}") for k, v in check.detail.items() if k in SHOWN and isinstance(v, float)}
            reason = check.detail.get("reason", "")
            print(f"| {name} | {corner} | {'yes' if check.ok else 'NO'} | {shown} {reason} | {seconds:.1f} |")
            failed += not check.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
