"""Fresh families of free flight: projectiles (launched from the ground at an angle, thrown horizontally from a
height) and head-on collisions of two balls in weightlessness. Drawn: launch speeds, angles, heights, sizes,
positions and materials. Checks from the draw: the horizontal velocity and the range of the parabola (v^2 sin 2q
/ g; v sqrt(2 h / g)); momentum with the drawn masses, and each ball's final velocity within the bounds that a
restitution e in [0, 1] allows ((m1 - e m2) v0 / (m1 + m2) and (1 + e) m1 v0 / (m1 + m2))."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f, fall_time, sphere_mass

PROJECTILE_RADIUS = 0.05


def _ball() -> dict[str, Any]:
    return {"kind": "sphere", "radius": PROJECTILE_RADIUS}


def _flight_checks(p: Params, horizontal: float) -> list[dict[str, Any]]:
    return [
        {"check": "no_nan"},
        {"check": "ballistic_flight", "object": _ball(), "horizontal_velocity": [horizontal, 0.0], "g": p["g"]},
        {"check": "landing_distance", "object": _ball(), "distance": p["range"], "rtol": 0.1},
        {"check": "no_penetration", "object": _ball(), "atol": 0.02},
        {"check": "energy_not_growing", "object": _ball()},
    ]


def _range_problems(p: Params) -> list[str]:
    """The recorded touch-down is up to one 30 fps step short of the contact: that step must fit in the
    landing check's tolerance (10 % of the range plus 2 cm)."""
    step = p["vx"] / 30.0
    if step > 0.1 * p["range"] + 0.02:
        return [f"one 30 fps step ({step:.3f} m) exceeds the range's tolerance"]
    return []


# --- launched from the ground at an angle --------------------------------------------------------------------


def _launch_reference(p: Params) -> Params:
    q = math.radians(p["angle_deg"])
    v0 = p["v0"]
    return {
        "g": G,
        "v0": v0,
        "angle_deg": p["angle_deg"],
        "vx": round(v0 * math.cos(q), 4),
        "vz": round(v0 * math.sin(q), 4),
        "range": round(v0**2 * math.sin(2.0 * q) / G, 4),
        "flight_time": round(2.0 * v0 * math.sin(q) / G, 4),
        "material": p["material"],
        "density": p["density"],
    }


def _launch_edits(p: Params) -> tuple[Edits, Edits]:
    v0, q = number(p["v0"]), number(p["angle_deg"])
    text = [
        ("A ball launched at 45 degrees", f"A ball launched at {q} degrees"),
        (
            "solid ball (radius 5 cm, density 1000 kg/m^3)",
            f"solid {p['material']} ball (radius 5 cm, density {number(p['density'])} kg/m^3)",
        ),
        ("speed of 4 m/s at 45 degrees", f"speed of {v0} m/s at {q} degrees"),
        ("lands about v^2/g = 1.63 m", f"lands about v^2 sin(2 x {q} degrees)/g = {p['range']:.2f} m"),
    ]
    oracle = [
        (
            "at 4 m/s, 45 degrees up: a parabola of range v^2 / g",
            f"at {v0} m/s, {q} degrees up: a parabola of range v^2 sin(2 q) / g",
        ),
        ("Rigid(rho=1000.0, friction=0.5)", f"Rigid(rho={f(p['density'])}, friction=0.5)"),
        ("set_dofs_velocity([2.8284, 0.0, 2.8284,", f"set_dofs_velocity([{f(p['vx'])}, 0.0, {f(p['vz'])},"),
    ]
    return text, oracle


# --- thrown horizontally from a height -----------------------------------------------------------------------


def _throw_reference(p: Params) -> Params:
    t = fall_time(p["height"] - PROJECTILE_RADIUS)
    return {
        "g": G,
        "v0": p["v0"],
        "vx": p["v0"],
        "height": p["height"],
        "radius": PROJECTILE_RADIUS,
        "flight_time": round(t, 4),
        "range": round(p["v0"] * t, 4),
        "material": p["material"],
        "density": p["density"],
    }


