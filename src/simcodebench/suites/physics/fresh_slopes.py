"""Fresh families on an incline: a block sliding against kinetic friction, a ball and a cylinder rolling without
slipping. Drawn: the slope's angle, friction, where the body starts, its size and material; the plank keeps its
length and is raised so that its lower end stays above the ground. Checks from the draw: the acceleration along
the slope, g (sin q - mu cos q) for the block, 5/7 g sin q for a solid ball, 2/3 g sin q for a solid cylinder,
fitted while the body is still on the plank, and rolling at omega r = v."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f

PLANK_LENGTH, THICKNESS = 2.4, 0.05
T_FROM, T_TO = 0.1, 0.8
"""The fit's window (s): from after the release until before the body could reach the plank's lower end."""

ROLLING_SHARE = {"sphere": 5.0 / 7.0, "cylinder": 2.0 / 3.0}
"""a / (g sin q) of a solid body rolling without slipping: 1 / (1 + I / (m r^2))."""


def slope_vectors(angle_deg: float) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Unit vectors down a plank tilted ``angle_deg`` about y (descending along +x) and out of its top face."""
    q = math.radians(angle_deg)
    return (math.cos(q), 0.0, -math.sin(q)), (math.sin(q), 0.0, math.cos(q))


def on_slope(p: Params, s: float, lift: float) -> list[float]:
    """The point ``s`` metres down the slope from the plank's centre, ``lift`` above its top face."""
    down, normal = slope_vectors(p["angle_deg"])
    centre = (0.0, 0.0, p["centre_height"])
    return [c + s * d + (0.5 * THICKNESS + lift) * n for c, d, n in zip(centre, down, normal, strict=True)]


def _centre_height(angle_deg: float, clearance: float) -> float:
    """The plank's centre height: its lower end ``clearance`` metres above the ground."""
    return round(0.5 * PLANK_LENGTH * math.sin(math.radians(angle_deg)) + clearance, 2)


def _direction(p: Params) -> list[float]:
    down, _ = slope_vectors(p["angle_deg"])
    return [round(c, 4) + 0.0 for c in down]


def _on_plank_problems(p: Params, half_length: float) -> list[str]:
    """Whether the body is still on the plank when the fit's window closes."""
    travelled = 0.5 * p["acceleration"] * T_TO**2
    room = p["start"] + 0.5 * PLANK_LENGTH - half_length
    if travelled >= room:
        return [f"the body slides {travelled:.2f} m by {T_TO} s but has only {room:.2f} m of plank"]
    return []


# --- a block sliding down ------------------------------------------------------------------------------------

BLOCK = {"kind": "box", "size": [0.2, 0.2, 0.1]}


def _block_reference(p: Params) -> Params:
    q = math.radians(p["angle_deg"])
    return {
        "g": G,
        "angle_deg": p["angle_deg"],
        "mu": p["mu"],
        "start": p["start"],
        "centre_height": _centre_height(p["angle_deg"], 0.03),
        "acceleration": round(G * (math.sin(q) - p["mu"] * math.cos(q)), 4),
        "material": p["material"],
        "density": p["density"],
    }


