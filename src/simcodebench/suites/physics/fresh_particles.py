"""Fresh families of particle bodies: elastic cubes and balls dropped onto the ground (MPM), a block of water
falling into a tank and a water column collapsing along one (SPH). Drawn: the body's size, its drop height, the
tank's side, the column's length and height. The material (Young's modulus, Poisson's ratio, density, viscosity)
stays the published one: the solver's substeps were chosen for its sound speed. Checks from the draw: free fall
at g, the body's size and domain, containment in the drawn tank; bounds that scale with it: a layer that covers
the tank's floor spreads to tank side / cube side, a dam break's surge crosses part of the tank (tank length /
column length) at a speed scaled by sqrt(g H); dimensionless ones kept: a bounce no higher than the fall (no
energy gained), an elastic body's height kept within 15 %, a liquid's bounce under 15 %."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

# --- elastic bodies dropped onto the ground (MPM) ------------------------------------------------------------

DOMAIN_MARGIN = 0.1
"""Room (m) above the body's top in the MPM domain, as the published oracles keep (3 cells of 1/32 m)."""


def _half(p: Params) -> float:
    return p["radius"] if "radius" in p else p["size"] / 2


def _elastic_reference(p: Params) -> Params:
    body = {"radius": p["radius"]} if "radius" in p else {"size": p["size"]}
    top = math.ceil(round((p["drop_height"] + _half(p) + DOMAIN_MARGIN) * 20, 6)) / 20
    return {"g": G, **body, "drop_height": p["drop_height"], "domain_top": round(top, 2)}


def _elastic_object(p: Params) -> dict[str, Any]:
    if "radius" in p:
        return {"kind": "sphere", "solver": "mpm", "radius": p["radius"]}
    return {"kind": "box", "solver": "mpm", "size": [p["size"]] * 3}


def _elastic_checks(p: Params) -> list[dict[str, Any]]:
    body = _elastic_object
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": body(p), "g": p["g"], "rtol": 0.05},
        {"check": "no_penetration", "object": body(p), "atol": 0.02},
        {"check": "particles_kept", "object": body(p)},
        {"check": "bounce_fraction", "object": body(p), "min": 0.3, "max": 1.0},
        {"check": "extent_ratio", "object": body(p), "axis": "z", "min": 0.85, "max": 1.15},
    ]


def _elastic_edits(height: str, top: str, size_text: str, title: str | None) -> Any:
    """The edits of one published elastic drop: its drop height, domain top, size in the text and the oracle
    (a cube's side or a ball's radius), and a title that names the height."""

    def edits(p: Params) -> tuple[Edits, Edits]:
        h, half = p["drop_height"], _half(p)
        if "radius" in p:
            sized = (f"(radius {size_text} cm,", f"(radius {cm(p['radius'])} cm,")
            morph = (
                f"Sphere(radius={float(size_text) / 100!r}, pos=(0.0, 0.0, {height}))",
                f"Sphere(radius={f(p['radius'])}, pos=(0.0, 0.0, {f(h)}))",
            )
        else:
            s = float(size_text) / 100
            sized = (f"({size_text} cm side,", f"({cm(p['size'])} cm side,")
            morph = (
                f"Box(size=({s!r}, {s!r}, {s!r}), pos=(0.0, 0.0, {height}))",
                f"Box(size=({f(2 * half)}, {f(2 * half)}, {f(2 * half)}), pos=(0.0, 0.0, {f(h)}))",
            )
        text = [sized, (f"centre {float(height):g} m above", f"centre {number(h)} m above")]
        if title:
            text.append((title, f"from {cm(h)} cm"))
        oracle = [morph, (f"upper_bound=(0.3, 0.3, {top})", f"upper_bound=(0.3, 0.3, {f(p['domain_top'])})")]
        return text, oracle

    return edits


def _elastic_scene(p: Params) -> dict[str, Any]:
    size = {"body1.radius": p["radius"]} if "radius" in p else {"body1.size": [p["size"]] * 3}
    return {
        **size,
        "body1.pos": [0.0, 0.0, p["drop_height"]],
        "MPMOptions.upper_bound": [0.3, 0.3, p["domain_top"]],
    }


def _elastic(size: Param, height: Param, edits: Any, radius: bool = False) -> Family:
    # the bounce check needs the fall and the rebound's rise (no longer than the fall) in the run, and the impact
    return Family(
        params={"radius" if radius else "size": size, "drop_height": height},
        materials={},
        edits=edits,
        reference=_elastic_reference,
        checks=_elastic_checks,
        scene=_elastic_scene,
        settle_s=lambda p: 2.0 * fall_time(p["drop_height"] - _half(p)) + 0.05,
    )


