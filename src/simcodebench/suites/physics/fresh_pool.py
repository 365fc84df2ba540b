"""Fresh families of a rigid ball dropped into a pool of water (SPH): a light ball floats, a dense one sinks.
Drawn: the ball's radius and material, the water's depth and the drop height. From the draw, by Archimedes: a
floating ball is submerged to the depth d where the spherical cap's volume pi d^2 (3 r - d) / 3 is the ball's
volume times rho_ball / rho_water, its centre r - d above the water's level (the level raised by the volume it
displaces); a sinking ball rests on the floor, its centre at r."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f, fall_time

POOL_SIDE, WATER = 0.4, 1000.0


def submerged_depth(radius: float, ratio: float) -> float:
    """Depth (m) to which a ball of relative density ``ratio`` < 1 floats: x^2 (3 - x) = 4 ratio, x = d / r,
    solved by bisection on [0, 2] (the left side grows monotonically there)."""
    low, high = 0.0, 2.0
    for _ in range(60):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if mid * mid * (3.0 - mid) < 4.0 * ratio else (low, mid)
    return 0.5 * (low + high) * radius


def _reference(p: Params) -> Params:
    r, depth, ratio = p["radius"], p["water_depth"], p["density"] / WATER
    out = {
        "g": G,
        "radius": r,
        "water_depth": depth,
        "drop_height": p["drop_height"],
        "density_ratio": round(ratio, 4),
        "material": p["material"],
        "density": p["density"],
    }
    if ratio < 1.0:
        submerged = submerged_depth(r, ratio)
        level = depth + ratio * 4.0 / 3.0 * math.pi * r**3 / POOL_SIDE**2  # raised by the displaced water
        out.update(submerged_depth=round(submerged, 4), resting=round(level + r - submerged, 4))
    else:
        out["resting"] = r
    return out


def _checks(p: Params) -> list[dict[str, Any]]:
    ball = {"kind": "sphere", "radius": p["radius"]}
    water = {"kind": "box", "solver": "sph", "size": [POOL_SIDE, POOL_SIDE, p["water_depth"]]}
    checks = [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": ball, "g": p["g"], "rtol": 0.05},
        {"check": "particles_kept", "object": water},
    ]
    if p["density_ratio"] < 1.0:
        return [
            *checks,
            {"check": "resting_height", "object": dict(ball), "z": p["resting"], "atol": 0.05, "tail": 0.3},
        ]
    return [
        *checks,
        {"check": "no_penetration", "object": dict(ball), "atol": 0.02},
        {"check": "resting_height", "object": dict(ball), "z": p["resting"], "atol": 0.02, "tail": 0.3},
    ]


def _edits(published: str, density: str, ratio_text: str) -> Any:
    def edits(p: Params) -> tuple[Edits, Edits]:
        mat, r, depth = p["material"], p["radius"], p["water_depth"]
        ratio = number(round(p["density_ratio"], 2))
        text = [
            (f"A {published} ball dropped", f"{a_an(mat + ' ball')} dropped"),
            (
                f"solid {published} ball (radius 6 cm, density {density} kg/m^3)",
                f"solid {mat} ball (radius {cm(r)} cm, density {number(p['density'])} kg/m^3)",
            ),
            ("centre 45 cm above", f"centre {cm(p['drop_height'])} cm above"),
            ("holding a 15 cm deep layer", f"holding a {cm(depth)} cm deep layer"),
            (ratio_text, f"being {ratio} times as dense as water"),
        ]
        oracle = [
            (f"a {published} ball (rigid)", f"{a_an(mat + ' ball').lower()} (rigid)"),
            (
                "Sphere(radius=0.06, pos=(0.0, 0.0, 0.45))",
                f"Sphere(radius={f(r)}, pos=(0.0, 0.0, {f(p['drop_height'])}))",
            ),
            (f"Rigid(rho={density}.0)", f"Rigid(rho={f(p['density'])})"),
            (
                "Box(size=(0.4, 0.4, 0.15), pos=(0.0, 0.0, 0.075))",
                f"Box(size=(0.4, 0.4, {f(depth)}), pos=(0.0, 0.0, {f(depth / 2)}))",
            ),
        ]
        return text, oracle

    return edits


def _float_edits(p: Params) -> tuple[Edits, Edits]:
    text, oracle = _edits("wooden", "500", "being half as dense as water")(p)
    share = "with about that share of its volume submerged, its centre"
    return [
        *text,
        ("with about half its volume submerged, its centre near the water surface", share + " near the water surface"),
    ], [*oracle, ("floats half submerged", "floats partly submerged")]


def _sink_edits(p: Params) -> tuple[Edits, Edits]:
    return _edits("steel", "7850", "being almost eight times as dense as water")(p)


def _scene(p: Params) -> dict[str, Any]:
    return {
        "body1.size": [POOL_SIDE, POOL_SIDE, p["water_depth"]],
        "body1.pos": [0.0, 0.0, p["water_depth"] / 2],
        "body2.radius": p["radius"],
        "body2.pos": [0.0, 0.0, p["drop_height"]],
        "body2.material.rho": p["density"],
    }


def _settle(p: Params) -> float:
    """The fall onto the water; the settling in it is left to the tail the check averages (its last 30 %)."""
    return fall_time(p["drop_height"] - p["radius"] - p["water_depth"])


def _problems(floats: bool) -> Any:
    def problems(p: Params) -> list[str]:
        if (p["density_ratio"] < 1.0) != floats:
            return [f"a ball {p['density_ratio']} times as dense as water does not {'float' if floats else 'sink'}"]
        if p["drop_height"] - p["radius"] <= p["water_depth"] + 0.1:
            return ["the ball starts less than 10 cm above the water: no free fall to fit"]
        return []

    return problems


_PARAMS = {"radius": Param(0.045, 0.07, 3), "water_depth": Param(0.12, 0.18, 2), "drop_height": Param(0.4, 0.5, 2)}

FAMILIES: dict[str, Family] = {
    # pine only (half as dense as water, as published): a fresh oak ball (0.7) rested at 0.098 m against
    # Archimedes' 0.137 m in the acceptance run, inside the published 5 cm but still sinking or under-buoyed by SPH
    # at 1 s (benchmarks/results/fresh-variants-physics.md)
    "ball_float": Family(
        params=dict(_PARAMS),
        materials={"material": ("pine",)},
        edits=_float_edits,
        reference=_reference,
        checks=_checks,
        scene=_scene,
        settle_s=_settle,
        problems=_problems(floats=True),
    ),
    "ball_sink": Family(
        params=dict(_PARAMS),
        materials={"material": ("steel", "granite", "aluminium")},
        edits=_sink_edits,
        reference=_reference,
        checks=_checks,
        scene=_scene,
        settle_s=_settle,
        problems=_problems(floats=False),
    ),
}
