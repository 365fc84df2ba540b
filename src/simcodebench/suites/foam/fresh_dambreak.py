"""Fresh dam-break cases (interFoam): a new water column, water viscosity and obstacle.

A draw takes the column's width in [0.1, 0.2] m and height in [0.2, 0.3] m (the published columns are 0.1461 or
0.2 wide and 0.2 to 0.3 high; well below the tank's 0.584 m lid), the water's viscosity nu = 10^e, e in [-6, -5]
(the published 1e-06 and 1e-05), and the obstacle on the tank's floor: its left side at x in [0.25, 0.35] m, its
width in [0.016, 0.036] m and its height in [0.032, 0.064] m (the tutorial's: 0.292, 0.024 and 0.048 m), so the
column always stands left of it. It writes them into the problem text, the title, the oracle's ``setFieldsDict``
(the box filled with water), ``transportProperties`` (the water phase) and ``blockMeshDict``: the tutorial's five
blocks around the obstacle (vertices written as metres / the dictionary's scale 0.146, to 5 decimals, as the
tutorial writes them), each with about the tutorial's cell size in that block, and the problem text states the
obstacle's span and each block's cells. The mutants quote none of them (the atmosphere's pressure, the time
step, the patch and the solver).

Check, on OpenFOAM's run of the fresh oracle: interFoam conserves the water, so the volume of water at the end
time (alpha.water times each cell's area, the areas from the uniform blocks of ``blockMeshDict``) is the area
setFields filled (the cells whose centres lie in the drawn column, within a cell of width x height) within 0.1%;
the column has collapsed under gravity (the water's centre of mass lies
below its initial height h / 2); and alpha.water stays within [0, 1] up to 0.01.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.suites.foam import block_mesh
from simcodebench.suites.foam.dictionaries import block_span, set_scalar
from simcodebench.suites.foam.fresh_common import Family, oracle_text, published_case
from simcodebench.suites.foam.scorer import OracleRun

SET_FIELDS, TRANSPORT, MESH = "system/setFieldsDict", "constant/transportProperties", "system/blockMeshDict"
ALPHA = "alpha.water"
PARAMS = {
    "width": Param(0.1, 0.2, 3),
    "height": Param(0.2, 0.3, 3),
    "nu_exponent": Param(-6.0, -5.0, 2),
    "obstacle_x": Param(0.25, 0.35, 3),
    "obstacle_width": Param(0.016, 0.036, 3),
    "obstacle_height": Param(0.032, 0.064, 3),
}
OBSTACLE_CORNERS = (
    {"obstacle_x": 0.25, "obstacle_width": 0.036, "obstacle_height": 0.064},
    {"obstacle_x": 0.35, "obstacle_width": 0.016, "obstacle_height": 0.032},
)
"""The obstacle's extremes: the largest nearest the column, the smallest farthest from it."""
TANK = 0.584
CELL_X, CELL_Y = (0.292 / 23, 0.024 / 4, 0.268 / 19), (0.048 / 8, 0.536 / 42)
"""The tutorial's cell sizes (m): in x left of, on and right of the obstacle; in y beside and above it."""
PUBLISHED_OBSTACLE = (
    "an obstacle of 0.024 m x 0.048 m at the bottom centre; five blocks of 23 x 8, 19 x 8, 23 x 42, 4 x 42 and"
    " 19 x 42 cells"
)
OBSTACLE_TEXT = (
    "an obstacle of {w} m x {h} m on the bottom, from x = {x0} to {x1} m; five blocks of {c[0]}, {c[1]}, {c[2]},"
    " {c[3]} and {c[4]} cells"
)
"""The published obstacle and mesh in the problem text, and the drawn one's (the ``blockMeshDict`` it states)."""
_HEX_CORNERS = re.compile(r"hex\s*\(([\d\s]+)\)")
VOLUME_TOLERANCE, ALPHA_SLACK = 1e-3, 0.01
_BOX = re.compile(r"box \(0 0 -1\) \((?P<w>\S+) (?P<h>\S+) 1\);")
_NUMBER = r"[-+0-9.eE]+"


def _column(set_fields: str) -> tuple[str, str]:
    found = _BOX.search(set_fields)
    if found is None:
        raise ValueError(f"{SET_FIELDS}: no 'box (0 0 -1) (w h 1);' of water")
    return found["w"], found["h"]


def _water_nu(transport: str) -> tuple[int, int, str]:
    """The water phase's sub-dictionary span and its ``nu`` text."""
    start, end = block_span(transport, "water")
    found = re.search(rf"^\s*nu\s+({_NUMBER});", transport[start:end], re.M)
    if found is None:
        raise ValueError(f"{TRANSPORT}: the water phase has no 'nu'")
    return start, end, found.group(1)