def _block_edits(p: Params) -> tuple[Edits, Edits]:
    q, mu, mat = number(p["angle_deg"]), number(p["mu"]), p["material"]
    text = [
        ("A steel block sliding down a 30 degree", f"{a_an(mat + ' block')} sliding down a {q} degree"),
        (
            "steel block (20 cm x 20 cm x 10 cm, density 7850 kg/m^3)",
            f"{mat} block (20 cm x 20 cm x 10 cm, density {number(p['density'])} kg/m^3)",
        ),
        ("tilted 30 degrees", f"tilted {q} degrees"),
        ("its centre 0.6 m above", f"its centre {number(p['centre_height'])} m above"),
        ("0.9 m up the slope", f"{number(p['start'])} m up the slope"),
        ("and incline is 0.2", f"and incline is {mu}"),
    ]
    oracle = [
        (
            "a steel block slides down a 30 degree incline with kinetic friction 0.2 (a = g (sin 30 - 0.2 cos 30))",
            f"a {mat} block slides down a {q} degree incline with kinetic friction {mu} (a = g (sin q - mu cos q))",
        ),
        ("ANGLE = math.radians(30.0)", f"ANGLE = math.radians({f(p['angle_deg'])})"),
        ("CENTRE, THICKNESS = (0.0, 0.0, 0.6), 0.05", f"CENTRE, THICKNESS = (0.0, 0.0, {f(p['centre_height'])}), 0.05"),
        ("euler=(0.0, 30.0, 0.0)", f"euler=(0.0, {f(p['angle_deg'])}, 0.0)"),
        ("Rigid(friction=0.2)", f"Rigid(friction={f(p['mu'])})"),
        ("Rigid(rho=7850.0, friction=0.2)", f"Rigid(rho={f(p['density'])}, friction={f(p['mu'])})"),
        ("on_slope(-0.9, 0.05)", f"on_slope({f(-p['start'])}, 0.05)"),
    ]
    return text, oracle


def _block_checks(p: Params) -> list[dict[str, Any]]:
    return [
        {"check": "no_nan"},
        {
            "check": "slope_acceleration",
            "object": dict(BLOCK),
            "direction": _direction(p),
            "acceleration": p["acceleration"],
            "rtol": 0.08,
            "t_from": T_FROM,
            "t_to": T_TO,
        },
        {"check": "energy_not_growing", "object": dict(BLOCK)},
        {"check": "no_penetration", "object": dict(BLOCK), "atol": 0.02},
    ]


def _block_scene(p: Params) -> dict[str, Any]:
    euler = [0.0, p["angle_deg"], 0.0]
    return {
        "body1.pos": [0.0, 0.0, p["centre_height"]],
        "body1.euler": euler,
        "body1.material.friction": p["mu"],
        "body2.size": BLOCK["size"],
        "body2.pos": on_slope(p, -p["start"], 0.05),
        "body2.euler": euler,
        "body2.material.rho": p["density"],
        "body2.material.friction": p["mu"],
    }


def _block_problems(p: Params) -> list[str]:
    if math.tan(math.radians(p["angle_deg"])) <= p["mu"]:
        return [f"tan {p['angle_deg']} <= mu = {p['mu']}: the block would not slide"]
    return _on_plank_problems(p, 0.1)


# --- a ball or a cylinder rolling down -----------------------------------------------------------------------


def _rolling_reference(kind: str) -> Any:
    def reference(p: Params) -> Params:
        q = math.radians(p["angle_deg"])
        body = {"length": p["length"]} if kind == "cylinder" else {}
        return {
            "g": G,
            "angle_deg": p["angle_deg"],
            "mu": p["mu"],
            "start": p["start"],
            "radius": p["radius"],
            **body,
            "centre_height": _centre_height(p["angle_deg"], 0.04),
            "acceleration": round(ROLLING_SHARE[kind] * G * math.sin(q), 4),
            "material": p["material"],
            "density": p["density"],
        }

    return reference


def _rolling_object(p: Params) -> dict[str, Any]:
    if "length" in p:
        return {"kind": "cylinder", "radius": p["radius"], "height": p["length"]}
    return {"kind": "sphere", "radius": p["radius"]}


def _rolling_checks(p: Params) -> list[dict[str, Any]]:
    window = {"t_from": T_FROM, "t_to": T_TO}
    return [
        {"check": "no_nan"},
        {
            "check": "slope_acceleration",
            "object": _rolling_object(p),
            "direction": _direction(p),
            "acceleration": p["acceleration"],
            "rtol": 0.05,
            **window,
        },
        {"check": "rolling_without_slipping", "object": _rolling_object(p), "radius": p["radius"], **window},
        {"check": "energy_not_growing", "object": _rolling_object(p)},
        {"check": "no_penetration", "object": _rolling_object(p), "atol": 0.02},
    ]