def _throw_edits(p: Params) -> tuple[Edits, Edits]:
    v0, h, mat = number(p["v0"]), number(p["height"]), p["material"]
    drop = number(round(p["height"] - PROJECTILE_RADIUS, 4))
    text = [
        ("A steel ball thrown horizontally from 1 m", f"{a_an(mat + ' ball')} thrown horizontally from {h} m"),
        (
            "solid steel ball (radius 5 cm, density 7850 kg/m^3)",
            f"solid {mat} ball (radius 5 cm, density {number(p['density'])} kg/m^3)",
        ),
        (
            "along +x at 2 m/s from a height of 1 m (its centre at x = -0.5 m, z = 1 m)",
            f"along +x at {v0} m/s from a height of {h} m (its centre at x = -0.5 m, z = {h} m)",
        ),
        ("velocity stays 2 m/s", f"velocity stays {v0} m/s"),
        (
            "lands after sqrt(2 x 0.95 / 9.81) = 0.44 s, 0.88 m further",
            f"lands after sqrt(2 x {drop} / 9.81) = {p['flight_time']:.2f} s, {p['range']:.2f} m further",
        ),
    ]
    oracle = [
        ("horizontally at 2 m/s from 1 m up", f"horizontally at {v0} m/s from {h} m up"),
        ("lands 2 m/s * sqrt(2 h / g) away", f"lands {v0} m/s * sqrt(2 h / g) away"),
        ("Sphere(radius=0.05, pos=(-0.5, 0.0, 1.0))", f"Sphere(radius=0.05, pos=(-0.5, 0.0, {f(p['height'])}))"),
        ("Rigid(rho=7850.0, friction=0.5)", f"Rigid(rho={f(p['density'])}, friction=0.5)"),
        ("set_dofs_velocity([2.0, 0.0,", f"set_dofs_velocity([{f(p['v0'])}, 0.0,"),
    ]
    return text, oracle


# --- two balls colliding head on in weightlessness -----------------------------------------------------------

STRIKER_X, Z = -0.5, 1.0


def _collision_reference(p: Params) -> Params:
    heavy = p.get("heavy_density", p.get("density"))
    light = p.get("light_density", p.get("density"))
    m1, m2 = sphere_mass(p["radius"], heavy), sphere_mass(p["radius"], light)
    v0 = p["v0"]
    materials = {k: p[k] for k in ("material", "density", "heavy", "heavy_density", "light", "light_density") if k in p}
    return {
        "radius": p["radius"],
        "v0": v0,
        "target_x": p["target_x"],
        "mass_striker": round(m1, 4),
        "mass_target": round(m2, 4),
        "contact_time": round((p["target_x"] - STRIKER_X - 2.0 * p["radius"]) / v0, 4),
        # e = 0 and e = 1 (momentum and restitution along the line of centres)
        "target_v": [round(m1 * v0 / (m1 + m2), 4), round(2.0 * m1 * v0 / (m1 + m2), 4)],
        "striker_v": [round((m1 - m2) * v0 / (m1 + m2), 4), round(m1 * v0 / (m1 + m2), 4)],
        **materials,
    }


def _collision_checks(p: Params) -> list[dict[str, Any]]:
    r = p["radius"]
    striker = {"kind": "sphere", "radius": r, "near": [STRIKER_X, 0.0, Z]}
    target = {"kind": "sphere", "radius": r, "near": [p["target_x"], 0.0, Z]}
    members = [{"object": striker, "mass": p["mass_striker"]}, {"object": target, "mass": p["mass_target"]}]
    margin = round(0.02 * p["v0"], 4)  # the published cases' 0.02 m/s at 1 m/s
    return [
        {"check": "no_nan"},
        {"check": "momentum_conserved", "axes": [0, 1, 2], "objects": members},
        {"check": "system_energy_not_growing", "objects": [dict(m) for m in members]},
        {
            "check": "final_velocity",
            "object": dict(target),
            "min": round(p["target_v"][0] - margin, 4),
            "max": round(p["target_v"][1] + margin, 4),
        },
        {
            "check": "final_velocity",
            "object": dict(striker),
            "min": round(p["striker_v"][0] - margin, 4),
            "max": round(p["striker_v"][1] + margin, 4),
        },
    ]


