"""Fresh families of water: a block falling into a square tank, a column collapsing along one (a dam break), as
SPH particles or an MPM liquid. Drawn: the block's size, its drop height and the tank's side; the column's length
and height. Checks from the draw: free fall at g, containment in the drawn tank; bounds that scale with it: the
settled layer spreads to tank side / block side, the surge crosses part of the tank (tank length / column length)
at a speed scaled by sqrt(g H) over a distance scaled by the column's length; kept: a liquid's bounce under 15 %.
The bounds' factors are the published case's own bounds over its geometry (a layer of 1.4-1.75 around 1.5)."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

PADDING = 0.094
"""An MPM domain reaches 3 cells (3/32 m) past the walls it stands for: Genesis keeps its particles that far in."""
MIN_LAYER = {"sph": 0.04, "mpm": 1.0 / 32}
"""The layer's depth (block volume / floor area, m) needed to cover the floor: two SPH particles (2 cm each), one
cell of the MPM grid (1/32 m)."""


# --- a block of water falling into a tank --------------------------------------------------------------------


def _tank_reference(spread: tuple[float, float]) -> Any:
    def reference(p: Params) -> Params:
        s, side, h = p["size"], p["tank_side"], p["drop_height"]
        impact = math.sqrt(2.0 * G * (h - s / 2))
        return {
            "g": G,
            "size": s,
            "tank_side": side,
            "drop_height": h,
            "layer_depth": round(s**3 / side**2, 4),
            "spread": [round(spread[0] * side / s, 3), round(spread[1] * side / s, 3)],
            # the fall, then the splash running from the block's edge to the walls at the impact speed
            "settle_s": round(fall_time(h - s / 2) + (side - s) / (2.0 * impact), 4),
        }

    return reference


def _tank_checks(solver: str) -> Any:
    def checks(p: Params) -> list[dict[str, Any]]:
        body = {"kind": "box", "solver": solver, "size": [p["size"]] * 3}
        half = round(p["tank_side"] / 2 + 0.02, 4)
        contained = (
            [{"check": "particles_kept", "object": dict(body), "bounds": [[-half, -half, -0.02], [half, half, 0.72]]}]
            if solver == "sph"
            else [
                {"check": "no_penetration", "object": dict(body), "atol": 0.02},
                {"check": "particles_kept", "object": dict(body)},
            ]
        )
        spread = {"min": p["spread"][0], "max": p["spread"][1]}
        return [
            {"check": "no_nan"},
            {"check": "fall_acceleration", "object": dict(body), "g": p["g"], "rtol": 0.05},
            *contained,
            {"check": "bounce_fraction", "object": dict(body), "min": 0.0, "max": 0.15},
            {"check": "extent_ratio", "object": dict(body), "axis": "xy", **spread},
        ]

    return checks


def _tank_bounds(solver: str, side: float) -> tuple[float, float]:
    """The domain's half width along x and y: the tank's walls (SPH) or 3 cells past them (MPM)."""
    half = side / 2 + (PADDING if solver == "mpm" else 0.0)
    return half, round(half, 3)


def _tank_edits(solver: str, published_side: float, domain: str) -> Any:
    def edits(p: Params) -> tuple[Edits, Edits]:
        s, side, h = p["size"], p["tank_side"], p["drop_height"]
        half = _tank_bounds(solver, side)[1]
        low, top = ("0.0", "0.7") if solver == "sph" else ("-0.12", "0.7")
        text = [
            ("cube of water (20 cm side,", f"cube of water ({cm(s)} cm side,"),
            ("centre 45 cm above", f"centre {cm(h)} cm above"),
            (f"({cm(published_side)} cm x {cm(published_side)} cm inside", f"({cm(side)} cm x {cm(side)} cm inside"),
        ]
        oracle = [
            (domain, f"lower_bound=({f(-half)}, {f(-half)}, {low}), upper_bound=({f(half)}, {f(half)}, {top})"),
            (
                "Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, 0.45))",
                f"Box(size=({f(s)}, {f(s)}, {f(s)}), pos=(0.0, 0.0, {f(h)}))",
            ),
        ]
        return text, oracle

    return edits


def _tank_problems(solver: str) -> Any:
    def problems(p: Params) -> list[str]:
        if p["layer_depth"] < MIN_LAYER[solver]:
            least = round(MIN_LAYER[solver], 4)
            return [f"the water makes a layer {p['layer_depth']} m deep, under {least} m: it cannot cover the floor"]
        return []

    return problems


def _tank(solver: str, published: tuple[float, float, float], domain: str, side: Param) -> Family:
    """A tank family from its published tank side and extent bounds (``published``: side, min, max)."""
    ratio = published[0] / 0.2
    spread = (published[1] / ratio, published[2] / ratio)
    options = "SPHOptions" if solver == "sph" else "MPMOptions"
    return Family(
        params={"size": Param(0.17, 0.22, 2), "tank_side": side, "drop_height": Param(0.4, 0.5, 2)},
        materials={},
        edits=_tank_edits(solver, published[0], domain),
        reference=_tank_reference(spread),
        checks=_tank_checks(solver),
        scene=lambda p: {
            "body1.size": [p["size"]] * 3,
            "body1.pos": [0.0, 0.0, p["drop_height"]],
            f"{options}.lower_bound": [-_tank_bounds(solver, p["tank_side"])[1]] * 2
            + [0.0 if solver == "sph" else -0.12],
        },
        settle_s=lambda p: p["settle_s"],
        problems=_tank_problems(solver),
    )


# --- a dam break ---------------------------------------------------------------------------------------------


def _dam_reference(tank: float, reach: float, surge: tuple[float, float]) -> Any:
    def reference(p: Params) -> Params:
        a, h = p["column_length"], p["column_height"]
        return {
            "g": G,
            "tank_length": tank,
            "column_length": a,
            "column_height": h,
            "front_distance": round(reach * a, 3),
            "ritter_front_speed": round(2.0 * math.sqrt(G * h), 3),
            "surge": [round(surge[0] * tank / a, 3), round(surge[1] * tank / a, 3)],
            # the front covers its distance at 0.4 sqrt(g H) at the slowest the check allows
            "settle_s": round(reach * a / (0.4 * math.sqrt(G * h)), 4),
        }

    return reference


def _dam_checks(solver: str, bounds: list[list[float]] | None) -> Any:
    def checks(p: Params) -> list[dict[str, Any]]:
        body = {"kind": "box", "solver": solver, "size": [p["column_length"], 0.2, p["column_height"]]}
        contained = (
            [{"check": "particles_kept", "object": dict(body), "bounds": bounds}]
            if bounds
            else [
                {"check": "no_penetration", "object": dict(body), "atol": 0.02},
                {"check": "particles_kept", "object": dict(body)},
            ]
        )
        front = {"axis": "x", "height": p["column_height"], "distance": p["front_distance"], "g": p["g"]}
        return [
            {"check": "no_nan"},
            *contained,
            {"check": "front_speed", "object": dict(body), **front, "min": 0.4, "max": 1.0},
            {"check": "extent_ratio", "object": dict(body), "axis": "x", "min": p["surge"][0], "max": p["surge"][1]},
        ]

    return checks


def _dam_edits(column: str, noun: str, box: str, left: float) -> Any:
    def edits(p: Params) -> tuple[Edits, Edits]:
        a, h = p["column_length"], p["column_height"]
        text = [(column, f"{noun} {cm(a)} cm long, 20 cm wide and {cm(h)} cm high")]
        oracle = [(box, f"Box(size=({f(a)}, 0.2, {f(h)}), pos=({f(round(left + a / 2, 6))}, 0.0, {f(h / 2)}))")]
        return text, oracle

    return edits


def _dam(
    published: dict[str, Any], column: Param, height: Param, bounds: list[list[float]] | None, solver: str
) -> Family:
    """A dam-break family from its published geometry: tank length, column length and height, the front's
    distance, the surge bounds, the column's phrase and box, the left wall."""
    a = published["length"]
    ratio = published["tank"] / a
    surge = (published["surge"][0] / ratio, published["surge"][1] / ratio)
    return Family(
        params={"column_length": column, "column_height": height},
        materials={},
        edits=_dam_edits(published["phrase"], published["noun"], published["box"], published["left"]),
        reference=_dam_reference(published["tank"], published["distance"] / a, surge),
        checks=_dam_checks(solver, bounds),
        scene=lambda p: {
            "body1.size": [p["column_length"], 0.2, p["column_height"]],
            "body1.pos": [published["left"] + p["column_length"] / 2, 0.0, p["column_height"] / 2],
        },
        settle_s=lambda p: p["settle_s"],
    )