def _rolling_scene(p: Params) -> dict[str, Any]:
    body = {"body2.radius": p["radius"], "body2.pos": on_slope(p, -p["start"], p["radius"])}
    if "length" in p:
        body["body2.height"] = p["length"]
    return {
        "body1.pos": [0.0, 0.0, p["centre_height"]],
        "body1.euler": [0.0, p["angle_deg"], 0.0],
        "body1.material.friction": p["mu"],
        **body,
        "body2.material.rho": p["density"],
        "body2.material.friction": p["mu"],
    }


def _rolling_problems(p: Params) -> list[str]:
    kind = "cylinder" if "length" in p else "sphere"
    # rolling needs a friction force m g sin q (1 - k) <= mu m g cos q, k the rolling share
    needed = (1.0 - ROLLING_SHARE[kind]) * math.tan(math.radians(p["angle_deg"]))
    problems = [f"mu = {p['mu']} < {needed:.3f}: the body would slip"] if p["mu"] < needed else []
    return problems + _on_plank_problems(p, p["radius"])


def _common_rolling_edits(p: Params) -> tuple[Edits, Edits]:
    q = number(p["angle_deg"])
    text = [
        ("tilted 20 degrees", f"tilted {q} degrees"),
        ("its centre 0.45 m above", f"its centre {number(p['centre_height'])} m above"),
        ("0.9 m up the slope", f"{number(p['start'])} m up the slope"),
        ("and plank is 0.8", f"and plank is {number(p['mu'])}"),
        ("g sin 20 degrees", f"g sin {q} degrees"),
    ]
    oracle = [
        ("ANGLE = math.radians(20.0)", f"ANGLE = math.radians({f(p['angle_deg'])})"),
        (
            "CENTRE, THICKNESS = (0.0, 0.0, 0.45), 0.05",
            f"CENTRE, THICKNESS = (0.0, 0.0, {f(p['centre_height'])}), 0.05",
        ),
        ("euler=(0.0, 20.0, 0.0)", f"euler=(0.0, {f(p['angle_deg'])}, 0.0)"),
        ("Rigid(friction=0.8)", f"Rigid(friction={f(p['mu'])})"),
    ]
    return text, oracle


def _ball_edits(p: Params) -> tuple[Edits, Edits]:
    text, oracle = _common_rolling_edits(p)
    mat, r = p["material"], p["radius"]
    text = [
        *text,
        (
            "solid rubber ball (radius 10 cm, density 1100 kg/m^3)",
            f"solid {mat} ball (radius {cm(r)} cm, density {number(p['density'])} kg/m^3)",
        ),
    ]
    oracle = [
        *oracle,
        (
            "a solid rubber ball rolls without slipping down a 20 degree incline: a = 5/7 g sin 20",
            f"a solid {mat} ball rolls without slipping down a {number(p['angle_deg'])} degree incline: "
            "a = 5/7 g sin q",
        ),
        (
            "Sphere(radius=0.1, pos=on_slope(-0.9, 0.1))",
            f"Sphere(radius={f(r)}, pos=on_slope({f(-p['start'])}, {f(r)}))",
        ),
        ("Rigid(rho=1100.0, friction=0.8)", f"Rigid(rho={f(p['density'])}, friction={f(p['mu'])})"),
    ]
    return text, oracle


def _cylinder_edits(p: Params) -> tuple[Edits, Edits]:
    text, oracle = _common_rolling_edits(p)
    mat, r, length = p["material"], p["radius"], p["length"]
    text = [
        *text,
        (
            "solid wooden cylinder (radius 10 cm, length 30 cm, density 600 kg/m^3)",
            f"solid {mat} cylinder (radius {cm(r)} cm, length {cm(length)} cm, density {number(p['density'])} kg/m^3)",
        ),
    ]
    oracle = [
        *oracle,
        (
            "a solid wooden cylinder on its side rolls without slipping down a 20 degree incline: a = 2/3 g sin 20",
            f"a solid {mat} cylinder on its side rolls without slipping down a {number(p['angle_deg'])} degree "
            "incline: a = 2/3 g sin q",
        ),
        (
            "Cylinder(radius=0.1, height=0.3, pos=on_slope(-0.9, 0.1)",
            f"Cylinder(radius={f(r)}, height={f(length)}, pos=on_slope({f(-p['start'])}, {f(r)})",
        ),
        ("Rigid(rho=600.0, friction=0.8)", f"Rigid(rho={f(p['density'])}, friction={f(p['mu'])})"),
    ]
    return text, oracle