# --- a block of water falling into a tank (SPH) --------------------------------------------------------------

SPREAD = (1.4 / 1.5, 1.75 / 1.5)
"""The settled layer's width over the cube's, as multiples of tank side / cube side (the published 1.4-1.75
around 1.5): a layer covering the floor spreads to the walls, give or take a particle and the last slosh."""
MIN_LAYER = 0.04
"""The layer's depth (cube volume / floor area, m) must be at least two SPH particles (2 cm) to cover the floor."""


def _tank_reference(p: Params) -> Params:
    s, side, h = p["size"], p["tank_side"], p["drop_height"]
    ratio = side / s
    impact = math.sqrt(2.0 * G * (h - s / 2))
    return {
        "g": G,
        "size": s,
        "tank_side": side,
        "drop_height": h,
        "layer_depth": round(s**3 / side**2, 4),
        "spread": [round(SPREAD[0] * ratio, 3), round(SPREAD[1] * ratio, 3)],
        # the fall, then the splash running from the cube's edge to the walls at the impact speed
        "settle_s": round(fall_time(h - s / 2) + (side - s) / (2.0 * impact), 4),
    }


def _tank_checks(p: Params) -> list[dict[str, Any]]:
    body = {"kind": "box", "solver": "sph", "size": [p["size"]] * 3}
    half = round(p["tank_side"] / 2 + 0.02, 4)
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": dict(body), "g": p["g"], "rtol": 0.05},
        {"check": "particles_kept", "object": dict(body), "bounds": [[-half, -half, -0.02], [half, half, 0.72]]},
        {"check": "bounce_fraction", "object": dict(body), "min": 0.0, "max": 0.15},
        {"check": "extent_ratio", "object": dict(body), "axis": "xy", "min": p["spread"][0], "max": p["spread"][1]},
    ]


def _tank_edits(p: Params) -> tuple[Edits, Edits]:
    s, side, h = p["size"], p["tank_side"], p["drop_height"]
    text = [
        ("cube of water (20 cm side,", f"cube of water ({cm(s)} cm side,"),
        ("centre 45 cm above", f"centre {cm(h)} cm above"),
        ("(30 cm x 30 cm inside,", f"({cm(side)} cm x {cm(side)} cm inside,"),
    ]
    oracle = [
        (
            "lower_bound=(-0.15, -0.15, 0.0), upper_bound=(0.15, 0.15, 0.7)",
            f"lower_bound=({f(-side / 2)}, {f(-side / 2)}, 0.0), upper_bound=({f(side / 2)}, {f(side / 2)}, 0.7)",
        ),
        (
            "Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, 0.45))",
            f"Box(size=({f(s)}, {f(s)}, {f(s)}), pos=(0.0, 0.0, {f(h)}))",
        ),
    ]
    return text, oracle


def _tank_problems(p: Params) -> list[str]:
    if p["layer_depth"] < MIN_LAYER:
        return [f"the water makes a layer {p['layer_depth']} m deep, under {MIN_LAYER} m: it cannot cover the floor"]
    return []


# --- a dam break (SPH) ---------------------------------------------------------------------------------------

SURGE = (0.55, 1.2)
"""The collapsed water's length over the column's, as multiples of tank length / column length (the published
3-6 around 5 and 4-9 around 7.5): by the end the surge has crossed at least half the tank, and nothing passes the
far wall but a splash."""


def _dam_reference(tank: float, reach: float) -> Any:
    def reference(p: Params) -> Params:
        a, h = p["column_length"], p["column_height"]
        ratio = tank / a
        return {
            "g": G,
            "tank_length": tank,
            "column_length": a,
            "column_height": h,
            "front_distance": round(reach * a, 3),
            "ritter_front_speed": round(2.0 * math.sqrt(G * h), 3),
            "surge": [round(SURGE[0] * ratio, 3), round(SURGE[1] * ratio, 3)],
            # the front covers its distance at 0.4 sqrt(g H) at the slowest the check allows
            "settle_s": round(reach * a / (0.4 * math.sqrt(G * h)), 4),
        }

    return reference


def _dam_checks(bounds: list[list[float]]) -> Any:
    def checks(p: Params) -> list[dict[str, Any]]:
        body = {"kind": "box", "solver": "sph", "size": [p["column_length"], 0.2, p["column_height"]]}
        return [
            {"check": "no_nan"},
            {"check": "particles_kept", "object": dict(body), "bounds": bounds},
            {
                "check": "front_speed",
                "object": dict(body),
                "axis": "x",
                "height": p["column_height"],
                "distance": p["front_distance"],
                "g": p["g"],
                "min": 0.4,
                "max": 1.0,
            },
            {"check": "extent_ratio", "object": dict(body), "axis": "x", "min": p["surge"][0], "max": p["surge"][1]},
        ]

    return checks


