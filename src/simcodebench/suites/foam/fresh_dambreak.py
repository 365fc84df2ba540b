"""Fresh dam-break cases (interFoam): a new water column and water viscosity.

A draw takes the column's width in [0.1, 0.2] m and height in [0.2, 0.3] m (the published columns are 0.1461 or
0.2 wide and 0.2 to 0.3 high; the column stays left of the obstacle at x = 0.292 m and well below the tank's
0.584 m lid) and the water's viscosity nu = 10^e, e in [-6, -5] (the published 1e-06 and 1e-05), and writes them
into the problem text, the title, the oracle's ``setFieldsDict`` (the box filled with water) and
``transportProperties`` (the water phase). The mutants quote none of them (the atmosphere's pressure, the time
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
from simcodebench.suites.foam.dictionaries import block_span, set_scalar
from simcodebench.suites.foam.fresh_common import Family, oracle_text, published_case
from simcodebench.suites.foam.scorer import OracleRun

SET_FIELDS, TRANSPORT, MESH = "system/setFieldsDict", "constant/transportProperties", "system/blockMeshDict"
ALPHA = "alpha.water"
PARAMS = {"width": Param(0.1, 0.2, 3), "height": Param(0.2, 0.3, 3), "nu_exponent": Param(-6.0, -5.0, 2)}
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
    """A new water column and water viscosity of a damBreak case."""
    drawn: dict[str, Any] = draw(rng, PARAMS)
    set_fields, transport = oracle_text(family, SET_FIELDS), oracle_text(family, TRANSPORT)
    (old_w, old_h), (start, end, old_nu) = _column(set_fields), _water_nu(transport)
    w, h, nu = number(drawn["width"]), number(drawn["height"]), f"{10.0 ** drawn['nu_exponent']:.2g}"
    drawn["nu"] = float(nu)
    phrases = [
        (f"to ({old_w}, {old_h}, 1)", f"to ({w}, {h}, 1)"),
        (f"Water: nu = {old_nu} m^2/s", f"Water: nu = {nu} m^2/s"),
        (f"water column {old_w} x {old_h} m, nu {old_nu}", f"water column {w} x {h} m, nu {nu}"),
    ]
    case = substitute_strings(published_case(family), phrases, str(family.folder / "case.yaml"))
    box = [(f"box (0 0 -1) ({old_w} {old_h} 1);", f"box (0 0 -1) ({w} {h} 1);")]
    files = {
        f"oracle/{SET_FIELDS}": substitute(set_fields, box, SET_FIELDS),
        f"oracle/{TRANSPORT}": transport[:start] + set_scalar(transport[start:end], "nu", nu) + transport[end:],
    }
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(PARAMS))


def cell_areas(block_mesh: str, centres: np.ndarray) -> np.ndarray:
    """Each cell's area in the x-y plane, for a mesh of axis-aligned rectangular blocks of uniform cells (the
    damBreak tutorial's): the block's area over its cell count, the block found by the cell's centre."""
    scale = float(re.search(rf"^\s*(?:scale|convertToMeters)\s+({_NUMBER});", block_mesh, re.M).group(1))
    listed = block_mesh[block_mesh.index("vertices") : block_mesh.index("blocks")]
    vertices = scale * np.array(re.findall(rf"\(\s*({_NUMBER})\s+({_NUMBER})\s+{_NUMBER}\s*\)", listed), dtype=float)
    areas = np.full(len(centres), np.nan)
    for corners, nx, ny in re.findall(r"hex\s*\(([\d\s]+)\)\s*\((\d+)\s+(\d+)\s+\d+\)", block_mesh):
        points = vertices[[int(i) for i in corners.split()]]
        (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
        inside = (centres[:, 0] > x0) & (centres[:, 0] < x1) & (centres[:, 1] > y0) & (centres[:, 1] < y1)
        areas[inside] = (x1 - x0) * (y1 - y0) / (int(nx) * int(ny))
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