# --- static against kinetic friction: two blocks side by side ------------------------------------------------

SIDE_Y = 0.2
"""The rubber block starts at y = +0.2 m, the PTFE block at y = -0.2 m."""


def _stick_reference(p: Params) -> Params:
    q = math.radians(p["angle_deg"])
    return {
        "g": G,
        "angle_deg": p["angle_deg"],
        "mu_rubber": p["mu_rubber"],
        "mu_ptfe": p["mu_ptfe"],
        "start": p["start"],
        "centre_height": _centre_height(p["angle_deg"], 0.04),
        "acceleration": round(G * (math.sin(q) - p["mu_ptfe"] * math.cos(q)), 4),
    }


def _near(p: Params, y: float) -> list[float]:
    x, _, z = on_slope(p, -p["start"], 0.05)
    return [round(x, 2) + 0.0, y, round(z, 2)]


def _stick_checks(p: Params) -> list[dict[str, Any]]:
    def block(y: float) -> dict[str, Any]:
        return {**BLOCK, "near": _near(p, y)}

    q = p["angle_deg"]
    return [
        {"check": "no_nan"},
        {
            "check": "slope_acceleration",
            "object": block(-SIDE_Y),
            "direction": _direction(p),
            "acceleration": p["acceleration"],
            "rtol": 0.08,
            "t_from": T_FROM,
            "t_to": T_TO,
        },
        {"check": "displacement", "object": block(SIDE_Y), "max": 0.01},
        {"check": "tilt_angle", "object": block(SIDE_Y), "min_deg": round(q - 2.0, 3), "max_deg": round(q + 2.0, 3)},
        {"check": "energy_not_growing", "object": block(-SIDE_Y)},
    ]


def _stick_edits(p: Params) -> tuple[Edits, Edits]:
    q, rubber, ptfe = number(p["angle_deg"]), number(p["mu_rubber"]), number(p["mu_ptfe"])
    text = [
        ("tilted 20 degrees", f"tilted {q} degrees"),
        ("its centre 0.45 m above", f"its centre {number(p['centre_height'])} m above"),
        ("0.8 m up the slope", f"{number(p['start'])} m up the slope"),
        ("with the plank 0.7)", f"with the plank {rubber})"),
        ("friction coefficient 0.1)", f"friction coefficient {ptfe})"),
        ("(0.7 > tan 20 degrees)", f"({rubber} > tan {q} degrees)"),
    ]
    oracle = [
        (
            "on a 20 degree incline: the rubber one (friction 0.7 > tan 20)",
            f"on a {q} degree incline: the rubber one (friction {rubber} > tan {q})",
        ),
        (
            "(friction 0.1) slides down with a = g (sin 20 - 0.1 cos 20)",
            f"(friction {ptfe}) slides down with a = g (sin q - mu cos q)",
        ),
        ("ANGLE = math.radians(20.0)", f"ANGLE = math.radians({f(p['angle_deg'])})"),
        (
            "CENTRE, THICKNESS = (0.0, 0.0, 0.45), 0.05",
            f"CENTRE, THICKNESS = (0.0, 0.0, {f(p['centre_height'])}), 0.05",
        ),
        ("euler=(0.0, 20.0, 0.0)", f"euler=(0.0, {f(p['angle_deg'])}, 0.0)"),
        ("Rigid(friction=0.1)", f"Rigid(friction={f(p['mu_ptfe'])})"),
        ("Rigid(rho=1200.0, friction=0.7)", f"Rigid(rho=1200.0, friction={f(p['mu_rubber'])})"),
        ("Rigid(rho=2200.0, friction=0.1)", f"Rigid(rho=2200.0, friction={f(p['mu_ptfe'])})"),
        ("on_slope(-0.8, 0.2, 0.05)", f"on_slope({f(-p['start'])}, 0.2, 0.05)"),
        ("on_slope(-0.8, -0.2, 0.05)", f"on_slope({f(-p['start'])}, -0.2, 0.05)"),
    ]
    return text, oracle