def _collision_scene(p: Params) -> dict[str, Any]:
    return {
        "SimOptions.gravity": [0.0, 0.0, 0.0],
        "body1.radius": p["radius"],
        "body1.pos": [STRIKER_X, 0.0, Z],
        "body1.material.rho": p.get("heavy_density", p.get("density")),
        "body1.velocity": [p["v0"], 0.0, 0.0, 0.0, 0.0, 0.0],
        "body2.radius": p["radius"],
        "body2.pos": [p["target_x"], 0.0, Z],
        "body2.material.rho": p.get("light_density", p.get("density")),
    }


def _collision_text(p: Params) -> Edits:
    t = number(round(p["contact_time"], 1))
    return [
        ("at x = -0.5 m moving along +x at 1 m/s", f"at x = -0.5 m moving along +x at {number(p['v0'])} m/s"),
        ("at rest at x = 0.3 m", f"at rest at x = {number(p['target_x'])} m"),
        ("collide head on after about 0.6 s", f"collide head on after about {t} s"),
    ]


def _collision_oracle(p: Params) -> Edits:
    r = f(p["radius"])
    return [
        ("Sphere(radius=0.1, pos=(-0.5, 0.0, 1.0))", f"Sphere(radius={r}, pos=(-0.5, 0.0, 1.0))"),
        ("Sphere(radius=0.1, pos=(0.3, 0.0, 1.0))", f"Sphere(radius={r}, pos=({f(p['target_x'])}, 0.0, 1.0))"),
        ("set_dofs_velocity([1.0,", f"set_dofs_velocity([{f(p['v0'])},"),
    ]


def _equal_edits(p: Params) -> tuple[Edits, Edits]:
    mat, rho = p["material"], number(p["density"])
    text = [
        ("Two equal steel balls", f"Two equal {mat} balls"),
        (
            "two solid steel balls (radius 10 cm, density 7850 kg/m^3 each)",
            f"two solid {mat} balls (radius {cm(p['radius'])} cm, density {rho} kg/m^3 each)",
        ),
        *_collision_text(p),
    ]
    oracle = [
        (
            "a steel ball at 1 m/s hits an equal steel ball",
            f"{a_an(mat + ' ball').lower()} at {number(p['v0'])} m/s hits an equal {mat} ball",
        ),
        ("Rigid(rho=7850.0, friction=0.3)", f"Rigid(rho={f(p['density'])}, friction=0.3)"),
        ("Rigid(rho=7850.0, friction=0.25)", f"Rigid(rho={f(p['density'])}, friction=0.25)"),
        *_collision_oracle(p),
    ]
    return text, oracle


