"""Fresh families of bodies dropped onto the ground or onto each other: a ball on another world, an upright
cylinder, a ball onto a cube, three cubes into a stack. Drawn: sizes, heights, gaps, materials and the world's
gravity. Checks from the draw: free fall at the world's g, resting heights (the radius, half the height, the
cube's top plus the radius, the stack's 1/2, 3/2 and 5/2 sides), no tilt, the cube unmoved."""

from __future__ import annotations

from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, density_key, f, fall_time
from simcodebench.suites.physics.fresh_rigid import ball_fall_checks

WORLDS = {"the Moon": 1.62, "Mars": 3.71, "Titan": 1.35, "Europa": 1.31, "Ganymede": 1.43}
"""Surface gravity (m/s^2) of worlds a ball can be dropped on."""


def _material(p: Params, *slots: str) -> Params:
    return {key: p[key] for slot in slots for key in (slot, density_key(slot))}


# --- a ball dropped on another world -------------------------------------------------------------------------


def _world_reference(p: Params) -> Params:
    return {
        "world": p["world"],
        "g": WORLDS[p["world"]],
        "radius": p["radius"],
        "drop_height": p["drop_height"],
        **_material(p, "material"),
    }


def _world_edits(p: Params) -> tuple[Edits, Edits]:
    g, world, mat = number(p["g"]), p["world"], p["material"]
    h = number(p["drop_height"])
    text = [
        ("A ball dropped on the Moon", f"A ball dropped on {world}"),
        (
            "a rubber ball (radius 10 cm, density 1100 kg/m^3)",
            f"{a_an(mat + ' ball').lower()} (radius {cm(p['radius'])} cm, density {number(p['density'])} kg/m^3)",
        ),
        ("centre 0.5 m above", f"centre {h} m above"),
        ("on the Moon, where gravity is 1.62 m/s^2", f"on {world}, where gravity is {g} m/s^2"),
    ]
    oracle = [
        (
            "a rubber ball dropped from 0.5 m on the Moon (g = 1.62 m/s^2): a slow fall onto the regolith",
            f"{a_an(mat + ' ball').lower()} dropped from {h} m on {world} (g = {g} m/s^2): a slow fall",
        ),
        ("gravity=(0.0, 0.0, -1.62)", f"gravity=(0.0, 0.0, {f(-p['g'])})"),
        (
            "Sphere(radius=0.1, pos=(0.0, 0.0, 0.5))",
            f"Sphere(radius={f(p['radius'])}, pos=(0.0, 0.0, {f(p['drop_height'])}))",
        ),
        ("Rigid(rho=1100.0, friction=0.8)", f"Rigid(rho={f(p['density'])}, friction=0.8)"),
    ]
    return text, oracle


# --- an upright cylinder dropped onto its base ---------------------------------------------------------------


def _cylinder_edits(p: Params) -> tuple[Edits, Edits]:
    mat, h = p["material"], number(p["drop_height"])
    text = [
        ("An upright aluminium cylinder", f"An upright {mat} cylinder"),
        (
            "solid aluminium cylinder (radius 8 cm, height 30 cm, density 2700 kg/m^3)",
            f"solid {mat} cylinder (radius {cm(p['radius'])} cm, height {cm(p['height'])} cm, density "
            f"{number(p['density'])} kg/m^3)",
        ),
        ("centre 0.8 m above", f"centre {h} m above"),
    ]
    oracle = [
        ("an upright aluminium cylinder dropped from 0.8 m", f"an upright {mat} cylinder dropped from {h} m"),
        (
            "Cylinder(radius=0.08, height=0.3, pos=(0.0, 0.0, 0.8))",
            f"Cylinder(radius={f(p['radius'])}, height={f(p['height'])}, pos=(0.0, 0.0, {f(p['drop_height'])}))",
        ),
        ("Rigid(rho=2700.0, friction=0.5)", f"Rigid(rho={f(p['density'])}, friction=0.5)"),
    ]
    return text, oracle


def _cylinder_checks(p: Params) -> list[dict[str, Any]]:
    body = {"kind": "cylinder", "radius": p["radius"], "height": p["height"]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": body, "g": p["g"], "rtol": 0.05},
        {"check": "resting_height", "object": dict(body), "z": round(p["height"] / 2, 6), "atol": 0.02},
        {"check": "tilt_angle", "object": dict(body), "max_deg": 3.0},
        {"check": "energy_not_growing", "object": dict(body)},
    ]