def _dam_edits(column: str, box: str) -> Any:
    def edits(p: Params) -> tuple[Edits, Edits]:
        a, h = p["column_length"], p["column_height"]
        x = -p["tank_length"] / 2 + a / 2
        text = [(column, f"a column of water {cm(a)} cm long, 20 cm wide and {cm(h)} cm high")]
        oracle = [(box, f"Box(size=({f(a)}, 0.2, {f(h)}), pos=({f(round(x, 6))}, 0.0, {f(h / 2)}))")]
        return text, oracle

    return edits


def _dam_scene(p: Params) -> dict[str, Any]:
    a, h = p["column_length"], p["column_height"]
    return {
        "body1.size": [a, 0.2, h],
        "body1.pos": [-p["tank_length"] / 2 + a / 2, 0.0, h / 2],
        "SPHOptions.lower_bound": [-p["tank_length"] / 2, -0.1, 0.0],
    }


FAMILIES: dict[str, Family] = {
    "jelly_drop": _elastic(Param(0.15, 0.22, 2), Param(0.4, 0.55, 2), _elastic_edits("0.5", "0.7", "20", None)),
    "jelly_drop_soft": _elastic(Param(0.15, 0.22, 2), Param(0.4, 0.55, 2), _elastic_edits("0.5", "0.7", "20", None)),
    "jelly_drop_stiff": _elastic(
        Param(0.12, 0.17, 2), Param(0.5, 0.65, 2), _elastic_edits("0.6", "0.8", "15", "from 60 cm")
    ),
    "rubber_ball_drop": _elastic(
        Param(0.07, 0.11, 3), Param(0.4, 0.55, 2), _elastic_edits("0.5", "0.7", "10", None), radius=True
    ),
    "rubber_ball_high": _elastic(
        Param(0.06, 0.09, 3), Param(0.6, 0.72, 2), _elastic_edits("0.7", "0.9", "8", "from 70 cm"), radius=True
    ),
    # layer at least 0.17^3 / 0.32^2 = 4.8 cm deep; the fall and the splash over within 0.4 s
    "water_drop_tank": Family(
        params={"size": Param(0.17, 0.22, 2), "tank_side": Param(0.26, 0.32, 2), "drop_height": Param(0.4, 0.5, 2)},
        materials={},
        edits=_tank_edits,
        reference=_tank_reference,
        checks=_tank_checks,
        scene=lambda p: {
            "body1.size": [p["size"]] * 3,
            "body1.pos": [0.0, 0.0, p["drop_height"]],
            "SPHOptions.lower_bound": [-p["tank_side"] / 2, -p["tank_side"] / 2, 0.0],
            "SPHOptions.upper_bound": [p["tank_side"] / 2, p["tank_side"] / 2, 0.7],
        },
        settle_s=lambda p: p["settle_s"],
        problems=_tank_problems,
    ),
    # a 1 m tank 60 cm high; the front measured over 1.5 column lengths, as the published 0.3 m for 0.2 m
    "dam_break": Family(
        params={"column_length": Param(0.16, 0.24, 2), "column_height": Param(0.3, 0.45, 2)},
        materials={},
        edits=_dam_edits(
            "a column of water 20 cm long, 20 cm wide and 40 cm high", "Box(size=(0.2, 0.2, 0.4), pos=(-0.4, 0.0, 0.2))"
        ),
        reference=_dam_reference(1.0, 1.5),
        checks=_dam_checks([[-0.52, -0.12, -0.02], [0.52, 0.12, 0.62]]),
        scene=_dam_scene,
        settle_s=lambda p: p["settle_s"],
    ),
    # a 1.2 m tank 80 cm high; the front over 2.5 column lengths, as the published 0.4 m for 0.16 m
    "dam_break_tall": Family(
        params={"column_length": Param(0.12, 0.18, 2), "column_height": Param(0.45, 0.6, 2)},
        materials={},
        edits=_dam_edits(
            "a column of water 16 cm long, 20 cm wide and 50 cm high",
            "Box(size=(0.16, 0.2, 0.5), pos=(-0.52, 0.0, 0.25))",
        ),
        reference=_dam_reference(1.2, 2.5),
        checks=_dam_checks([[-0.62, -0.12, -0.02], [0.62, 0.12, 0.82]]),
        scene=_dam_scene,
        settle_s=lambda p: p["settle_s"],
    ),
}
