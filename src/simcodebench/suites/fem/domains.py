"""Which evaluation-grid points lie in a case's domain: the mask that puts NaN outside the domain.

Templates (``domain.type`` with ``domain.geometry_params``), as the oracle meshes them: ``unit_square``,
``rectangle`` and ``periodic_square`` (``bounds [x0, x1, y0, y1]``), ``unit_cube`` and ``box`` (``bounds`` of six),
``l_shape`` (``vertices``), ``circle``, ``annulus``,
``eccentric_annulus``, ``square_with_hole`` (a ``circle``, ``rect`` or ``polygon`` hole), ``multi_hole``,
``sector`` (``angle`` in degrees from the x axis),
``star`` (``points`` tips at ``outer_r``, notches at ``inner_r``, the first tip straight up), ``gear`` (``teeth``
square teeth of height ``tooth_h`` on a circle of radius ``base_r``, each tooth spanning the middle half of its
pitch), ``t_junction`` and ``dumbbell``.

Straight boundaries are meshed exactly, so points on them are inside (closed domain). A mesh only approximates a
curved boundary, so a point closer than ``margin`` to a circular arc counts as outside: it is neither scored
nor required to be finite.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

TOL = 1e-10


def _in_box(p: np.ndarray, bounds: list[float]) -> np.ndarray:
    dims = len(bounds) // 2
    inside = np.ones(len(p), dtype=bool)
    for axis in range(dims):
        inside &= (p[:, axis] >= bounds[2 * axis] - TOL) & (p[:, axis] <= bounds[2 * axis + 1] + TOL)
    return inside


def _distance(p: np.ndarray, center: list[float]) -> np.ndarray:
    return np.hypot(p[:, 0] - center[0], p[:, 1] - center[1])


def _disk(p: np.ndarray, center: list[float], radius: float, margin: float) -> np.ndarray:
    """Inside the disk, at least ``margin`` from its circle."""
    return _distance(p, center) <= radius - margin


def _outside_disk(p: np.ndarray, center: list[float], radius: float, margin: float) -> np.ndarray:
    """Outside the disk, at least ``margin`` from its circle."""
    return _distance(p, center) >= radius + margin


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    s = np.clip(((p - a) @ ab) / max(float(ab @ ab), 1e-300), 0.0, 1.0)
    return np.linalg.norm(p - (a + s[:, None] * ab), axis=1)


def on_polygon(p: np.ndarray, vertices: list[list[float]]) -> np.ndarray:
    """Within ``TOL`` of an edge of the polygon."""
    poly = np.asarray(vertices, dtype=float)
    on_edge = np.zeros(len(p), dtype=bool)
    for i in range(len(poly)):
        on_edge |= _segment_distance(p[:, :2], poly[i], poly[(i + 1) % len(poly)]) <= TOL
    return on_edge


def in_polygon(p: np.ndarray, vertices: list[list[float]]) -> np.ndarray:
    """Inside or on the closed polygon (even-odd rule; boundary points within ``TOL`` count as inside)."""
    poly = np.asarray(vertices, dtype=float)
    x, y = p[:, 0], p[:, 1]
    inside = np.zeros(len(p), dtype=bool)
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        if a[1] == b[1]:
            continue
        crosses = (a[1] > y) != (b[1] > y)
        x_cross = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
        inside ^= crosses & (x < x_cross)
    return inside | on_polygon(p, vertices)


def hole_vertices(hole: dict[str, Any]) -> list[list[float]]:
    """Vertices of a ``rect`` (``bbox``) or ``polygon`` (``vertices``) hole."""
    if hole["type"] == "rect":
        x0, x1, y0, y1 = hole["bbox"]
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return hole["vertices"]


def star_points(g: dict[str, Any]) -> list[list[float]]:
    """Vertices of the ``star`` template."""
    cx, cy = g.get("center", [0.0, 0.0])
    n = int(g["points"])
    radii = [float(g["outer_r"]), float(g["inner_r"])]
    return [
        [
            cx + radii[k % 2] * math.cos(math.pi / 2 + k * math.pi / n),
            cy + radii[k % 2] * math.sin(math.pi / 2 + k * math.pi / n),
        ]
        for k in range(2 * n)
    ]


def gear_points(g: dict[str, Any]) -> list[list[float]]:
    """Vertices of the ``gear`` template."""
    cx, cy = g.get("center", [0.0, 0.0])
    teeth, base, height = int(g["teeth"]), float(g["base_r"]), float(g["tooth_h"])
    points = []
    for k in range(teeth):
        start = 2 * math.pi * k / teeth
        for fraction, radius in ((0.0, base), (0.25, base), (0.25, base + height), (0.75, base + height), (0.75, base)):
            angle = start + fraction * 2 * math.pi / teeth
            points.append([cx + radius * math.cos(angle), cy + radius * math.sin(angle)])
    return points


def _sector(p: np.ndarray, g: dict[str, Any], margin: float) -> np.ndarray:
    center = g.get("center", [0.0, 0.0])
    angle = math.radians(float(g["angle"]))
    theta = np.mod(np.arctan2(p[:, 1] - center[1], p[:, 0] - center[0]), 2 * math.pi)
    near_center = _distance(p, center) <= TOL
    in_angle = (theta <= angle + 1e-12) | (np.abs(theta - 2 * math.pi) <= 1e-12)
    if angle < 2 * math.pi:
        corner = [[center[0], center[1]], [center[0] + 2, center[1]]]
        ray = [[center[0], center[1]], [center[0] + 2 * math.cos(angle), center[1] + 2 * math.sin(angle)]]
        on_sides = (_segment_distance(p[:, :2], *np.asarray(corner, float)) <= TOL) | (
            _segment_distance(p[:, :2], *np.asarray(ray, float)) <= TOL
        )
        in_angle |= on_sides
    return near_center | (in_angle & _disk(p, center, float(g["radius"]), margin))


def inside(domain: dict[str, Any], points: np.ndarray, margin: float) -> np.ndarray:
    """Boolean mask of the grid ``points`` (N x 3) that are scored for ``domain``."""
    kind = domain["type"]
    g = domain.get("geometry_params", {})
    p = points
    if kind in ("unit_square", "rectangle", "periodic_square"):
        return _in_box(p, g.get("bounds", [0, 1, 0, 1]))
    if kind in ("unit_cube", "box"):
        return _in_box(p, g.get("bounds", [0, 1, 0, 1, 0, 1]))
    if kind == "l_shape":
        return in_polygon(p, g["vertices"])
    if kind == "circle":
        return _disk(p, g["center"], float(g["radius"]), margin)
    if kind == "annulus":
        return _disk(p, g["center"], float(g["outer_r"]), margin) & _outside_disk(
            p, g["center"], float(g["inner_r"]), margin
        )
    if kind == "eccentric_annulus":
        outer, hole = g["outer_circle"], g["inner_circle"]
        return _disk(p, outer["c"], float(outer["r"]), margin) & _outside_disk(p, hole["c"], float(hole["r"]), margin)
    if kind in ("square_with_hole", "multi_hole"):
        mask = _in_box(p, g["outer"])
        hole = g.get("inner_hole")
        if hole and hole["type"] != "circle":
            vertices = hole_vertices(hole)
            return mask & ~(in_polygon(p, vertices) & ~on_polygon(p, vertices))
        holes = [{"c": hole["center"], "r": hole["radius"]}] if hole else g.get("holes", [])
        for h in holes:
            mask &= _outside_disk(p, h["c"], float(h["r"]), margin)
        return mask
    if kind == "sector":
        return _sector(p, g, margin)
    if kind == "star":
        return in_polygon(p, star_points(g))
    if kind == "gear":
        return in_polygon(p, gear_points(g))
    if kind == "t_junction":
        a, b = g["horizontal_rect"], g["vertical_rect"]
        return _in_box(p, a) | _in_box(p, b)
    if kind == "dumbbell":
        left, right, bridge = g["left_circle"], g["right_circle"], g["bridge"]
        rect = [bridge["x_min"], bridge["x_max"], bridge["y_min"], bridge["y_max"]]
        return (
            _disk(p, left["c"], float(left["r"]), margin)
            | _disk(p, right["c"], float(right["r"]), margin)
            | _in_box(p, rect)
        )
    raise ValueError(f"unknown domain type '{kind}'")