def _stick_scene(p: Params) -> dict[str, Any]:
    euler = [0.0, p["angle_deg"], 0.0]
    x, _, z = on_slope(p, -p["start"], 0.05)
    return {
        "body1.pos": [0.0, 0.0, p["centre_height"]],
        "body1.euler": euler,
        "body1.material.friction": p["mu_ptfe"],
        "body2.pos": [x, SIDE_Y, z],
        "body2.euler": euler,
        "body2.material.friction": p["mu_rubber"],
        "body3.pos": [x, -SIDE_Y, z],
        "body3.euler": euler,
        "body3.material.friction": p["mu_ptfe"],
    }


def _stick_problems(p: Params) -> list[str]:
    # Genesis takes the larger friction of a pair: the plank carries the PTFE's, the rubber block its own
    tan = math.tan(math.radians(p["angle_deg"]))
    problems = []
    if p["mu_rubber"] < 1.25 * tan:
        problems.append(f"mu_rubber {p['mu_rubber']} holds the block with less than 25% to spare over tan q")
    if p["mu_ptfe"] >= tan:
        problems.append(f"mu_ptfe {p['mu_ptfe']} >= tan q: the PTFE block would not slide")
    return problems + _on_plank_problems({**p, "acceleration": p["acceleration"]}, 0.1)


_ROLLING = {
    "angle_deg": Param(12.0, 22.0, 1),
    "mu": Param(0.5, 0.9, 2),
    "start": Param(0.6, 0.9, 2),
    "radius": Param(0.06, 0.12, 3),
}

FAMILIES: dict[str, Family] = {
    # PTFE: a = g (sin q - mu cos q) >= 9.81 (sin 15 - 0.15 cos 15) = 1.12 m/s^2; rubber: mu >= 1.25 tan q
    "incline_stick_slip": Family(
        params={
            "angle_deg": Param(15.0, 24.0, 1),
            "mu_ptfe": Param(0.05, 0.15, 2),
            "mu_rubber": Param(0.6, 0.9, 2),
            "start": Param(0.6, 0.9, 2),
        },
        materials={},
        edits=_stick_edits,
        reference=_stick_reference,
        checks=_stick_checks,
        scene=_stick_scene,
        settle_s=lambda p: T_TO,
        problems=_stick_problems,
    ),
    # a = g (sin q - mu cos q) >= 9.81 (sin 25 - 0.25 cos 25) = 1.92 m/s^2; the block covers at most 1.55 m by
    # 0.8 s, with at least 1.7 m of plank ahead of it.
    "incline_block_slide": Family(
        params={"angle_deg": Param(25.0, 35.0, 1), "mu": Param(0.1, 0.25, 2), "start": Param(0.6, 0.9, 2)},
        materials={"material": ("steel", "aluminium", "granite", "oak")},
        edits=_block_edits,
        reference=_block_reference,
        checks=_block_checks,
        scene=_block_scene,
        settle_s=lambda p: T_TO,
        problems=_block_problems,
    ),
    "ball_roll_incline": Family(
        params=dict(_ROLLING),
        materials={"material": ("rubber", "oak", "nylon", "aluminium")},
        edits=_ball_edits,
        reference=_rolling_reference("sphere"),
        checks=_rolling_checks,
        scene=_rolling_scene,
        settle_s=lambda p: T_TO,
        problems=_rolling_problems,
    ),
    "cylinder_roll_incline": Family(
        params={**_ROLLING, "length": Param(0.2, 0.4, 2)},
        materials={"material": ("oak", "pine", "nylon", "polyethylene")},
        edits=_cylinder_edits,
        reference=_rolling_reference("cylinder"),
        checks=_rolling_checks,
        scene=_rolling_scene,
        settle_s=lambda p: T_TO,
        problems=_rolling_problems,
    ),
}
