"""Fresh family of a dense rigid ball dropped into a pool of water (SPH): it sinks and rests on the floor. Drawn:
the ball's radius and material, the water's depth and the drop height; checks from the draw: free fall at g onto
the water, the pool's particles kept, the ball resting on the floor at its radius.

The floating ball (``ball_float``) is drawn by :mod:`.fresh_float`: its height follows Archimedes in the water
Genesis's SPH settles into, denser and lower than the stated depth gives."""

from __future__ import annotations

from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f, fall_time

POOL_SIDE, WATER = 0.4, 1000.0


def _reference(p: Params) -> Params:
    return {
        "g": G,
        "radius": p["radius"],
        "water_depth": p["water_depth"],
        "drop_height": p["drop_height"],
        "density_ratio": round(p["density"] / WATER, 4),
        "resting": p["radius"],
        "material": p["material"],
        "density": p["density"],
    }


def _checks(p: Params) -> list[dict[str, Any]]:
    ball = {"kind": "sphere", "radius": p["radius"]}
    water = {"kind": "box", "solver": "sph", "size": [POOL_SIDE, POOL_SIDE, p["water_depth"]]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": ball, "g": p["g"], "rtol": 0.05},
        {"check": "particles_kept", "object": water},
        {"check": "no_penetration", "object": dict(ball), "atol": 0.02},
        {"check": "resting_height", "object": dict(ball), "z": p["resting"], "atol": 0.02, "tail": 0.3},
    ]


def _edits(p: Params) -> tuple[Edits, Edits]:
    mat, r, depth = p["material"], p["radius"], p["water_depth"]
    text = [
        ("A steel ball dropped", f"{a_an(mat + ' ball')} dropped"),
        (
            "solid steel ball (radius 6 cm, density 7850 kg/m^3)",
            f"solid {mat} ball (radius {cm(r)} cm, density {number(p['density'])} kg/m^3)",
        ),
        ("centre 45 cm above", f"centre {cm(p['drop_height'])} cm above"),
        ("holding a 15 cm deep layer", f"holding a {cm(depth)} cm deep layer"),
        (
            "being almost eight times as dense as water",
            f"being {number(round(p['density_ratio'], 2))} times as dense as water",
        ),
    ]
    oracle = [
        ("a steel ball (rigid)", f"{a_an(mat + ' ball').lower()} (rigid)"),
        ("Sphere(radius=0.06, pos=(0.0, 0.0, 0.45))", f"Sphere(radius={f(r)}, pos=(0.0, 0.0, {f(p['drop_height'])}))"),
        ("Rigid(rho=7850.0)", f"Rigid(rho={f(p['density'])})"),
        (
            "Box(size=(0.4, 0.4, 0.15), pos=(0.0, 0.0, 0.075))",
            f"Box(size=(0.4, 0.4, {f(depth)}), pos=(0.0, 0.0, {f(depth / 2)}))",
        ),
    ]
    return text, oracle


def _scene(p: Params) -> dict[str, Any]:
    return {
        "body1.size": [POOL_SIDE, POOL_SIDE, p["water_depth"]],
        "body1.pos": [0.0, 0.0, p["water_depth"] / 2],
        "body2.radius": p["radius"],
        "body2.pos": [0.0, 0.0, p["drop_height"]],
        "body2.material.rho": p["density"],
    }


def _problems(p: Params) -> list[str]:
    if p["drop_height"] - p["radius"] <= p["water_depth"] + 0.1:
        return ["the ball starts less than 10 cm above the water: no free fall to fit"]
    return []


FAMILIES: dict[str, Family] = {
    # the fall onto the water is over within 0.25 s; the sinking is left to the tail the check averages (30 %)
    "ball_sink": Family(
        params={
            "radius": Param(0.045, 0.07, 3),
            "water_depth": Param(0.12, 0.18, 2),
            "drop_height": Param(0.4, 0.5, 2),
        },
        materials={"material": ("steel", "granite", "aluminium")},
        edits=_edits,
        reference=_reference,
        checks=_checks,
        scene=_scene,
        settle_s=lambda p: fall_time(p["drop_height"] - p["radius"] - p["water_depth"]),
        problems=_problems,
    ),
}