# --- a ball dropped onto a cube ------------------------------------------------------------------------------


def _ball_on_box_reference(p: Params) -> Params:
    return {
        "g": G,
        "radius": p["radius"],
        "side": p["side"],
        "drop_height": p["drop_height"],
        "resting": round(p["side"] + p["radius"], 6),
        **_material(p, "ball", "cube"),
    }


def _ball_on_box_edits(p: Params) -> tuple[Edits, Edits]:
    ball, cube, s, r = p["ball"], p["cube"], p["side"], p["radius"]
    text = [
        (
            "a wooden cube (30 cm side, density 600 kg/m^3)",
            f"{a_an(cube + ' cube').lower()} ({cm(s)} cm side, density {number(p['cube_density'])} kg/m^3)",
        ),
        (
            "solid steel ball (radius 5 cm, density 7850 kg/m^3)",
            f"solid {ball} ball (radius {cm(r)} cm, density {number(p['ball_density'])} kg/m^3)",
        ),
        ("centre 1 m above the ground", f"centre {number(p['drop_height'])} m above the ground"),
        ("(its centre 35 cm above the ground)", f"(its centre {cm(p['resting'])} cm above the ground)"),
    ]
    oracle = [
        (
            "a steel ball dropped onto the middle of a wooden cube",
            f"{a_an(ball + ' ball').lower()} dropped onto the middle of {a_an(cube + ' cube').lower()}",
        ),
        (
            "Box(size=(0.3, 0.3, 0.3), pos=(0.0, 0.0, 0.15))",
            f"Box(size=({f(s)}, {f(s)}, {f(s)}), pos=(0.0, 0.0, {f(s / 2)}))",
        ),
        ("Rigid(rho=600.0, friction=0.6)", f"Rigid(rho={f(p['cube_density'])}, friction=0.6)"),
        ("Sphere(radius=0.05, pos=(0.0, 0.0, 1.0))", f"Sphere(radius={f(r)}, pos=(0.0, 0.0, {f(p['drop_height'])}))"),
        ("Rigid(rho=7850.0, friction=0.5)", f"Rigid(rho={f(p['ball_density'])}, friction=0.5)"),
    ]
    return text, oracle


def _ball_on_box_checks(p: Params) -> list[dict[str, Any]]:
    ball = {"kind": "sphere", "radius": p["radius"]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": ball, "g": p["g"], "rtol": 0.05},
        {"check": "resting_height", "object": dict(ball), "z": p["resting"], "atol": 0.02},
        {"check": "no_penetration", "object": dict(ball), "floor": p["side"], "atol": 0.02},
        {"check": "displacement", "object": {"kind": "box", "size": [p["side"]] * 3}, "max": 0.01},
        {"check": "energy_not_growing", "object": dict(ball)},
    ]


# --- three cubes dropped into a stack ------------------------------------------------------------------------


def _stack_reference(p: Params) -> Params:
    s, gap, low = p["side"], p["gap"], p["clearance"]
    return {
        "g": G,
        "side": s,
        "gap": gap,
        "clearance": low,
        "heights": [round(low + s / 2 + k * (s + gap), 6) for k in range(3)],
        "resting": [round((k + 0.5) * s, 6) for k in range(3)],
        **_material(p, "material"),
    }


def _stack_edits(p: Params) -> tuple[Edits, Edits]:
    mat, heights, resting = p["material"], [number(h) for h in p["heights"]], [number(z) for z in p["resting"]]
    text = [
        (
            "three equal wooden cubes (20 cm side, density 600 kg/m^3, friction 0.6)",
            f"three equal {mat} cubes ({cm(p['side'])} cm side, density {number(p['density'])} kg/m^3, friction 0.6)",
        ),
        (
            "heights 0.5 m, 0.8 m and 1.1 m (10 cm gaps between them, 40 cm under the lowest)",
            f"heights {heights[0]} m, {heights[1]} m and {heights[2]} m ({cm(p['gap'])} cm gaps between them, "
            f"{cm(p['clearance'])} cm under the lowest)",
        ),
        ("(centres at 0.1, 0.3 and 0.5 m)", f"(centres at {resting[0]}, {resting[1]} and {resting[2]} m)"),
    ]
    oracle = [
        ("three equal wooden cubes", f"three equal {mat} cubes"),
        ("zip((0.5, 0.8, 1.1), colours", f"zip(({', '.join(f(h) for h in p['heights'])}), colours"),
        (
            "Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, height))",
            f"Box(size=({f(p['side'])}, {f(p['side'])}, {f(p['side'])}), pos=(0.0, 0.0, height))",
        ),
        ("Rigid(rho=600.0, friction=0.6)", f"Rigid(rho={f(p['density'])}, friction=0.6)"),
    ]
    return text, oracle


