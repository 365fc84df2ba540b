"""The events a scaled physics scene's checks time, read from Genesis recordings, against geometric similarity.

For each recording (the runner's ``simcodebench_physics.json``, or a run folder holding one) and the scale s of
its scene (1 for the published one): the domino chain's per-domino times of passing 5 and 60 degrees (the events
the checks time), or the jelly-slab ball's deepest point at the recorded frames, when, and where it rests (its
lowest point over the last 30 % of the run). With the published recording first, each scaled one is printed
beside the published events scaled (times by sqrt(s), lengths by s).

The scaled scenes are the families' own oracles (:mod:`simcodebench.suites.physics.fresh_scaled`) at a chosen s,
with the published material, at the smoke video size and a chosen length; ``write`` puts one into a folder with the
suite's runner, to be run there by the genesis environment's Python (``SIMCODEBENCH_GENESIS_BACKEND=cpu python
physics_runner.py``), which writes the recording.

Usage: python benchmarks/physics_scaled_events.py write CASE S FOLDER [--seconds 1.5]
       python benchmarks/physics_scaled_events.py compare CASE PUBLISHED RUN:S [RUN:S ...]
"""

from __future__ import annotations

import argparse
import math
import shutil
from pathlib import Path

import numpy as np

from simcodebench.core.cases import get_case
from simcodebench.core.fresh_edits import substitute
from simcodebench.suites.physics import fresh_scaled, runner
from simcodebench.suites.physics.check_common import lowest_point, rotation
from simcodebench.suites.physics.state import STATE_FILE, Scene, load_recording

PUBLISHED_CONTRACT = "RES, FPS, SECONDS = (1280, 640), 60, 5.0"
PUBLISHED_MATERIAL = {"material": "oak", "density": 700.0}


def _scene(path: Path) -> Scene:
    folder = path.parent if path.name == STATE_FILE else path
    recording = load_recording(folder)
    scene = recording.main_scene() if recording else None
    if scene is None:
        raise SystemExit(f"{path}: no recording with a stepped scene")
    return scene


def _crossing(t: np.ndarray, angles: np.ndarray, deg: float) -> float:
    """First time the angle passes ``deg``, interpolated between the recorded steps (nan if never)."""
    above = np.nonzero(angles >= deg)[0]
    if len(above) == 0:
        return math.nan
    i = int(above[0])
    if i == 0:
        return float(t[0])
    return float(t[i - 1] + (deg - angles[i - 1]) * (t[i] - t[i - 1]) / (angles[i] - angles[i - 1]))


def domino_events(scene: Scene) -> list[tuple[float, float]]:
    """Per domino along +x: the times (s) it passes 5 and 60 degrees of tilt."""
    boxes = sorted((e for e in scene.entities if e.rigid and e.kind == "box"), key=lambda e: e.series["pos"][0][0])
    events = []
    for entity in boxes:
        axis = rotation(entity.series["quat"])[:, :, 2]
        angles = np.degrees(np.arccos(np.clip(np.abs(axis[:, 2]), 0.0, 1.0)))
        events.append((_crossing(entity.t, angles, 5.0), _crossing(entity.t, angles, 60.0)))
    return events


def jelly_events(scene: Scene) -> tuple[float, float]:
    """The rigid ball's deepest lowest point (m) and when (s)."""
    ball = next(e for e in scene.entities if e.rigid and e.kind == "sphere")
    low = lowest_point(ball)
    i = int(np.nanargmin(low))
    return float(low[i]), float(ball.t[i])


def write(case: str, scale: float, folder: Path, seconds: float) -> None:
    """The family's oracle at scale ``scale`` (published material, smoke video size) and the runner in ``folder``."""
    family = fresh_scaled.FAMILIES[case]
    params = family.reference({"scale": scale, **PUBLISHED_MATERIAL})
    _, edits = family.edits(params)
    published = get_case("physics", case).folder / "oracle.py"
    source = substitute(published.read_text(encoding="utf-8"), edits, str(published))
    source = substitute(source, [(PUBLISHED_CONTRACT, f"RES, FPS, SECONDS = (320, 160), 30, {seconds!r}")], "contract")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / runner.SOLUTION).write_text(source, encoding="utf-8")
    shutil.copy(runner.__file__, folder / "physics_runner.py")


def jelly_rest(scene: Scene, tail: float = 0.3) -> float:
    """The ball's lowest point (m) averaged over the last ``tail`` of the run: where it rests, pressed into the slab."""
    ball = next(e for e in scene.entities if e.rigid and e.kind == "sphere")
    low = lowest_point(ball)
    return float(np.mean(low[ball.t >= ball.t[-1] * (1.0 - tail)]))


def _runs(items: list[str]) -> list[tuple[Path, float]]:
    runs = []
    for item in items:
        path, _, scale = item.rpartition(":") if ":" in item else (item, "", "1")
        runs.append((Path(path), float(scale)))
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    writer = commands.add_parser("write")
    writer.add_argument("case", choices=sorted(fresh_scaled.FAMILIES))
    writer.add_argument("scale", type=float)
    writer.add_argument("folder", type=Path)
    writer.add_argument("--seconds", type=float, default=1.5)
    compare = commands.add_parser("compare")
    compare.add_argument("case", choices=sorted(fresh_scaled.FAMILIES))
    compare.add_argument("runs", nargs="+", help="RUN[:SCALE], the published run first")
    args = parser.parse_args()
    if args.command == "write":
        write(args.case, args.scale, args.folder, args.seconds)
        return 0
    runs = _runs(args.runs)
    (published, s0), rest = runs[0], runs[1:]
    if args.case == "domino_chain":
        base = domino_events(_scene(published))
        print("| run | s | domino | 5 deg at (s) | predicted sqrt(s/s0) x published | 60 deg at | predicted |")
        print("|---|---|---|---|---|---|---|")
        for path, s in runs:
            k = math.sqrt(s / s0)
            for i, ((t5, t60), (b5, b60)) in enumerate(zip(domino_events(_scene(path)), base, strict=True)):
                print(f"| {path} | {s:g} | {i + 1} | {t5:.3f} | {k * b5:.3f} | {t60:.3f} | {k * b60:.3f} |")
    else:
        low0, when0 = jelly_events(_scene(published))
        rest0 = jelly_rest(_scene(published))
        print("| run | s | deepest point, frames (m) | predicted | at (s) | predicted | resting (m) | predicted |")
        print("|---|---|---|---|---|---|---|---|")
        for path, s in [(published, s0), *rest]:
            scene = _scene(path)
            low, when = jelly_events(scene)
            k = s / s0
            print(
                f"| {path} | {s:g} | {low:.4f} | {low0 * k:.4f} | {when:.3f} | {when0 * math.sqrt(k):.3f} "
                f"| {jelly_rest(scene):.4f} | {rest0 * k:.4f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
