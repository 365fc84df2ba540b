"""Fresh families of collisions with more than a line to them: a block sliding into an equal block on a floor
with friction, and a glancing collision of two balls in weightlessness. Drawn: launch speed, friction, gap,
impact parameter, sizes and materials. From the draw, for any restitution e in [0, 1]: the impact speed
u = sqrt(v0^2 - 2 mu g d) and how far each block then slides ((1 + e)^2 u^2 / (8 mu g) and (1 - e)^2 u^2 / (8 mu
g)); for the glancing collision the line of centres at contact (sin q = b / 2r) and the struck ball's velocity
along it, (1 + e) / 2 v0 cos q, the striker's the rest."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f, sphere_mass

# --- a sliding block knocks an equal block along a floor -----------------------------------------------------

SIDE = 0.2


def _slide_reference(p: Params) -> Params:
    v0, mu, gap = p["v0"], p["mu"], p["gap"]
    u2 = v0**2 - 2.0 * mu * G * gap
    u = math.sqrt(max(u2, 0.0))
    slide = u**2 / (8.0 * mu * G)  # (1 + e)^2 u^2 / (8 mu g) at e = 0
    return {
        "g": G,
        "v0": v0,
        "mu": mu,
        "gap": gap,
        "impact_speed": round(u, 4),
        "mass": round(p["density"] * SIDE**3, 4),
        "struck_slide": [round(slide, 4), round(4.0 * slide, 4)],  # e = 0, e = 1
        "striker_travel": [round(gap, 4), round(gap + slide, 4)],  # e = 1, e = 0
        "stop_time": round(v0 / (mu * G), 4),
        "material": p["material"],
        "density": p["density"],
    }


def _slide_checks(p: Params) -> list[dict[str, Any]]:
    start = -(p["gap"] + SIDE)

    def block(x: float) -> dict[str, Any]:
        return {"kind": "box", "size": [SIDE] * 3, "near": [round(x, 6) + 0.0, 0.0, SIDE / 2]}

    struck, striker = p["struck_slide"], p["striker_travel"]
    return [
        {"check": "no_nan"},
        {
            "check": "displacement",
            "object": block(0.0),
            "min": round(struck[0] - 0.01, 4),
            "max": round(struck[1] + 0.02, 4),
        },
        {
            "check": "displacement",
            "object": block(start),
            "min": round(striker[0] - 0.02, 4),
            "max": round(striker[1] + 0.02, 4),
        },
        {
            "check": "system_energy_not_growing",
            "objects": [{"object": block(start), "mass": p["mass"]}, {"object": block(0.0), "mass": p["mass"]}],
        },
        {"check": "tilt_angle", "object": block(0.0), "max_deg": 3.0},
        {"check": "resting_height", "object": block(0.0), "z": SIDE / 2, "atol": 0.02},
    ]


def _slide_edits(p: Params) -> tuple[Edits, Edits]:
    mat, v0, mu = p["material"], number(p["v0"]), number(p["mu"])
    start = number(round(-(p["gap"] + SIDE), 4))
    text = [
        (
            "two equal wooden blocks (20 cm cubes, density 500 kg/m^3)",
            f"two equal {mat} blocks (20 cm cubes, density {number(p['density'])} kg/m^3)",
        ),
        ("friction coefficient 0.3", f"friction coefficient {mu}"),
        (
            "centred at x = -0.6 m, starts sliding along +x at 2 m/s",
            f"centred at x = {start} m, starts sliding along +x at {v0} m/s",
        ),
        ("to about 1.28 m/s", f"to about {p['impact_speed']:.2f} m/s"),
        ("resting block 0.4 m later", f"resting block {number(p['gap'])} m later"),
    ]
    oracle = [
        (
            "a wooden block sliding at 2 m/s with friction 0.3",
            f"{a_an(mat + ' block').lower()} sliding at {v0} m/s with friction {mu}",
        ),
        ("Rigid(friction=0.3)", f"Rigid(friction={f(p['mu'])})"),
        ("Rigid(rho=500.0, friction=0.3)", f"Rigid(rho={f(p['density'])}, friction={f(p['mu'])})"),
        ("pos=(-0.6, 0.0, 0.1)", f"pos=({f(-(p['gap'] + SIDE))}, 0.0, 0.1)"),
        ("set_dofs_velocity([2.0, 0.0,", f"set_dofs_velocity([{f(p['v0'])}, 0.0,"),
    ]
    return text, oracle


def _slide_problems(p: Params) -> list[str]:
    if p["impact_speed"] < 0.8:
        return [f"the striker arrives at {p['impact_speed']} m/s (0.8 at least, for a measurable push)"]
    return []


# --- a glancing collision in weightlessness ------------------------------------------------------------------

STRIKER_X, Z = -0.5, 1.0


def _glance_reference(p: Params) -> Params:
    r, v0 = p["radius"], p["v0"]
    offset = round(p["offset_ratio"] * r, 4)
    q = math.asin(offset / (2.0 * r))
    along = 0.5 * v0 * math.cos(q)  # the struck ball's speed along the line of centres at e = 0
    return {
        "radius": r,
        "v0": v0,
        "offset_ratio": p["offset_ratio"],
        "offset": offset,
        "target_x": p["target_x"],
        "mass": round(sphere_mass(r, p["density"]), 4),
        "line_of_centres_deg": round(-math.degrees(q), 3),
        "contact_time": round((p["target_x"] - STRIKER_X - math.sqrt(4 * r**2 - offset**2)) / v0, 4),
        # e = 0 and e = 1: the struck ball along n = (cos q, -sin q) at (1 + e) v0 cos q / 2
        "target_vx": [round(along * math.cos(q), 4), round(2 * along * math.cos(q), 4)],
        "target_vy": [round(-2 * along * math.sin(q), 4), round(-along * math.sin(q), 4)],
        "striker_vy": [round(along * math.sin(q), 4), round(2 * along * math.sin(q), 4)],
        "material": p["material"],
        "density": p["density"],
    }


def _glance_checks(p: Params) -> list[dict[str, Any]]:
    r = p["radius"]
    striker = {"kind": "sphere", "radius": r, "near": [STRIKER_X, p["offset"], Z]}
    target = {"kind": "sphere", "radius": r, "near": [p["target_x"], 0.0, Z]}
    members = [{"object": striker, "mass": p["mass"]}, {"object": target, "mass": p["mass"]}]
    margin = round(0.02 * p["v0"], 4)

    def bounds(values: list[float]) -> dict[str, float]:
        return {"min": round(values[0] - margin, 4), "max": round(values[1] + margin, 4)}

    return [
        {"check": "no_nan"},
        {"check": "momentum_conserved", "axes": [0, 1, 2], "objects": members},
        {"check": "system_energy_not_growing", "objects": [dict(m) for m in members]},
        {"check": "final_velocity", "object": dict(target), "axis": 0, **bounds(p["target_vx"])},
        {"check": "final_velocity", "object": dict(target), "axis": 1, **bounds(p["target_vy"])},
        {"check": "final_velocity", "object": dict(striker), "axis": 1, **bounds(p["striker_vy"])},
    ]


def _glance_edits(p: Params) -> tuple[Edits, Edits]:
    mat, v0, r = p["material"], number(p["v0"]), p["radius"]
    offset, x2 = number(p["offset"]), number(p["target_x"])
    angle = number(round(-p["line_of_centres_deg"], 1))
    text = [
        (
            "two solid steel balls (radius 10 cm, density 7850 kg/m^3 each",
            f"two solid {mat} balls (radius {cm(r)} cm, density {number(p['density'])} kg/m^3 each",
        ),
        ("(x, y) = (-0.5, 0.1) m moving along +x at 1 m/s", f"(x, y) = (-0.5, {offset}) m moving along +x at {v0} m/s"),
        ("at rest at (0.2, 0) m", f"at rest at ({x2}, 0) m"),
        ("(the offset equals one radius)", f"(the offset is {cm(p['offset'])} cm)"),
        ("points 30 degrees", f"points {angle} degrees"),
    ]
    oracle = [
        (
            "a steel ball at 1 m/s strikes an equal ball at rest off centre (impact parameter = r)",
            f"{a_an(mat + ' ball').lower()} at {v0} m/s strikes an equal ball at rest off centre (impact parameter "
            f"{offset} m)",
        ),
        ("Sphere(radius=0.1, pos=(-0.5, 0.1, 1.0))", f"Sphere(radius={f(r)}, pos=(-0.5, {f(p['offset'])}, 1.0))"),
        ("Sphere(radius=0.1, pos=(0.2, 0.0, 1.0))", f"Sphere(radius={f(r)}, pos=({f(p['target_x'])}, 0.0, 1.0))"),
        ("Rigid(rho=7850.0, friction=0.02)", f"Rigid(rho={f(p['density'])}, friction=0.02)"),
        ("Rigid(rho=7850.0, friction=0.01)", f"Rigid(rho={f(p['density'])}, friction=0.01)"),
        ("set_dofs_velocity([1.0,", f"set_dofs_velocity([{f(p['v0'])},"),
    ]
    return text, oracle


FAMILIES: dict[str, Family] = {
    # both stop by v0 / (mu g) <= 2.3 / (0.3 g) = 0.78 s, collision or not
    "block_collision_slide": Family(
        params={"v0": Param(1.8, 2.3, 2), "mu": Param(0.3, 0.4, 2), "gap": Param(0.2, 0.4, 2)},
        materials={"material": ("pine", "oak", "polyethylene")},
        edits=_slide_edits,
        reference=_slide_reference,
        checks=_slide_checks,
        scene=lambda p: {
            "body0.material.friction": p["mu"],
            "body1.pos": [-(p["gap"] + SIDE), 0.0, SIDE / 2],
            "body1.material.rho": p["density"],
            "body1.material.friction": p["mu"],
            "body1.velocity": [p["v0"], 0.0, 0.0, 0.0, 0.0, 0.0],
            "body2.pos": [0.0, 0.0, SIDE / 2],
        },
        settle_s=lambda p: p["stop_time"],
        problems=_slide_problems,
    ),
    # offset 0.6-1.4 radii: the line of centres 17-44 degrees off the x axis; contact within 0.7 s
    "sphere_collision_glancing": Family(
        params={
            "radius": Param(0.07, 0.12, 3),
            "v0": Param(1.0, 1.6, 2),
            "offset_ratio": Param(0.6, 1.4, 2),
            "target_x": Param(0.15, 0.3, 2),
        },
        materials={"material": ("steel", "aluminium", "granite", "nylon")},
        edits=_glance_edits,
        reference=_glance_reference,
        checks=_glance_checks,
        scene=lambda p: {
            "SimOptions.gravity": [0.0, 0.0, 0.0],
            "body1.radius": p["radius"],
            "body1.pos": [STRIKER_X, p["offset"], Z],
            "body1.material.rho": p["density"],
            "body1.velocity": [p["v0"], 0.0, 0.0, 0.0, 0.0, 0.0],
            "body2.radius": p["radius"],
            "body2.pos": [p["target_x"], 0.0, Z],
            "body2.material.rho": p["density"],
        },
        settle_s=lambda p: p["contact_time"],
    ),
}