def _stack_checks(p: Params) -> list[dict[str, Any]]:
    def cube(k: int) -> dict[str, Any]:
        return {"kind": "box", "size": [p["side"]] * 3, "near": [0.0, 0.0, p["heights"][k]]}

    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": cube(2), "g": p["g"]},
        *({"check": "resting_height", "object": cube(k), "z": p["resting"][k], "atol": 0.02} for k in range(3)),
        {"check": "tilt_angle", "object": cube(2), "max_deg": 3.0},
        {"check": "no_penetration", "object": cube(0), "atol": 0.02},
    ]


FAMILIES: dict[str, Family] = {
    # the fall takes at most sqrt(2 x 0.39 / 1.31) = 0.77 s
    "ball_drop_moon": Family(
        params={"radius": Param(0.06, 0.12, 3), "drop_height": Param(0.3, 0.45, 2)},
        materials={"material": ("rubber", "nylon", "oak", "aluminium")},
        choices={"world": ("g", WORLDS)},
        edits=_world_edits,
        reference=_world_reference,
        checks=ball_fall_checks,
        scene=lambda p: {
            "SimOptions.gravity": [0.0, 0.0, -p["g"]],
            "body1.radius": p["radius"],
            "body1.pos": [0.0, 0.0, p["drop_height"]],
            "body1.material.rho": p["density"],
        },
        settle_s=lambda p: fall_time(p["drop_height"] - p["radius"], p["g"]),
    ),
    "cylinder_drop": Family(
        params={"radius": Param(0.05, 0.1, 3), "height": Param(0.2, 0.4, 2), "drop_height": Param(0.6, 1.1, 2)},
        materials={"material": ("aluminium", "steel", "oak", "nylon")},
        edits=_cylinder_edits,
        reference=lambda p: {
            "g": G,
            "radius": p["radius"],
            "height": p["height"],
            "drop_height": p["drop_height"],
            **_material(p, "material"),
        },
        checks=_cylinder_checks,
        scene=lambda p: {
            "body1.morph": "Cylinder",
            "body1.radius": p["radius"],
            "body1.height": p["height"],
            "body1.pos": [0.0, 0.0, p["drop_height"]],
            "body1.material.rho": p["density"],
        },
        settle_s=lambda p: fall_time(p["drop_height"] - p["height"] / 2),
    ),
    # the ball falls at most 1.2 - 0.2 - 0.03 = 0.97 m onto the top face: 0.44 s
    "ball_on_box": Family(
        params={"side": Param(0.2, 0.4, 2), "radius": Param(0.03, 0.07, 3), "drop_height": Param(0.8, 1.2, 2)},
        materials={"ball": ("steel", "granite", "aluminium", "nylon"), "cube": ("oak", "pine", "polyethylene")},
        edits=_ball_on_box_edits,
        reference=_ball_on_box_reference,
        checks=_ball_on_box_checks,
        scene=lambda p: {
            "body1.size": [p["side"]] * 3,
            "body1.pos": [0.0, 0.0, p["side"] / 2],
            "body1.material.rho": p["cube_density"],
            "body2.radius": p["radius"],
            "body2.pos": [0.0, 0.0, p["drop_height"]],
            "body2.material.rho": p["ball_density"],
        },
        settle_s=lambda p: fall_time(p["drop_height"] - p["resting"]),
    ),
    # the top cube falls clearance + 2 gaps, at most 0.8 m (0.40 s), before the stack has closed up
    "stack_drop": Family(
        params={"side": Param(0.12, 0.25, 2), "gap": Param(0.05, 0.15, 2), "clearance": Param(0.2, 0.5, 2)},
        materials={"material": ("oak", "pine", "polyethylene")},
        edits=_stack_edits,
        reference=_stack_reference,
        checks=_stack_checks,
        scene=lambda p: {
            **{f"body{k + 1}.pos": [0.0, 0.0, h] for k, h in enumerate(p["heights"])},
            **{f"body{k + 1}.size": [p["side"]] * 3 for k in range(3)},
            **{f"body{k + 1}.material.rho": p["density"] for k in range(3)},
        },
        settle_s=lambda p: fall_time(p["clearance"] + 2 * p["gap"]),
    ),
}