def draw_column(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new water column, water viscosity and obstacle of a damBreak case."""
    return column_case(family, draw(rng, PARAMS))


def obstacle_mesh(published: str, x0: float, width: float, height: float) -> tuple[str, list[tuple[int, int]]]:
    """The published ``blockMeshDict`` with the obstacle from ``x0`` to ``x0 + width`` m, ``height`` m tall, and
    the cells of its five blocks (each about as wide and tall as the tutorial's in that block)."""
    tank, factor = TANK, block_mesh.scale(published)
    x1 = x0 + width
    nx = (round(x0 / CELL_X[0]), max(2, round(width / CELL_X[1])), round((tank - x1) / CELL_X[2]))
    ny = (max(2, round(height / CELL_Y[0])), round((tank - height) / CELL_Y[1]))
    xs = [round(v / factor, 5) for v in (0.0, x0, x1, tank)]
    ys = [round(v / factor, 5) for v in (0.0, height, tank)]
    plane = [(x, y) for y in ys for x in xs]
    counts = [(nx[0], ny[0]), (nx[2], ny[0]), (nx[0], ny[1]), (nx[1], ny[1]), (nx[2], ny[1])]
    return block_mesh.set_cells(block_mesh.set_plane(published, plane), counts), counts


def column_case(family: Case, drawn: dict[str, Any]) -> FreshDraw:
    """The damBreak case of the numbers ``drawn`` (column, viscosity exponent, obstacle; the range corners too)."""
    drawn = dict(drawn)
    set_fields, transport = oracle_text(family, SET_FIELDS), oracle_text(family, TRANSPORT)
    (old_w, old_h), (start, end, old_nu) = _column(set_fields), _water_nu(transport)
    w, h, nu = number(drawn["width"]), number(drawn["height"]), f"{10.0 ** drawn['nu_exponent']:.2g}"
    drawn["nu"] = float(nu)
    x0, ow, oh = drawn["obstacle_x"], drawn["obstacle_width"], drawn["obstacle_height"]
    mesh, counts = obstacle_mesh(oracle_text(family, MESH), x0, ow, oh)
    drawn["cells"] = [list(c) for c in counts]
    obstacle = OBSTACLE_TEXT.format(
        w=number(ow), h=number(oh), x0=number(x0), x1=number(round(x0 + ow, 6)), c=[f"{a} x {b}" for a, b in counts]
    )
    phrases = [
        (f"to ({old_w}, {old_h}, 1)", f"to ({w}, {h}, 1)"),
        (f"Water: nu = {old_nu} m^2/s", f"Water: nu = {nu} m^2/s"),
        (f"water column {old_w} x {old_h} m, nu {old_nu}", f"water column {w} x {h} m, nu {nu}"),
        ("Use the geometry and mesh of the damBreak tutorial (", "Use the block layout of the damBreak tutorial ("),
        (PUBLISHED_OBSTACLE, obstacle),
    ]
    case = substitute_strings(published_case(family), phrases, str(family.folder / "case.yaml"))
    box = [(f"box (0 0 -1) ({old_w} {old_h} 1);", f"box (0 0 -1) ({w} {h} 1);")]
    files = {
        f"oracle/{SET_FIELDS}": substitute(set_fields, box, SET_FIELDS),
        f"oracle/{TRANSPORT}": transport[:start] + set_scalar(transport[start:end], "nu", nu) + transport[end:],
        f"oracle/{MESH}": mesh,
    }
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(PARAMS))


def cell_areas(mesh: str, centres: np.ndarray) -> np.ndarray:
    """Each cell's area in the x-y plane, for a mesh of axis-aligned rectangular blocks of uniform cells (the
    damBreak tutorial's): the block's area over its cell count, the block found by the cell's centre."""
    vertices = block_mesh.scale(mesh) * block_mesh.vertices(mesh)
    areas = np.full(len(centres), np.nan)
    for corners, (nx, ny, _) in zip(_HEX_CORNERS.findall(mesh), block_mesh.cells(mesh), strict=True):
        points = vertices[[int(i) for i in corners.split()], :2]
        (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
        inside = (centres[:, 0] > x0) & (centres[:, 0] < x1) & (centres[:, 1] > y0) & (centres[:, 1] < y1)
        areas[inside] = (x1 - x0) * (y1 - y0) / (nx * ny)
    if np.isnan(areas).any():
        raise ValueError(f"{MESH}: {int(np.isnan(areas).sum())} cell centres lie in no block")
    return areas


def check_column(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """The water's volume is the column's, its centre of mass has fallen, alpha.water is bounded."""
    if ALPHA not in run.fields:
        return {}, [f"the run wrote no {ALPHA}"]
    w, h = (float(v) for v in _column(oracle_text(case, SET_FIELDS)))
    alpha = np.asarray(run.fields[ALPHA], dtype=float)
    areas = cell_areas(oracle_text(case, MESH), run.centres)
    filled = float(areas[(run.centres[:, 0] < w) & (run.centres[:, 1] < h)].sum())  # setFields' cells
    volume = float((alpha * areas).sum())
    height = float((alpha * areas * run.centres[:, 1]).sum() / volume) if volume > 0 else math.nan
    detail = {"column_area": w * h, "filled_area": filled, "water_area": volume, "centroid_height": height}
    detail["initial_centroid"] = h / 2
    detail |= {"alpha_min": float(alpha.min()), "alpha_max": float(alpha.max())}
    problems = []
    if not abs(volume / filled - 1.0) <= VOLUME_TOLERANCE:
        problems.append(f"the water's area is not the area setFields filled, within {VOLUME_TOLERANCE}")
    if not height < h / 2:
        problems.append("the water's centre of mass has not fallen")
    if not (detail["alpha_min"] >= -ALPHA_SLACK and detail["alpha_max"] <= 1.0 + ALPHA_SLACK):
        problems.append(f"{ALPHA} leaves [0, 1]")
    return detail, problems


FAMILIES = {f"damBreak-{i}": Family(draw_column, check_column, ("U", "p", ALPHA)) for i in range(1, 4)}