_SPH_TANK = "lower_bound=(-0.15, -0.15, 0.0), upper_bound=(0.15, 0.15, 0.7)"

FAMILIES: dict[str, Family] = {
    # layers at least 0.17^3 / 0.32^2 = 4.8 cm deep (SPH); 0.17^3 / 0.42^2 = 2.8 cm (MPM) is under a cell: dropped
    "water_drop_tank": _tank("sph", (0.3, 1.4, 1.75), _SPH_TANK, Param(0.26, 0.32, 2)),
    "water_drop_tank_mpm": _tank(
        "mpm",
        (0.3, 1.3, 1.8),
        "lower_bound=(-0.244, -0.244, -0.12), upper_bound=(0.244, 0.244, 0.7)",
        Param(0.26, 0.32, 2),
    ),
    "water_drop_tank_wide": _tank(
        "mpm",
        (0.4, 1.5, 2.4),
        "lower_bound=(-0.294, -0.294, -0.12), upper_bound=(0.294, 0.294, 0.7)",
        Param(0.36, 0.42, 2),
    ),
    "dam_break": _dam(
        {
            "tank": 1.0,
            "length": 0.2,
            "distance": 0.3,
            "surge": (3.0, 6.0),
            "left": -0.5,
            "phrase": "a column of water 20 cm long, 20 cm wide and 40 cm high",
            "noun": "a column of water",
            "box": "Box(size=(0.2, 0.2, 0.4), pos=(-0.4, 0.0, 0.2))",
        },
        Param(0.16, 0.24, 2),
        Param(0.3, 0.45, 2),
        [[-0.52, -0.12, -0.02], [0.52, 0.12, 0.62]],
        "sph",
    ),
    "dam_break_tall": _dam(
        {
            "tank": 1.2,
            "length": 0.16,
            "distance": 0.4,
            "surge": (4.0, 9.0),
            "left": -0.6,
            "phrase": "a column of water 16 cm long, 20 cm wide and 50 cm high",
            "noun": "a column of water",
            "box": "Box(size=(0.16, 0.2, 0.5), pos=(-0.52, 0.0, 0.25))",
        },
        Param(0.12, 0.18, 2),
        Param(0.45, 0.6, 2),
        [[-0.62, -0.12, -0.02], [0.62, 0.12, 0.82]],
        "sph",
    ),
    # MPM: the walls 3 cells inside the domain's -0.6..0.6; the published columns stand against x = -0.5
    "dam_break_mpm": _dam(
        {
            "tank": 1.0,
            "length": 0.15,
            "distance": 0.3,
            "surge": (3.0, 9.0),
            "left": -0.5,
            "phrase": "a column of water 15 cm long, 20 cm wide and 30 cm high",
            "noun": "a column of water",
            "box": "Box(size=(0.15, 0.2, 0.3), pos=(-0.425, 0.0, 0.15))",
        },
        Param(0.12, 0.2, 2),
        Param(0.25, 0.35, 2),
        None,
        "mpm",
    ),
    "dam_break_low": _dam(
        {
            "tank": 1.0,
            "length": 0.3,
            "distance": 0.3,
            "surge": (2.0, 4.5),
            "left": -0.5,
            "phrase": "a block of water 30 cm long, 20 cm wide and 20 cm high",
            "noun": "a block of water",
            "box": "Box(size=(0.3, 0.2, 0.2), pos=(-0.35, 0.0, 0.1))",
        },
        Param(0.25, 0.35, 2),
        Param(0.15, 0.25, 2),
        None,
        "mpm",
    ),
}