def _unequal_edits(p: Params) -> tuple[Edits, Edits]:
    heavy, light = p["heavy"], p["light"]
    ratio = number(round(p["mass_striker"] / p["mass_target"], 1))
    text = [
        ("A heavy steel ball striking a light wooden ball", f"A heavy {heavy} ball striking a light {light} ball"),
        ("same size (radius 10 cm)", f"same size (radius {cm(p['radius'])} cm)"),
        (
            "a steel ball (density 7850 kg/m^3)",
            f"{a_an(heavy + ' ball').lower()} (density {number(p['heavy_density'])} kg/m^3)",
        ),
        (
            "a wooden ball (density 600 kg/m^3)",
            f"{a_an(light + ' ball').lower()} (density {number(p['light_density'])} kg/m^3)",
        ),
        ("the light wooden ball", f"the light {light} ball"),
        ("the steel ball came in", f"the {heavy} ball came in"),
        (
            "while the steel ball, thirteen times heavier, carries on along +x only slightly slowed",
            f"while the {heavy} ball, {ratio} times heavier, carries on along +x, slowed",
        ),
        *_collision_text(p),
    ]
    oracle = [
        (
            "a heavy steel ball at 1 m/s hits a light wooden ball",
            f"a heavy {heavy} ball at {number(p['v0'])} m/s hits a light {light} ball",
        ),
        ("Rigid(rho=7850.0, friction=0.3)", f"Rigid(rho={f(p['heavy_density'])}, friction=0.3)"),
        ("Rigid(rho=600.0, friction=0.3)", f"Rigid(rho={f(p['light_density'])}, friction=0.3)"),
        *_collision_oracle(p),
    ]
    return text, oracle


def _collision_problems(p: Params) -> list[str]:
    if "heavy" in p and p["mass_striker"] < 3.0 * p["mass_target"]:
        return [f"the striker is only {p['mass_striker'] / p['mass_target']:.1f} times heavier (3 at least)"]
    return []


_COLLISION = {"radius": Param(0.07, 0.12, 3), "v0": Param(1.0, 1.6, 2), "target_x": Param(0.2, 0.4, 2)}

FAMILIES: dict[str, Family] = {
    # flight time 2 v0 sin q / g <= 2 x 4.5 x sin 55 / 9.81 = 0.75 s
    "projectile_ball": Family(
        params={"v0": Param(3.0, 4.5, 2), "angle_deg": Param(35.0, 55.0, 1)},
        materials={"material": ("nylon", "rubber", "polyethylene", "oak")},
        edits=_launch_edits,
        reference=_launch_reference,
        checks=lambda p: _flight_checks(p, p["vx"]),
        scene=lambda p: {
            "body1.radius": PROJECTILE_RADIUS,
            "body1.pos": [-0.8, 0.0, 0.06],
            "body1.material.rho": p["density"],
            "body1.velocity": [p["vx"], 0.0, p["vz"], 0.0, 0.0, 0.0],
        },
        settle_s=lambda p: p["flight_time"],
        problems=_range_problems,
    ),
    # falls 0.75-1.25 m in 0.39-0.50 s
    "projectile_table": Family(
        params={"v0": Param(1.2, 2.5, 2), "height": Param(0.8, 1.3, 2)},
        materials={"material": ("steel", "granite", "aluminium", "nylon")},
        edits=_throw_edits,
        reference=_throw_reference,
        checks=lambda p: _flight_checks(p, p["v0"]),
        scene=lambda p: {
            "body1.radius": PROJECTILE_RADIUS,
            "body1.pos": [-0.5, 0.0, p["height"]],
            "body1.material.rho": p["density"],
            "body1.velocity": [p["v0"], 0.0, 0.0, 0.0, 0.0, 0.0],
        },
        settle_s=lambda p: p["flight_time"],
        problems=_range_problems,
    ),
    # contact after (x2 + 0.5 - 2 r) / v0 <= 0.76 s
    "sphere_collision_space": Family(
        params=dict(_COLLISION),
        materials={"material": ("steel", "aluminium", "granite", "nylon")},
        edits=_equal_edits,
        reference=_collision_reference,
        checks=_collision_checks,
        scene=_collision_scene,
        settle_s=lambda p: p["contact_time"],
    ),
    "sphere_collision_unequal": Family(
        params=dict(_COLLISION),
        materials={"heavy": ("steel", "aluminium", "granite"), "light": ("oak", "pine", "polyethylene")},
        edits=_unequal_edits,
        reference=_collision_reference,
        checks=_collision_checks,
        scene=_collision_scene,
        settle_s=lambda p: p["contact_time"],
        problems=_collision_problems,
    ),
}
