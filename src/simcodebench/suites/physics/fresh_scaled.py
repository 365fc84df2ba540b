"""Fresh families by geometric similarity: scenes whose checks are bounds measured in a Genesis run, redrawn as
the published scene scaled by a factor s, so that each measured bound follows from the draw.

Scale every length by s and keep gravity, the densities and every dimensionless number: the motion is the
published one with time scaled by sqrt(s) (the only time scale gravity and a length make is sqrt(L / g)). So a
measured length (a floor the ball must stay above) scales by s and a measured time (the domino wave's) by
sqrt(s). Where a continuum is involved, the dimensionless numbers include its stiffness against gravity,
rho g L / E, so Young's modulus scales by s too; the grid scales with the body (grid density 1 / s, the same cells
and particles) and the substeps with time (1 / sqrt(s) per second, the same CFL number).

The similarity is exact for the equations; Genesis's solvers carry absolute scales of their own (the rigid
contact's time constant, 0.01 s, and its 2 cm contact-pruning tolerance; the fixed video frame rate), so it is
measured, not assumed: the acceptance runs (benchmarks/results/fresh-variants-physics-measured.md) run fresh
draws at both ends of the range and compare the measured events with the published run's, scaled.

- ``domino_chain``: five dominoes, s in [0.6, 1.4] (12-28 cm tall), any of four plastics or woods (a uniform
  density scales every mass and contact force alike); the last domino still standing at 0.4 sqrt(s) s and every
  domino fallen at the end.
- ``ball_on_jelly``: a ball on an elastic slab, s in [0.75, 1.2]; the ball's lowest point above 0.03 s.
"""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

# --- domino chain ------------------------------------------------------------------------------------------------

DOMINO = {"thick": 0.02, "wide": 0.08, "tall": 0.2, "spacing": 0.1}
"""The published domino and spacing (m)."""
LEAN_DEG = 20.0
STANDING_UNTIL_S = 0.4
"""The published check's time: the last domino still stands (under 5 degrees) at 0.4 s."""
CHAIN_FALLEN_S = 0.66
"""When the published chain is down: its last domino passed 60 degrees at 0.659 s in the published oracle's run
at the smoke size (and 5 degrees at 0.529 s; benchmarks/results/fresh-variants-physics-measured.md)."""
DOMINOES = 5


def lean_centre(thick: float, tall: float, lean_deg: float = LEAN_DEG) -> float:
    """Height of the centre of a domino leaning ``lean_deg`` with its lower front edge on the ground."""
    q = math.radians(lean_deg)
    return tall / 2 * math.cos(q) + thick / 2 * math.sin(q)


def _domino_reference(p: Params) -> Params:
    s = p["scale"]
    sizes = {key: round(value * s, 6) for key, value in DOMINO.items()}
    return {
        "g": G,
        "scale": s,
        **sizes,
        "lean_centre": round(lean_centre(sizes["thick"], sizes["tall"]), 4),
        "standing_until": round(STANDING_UNTIL_S * math.sqrt(s), 3),
        "fallen_by": round(CHAIN_FALLEN_S * math.sqrt(s), 3),
        "material": p["material"],
        "density": p["density"],
    }


def _domino(p: Params, i: int) -> dict[str, Any]:
    z = p["lean_centre"] if i == 0 else round(p["tall"] / 2, 6)
    size = [p["thick"], p["wide"], p["tall"]]
    return {"kind": "box", "size": size, "near": [round(i * p["spacing"], 6), 0.0, z]}


def _domino_checks(p: Params) -> list[dict[str, Any]]:
    fallen = [{"check": "tilt_angle", "object": _domino(p, i), "min_deg": 60.0} for i in range(DOMINOES)]
    last = {"check": "tilt_angle", "object": _domino(p, DOMINOES - 1), "t": p["standing_until"], "max_deg": 5.0}
    return [{"check": "no_nan"}, *fallen, last]


def _domino_edits(p: Params) -> tuple[Edits, Edits]:
    mat, s = p["material"], p["scale"]
    thick, wide, tall, gap = p["thick"], p["wide"], p["tall"], p["spacing"]
    centres = ", ".join(number(round(i * gap, 6)) for i in range(DOMINOES))
    text = [
        (
            "five wooden dominoes (each 2 cm thick along x, 8 cm wide along y, 20 cm tall, density 700 kg/m^3,",
            f"five {mat} dominoes (each {cm(thick)} cm thick along x, {cm(wide)} cm wide along y, {cm(tall)} cm "
            f"tall, density {number(p['density'])} kg/m^3,",
        ),
        (
            "10 cm apart (centres at x = 0, 0.1, 0.2, 0.3, 0.4 m)",
            f"{cm(gap)} cm apart (centres at x = {centres} m)",
        ),
    ]
    oracle = [
        (
            "THICK, WIDE, TALL, SPACING = 0.02, 0.08, 0.2, 0.1",
            f"THICK, WIDE, TALL, SPACING = {thick}, {wide}, {tall}, {gap}",
        ),
        ("centre at 0.0974 m", f"centre at {p['lean_centre']} m"),
        ('"pos": (0.0, 0.0, 0.0974)', f'"pos": (0.0, 0.0, {p["lean_centre"]})'),
        ("Rigid(rho=700.0, friction=0.6)", f"Rigid(rho={f(p['density'])}, friction=0.6)"),
        (
            "pos=(0.2, -1.2, 0.4), lookat=(0.2, 0.0, 0.08)",
            f"pos=({f(round(0.2 * s, 4))}, {f(round(-1.2 * s, 4))}, {f(round(0.4 * s, 4))}), "
            f"lookat=({f(round(0.2 * s, 4))}, 0.0, {f(round(0.08 * s, 4))})",
        ),
    ]
    return text, oracle


def _domino_scene(p: Params) -> dict[str, Any]:
    size = [p["thick"], p["wide"], p["tall"]]
    scene: dict[str, Any] = {"SimOptions.gravity": [0.0, 0.0, -G]}
    for i in range(DOMINOES):
        body = f"body{i + 1}"
        scene |= {f"{body}.size": size, f"{body}.material.rho": p["density"], f"{body}.material.friction": 0.6}
        scene[f"{body}.pos"] = [0.0, 0.0, p["lean_centre"]] if i == 0 else [i * p["spacing"], 0.0, p["tall"] / 2]
    scene["body1.euler"] = [0.0, LEAN_DEG, 0.0]
    return scene


# --- ball on a jelly slab (MPM) ----------------------------------------------------------------------------------

JELLY = {"radius": 0.05, "drop_height": 0.5, "slab_side": 0.4, "slab_thick": 0.1, "floor": 0.03}
"""The published ball, drop height, slab and the floor (m) the ball's lowest point stays above."""
JELLY_E, JELLY_GRID, JELLY_STEPS = 2e4, 32.0, 1800
"""The published Young's modulus (Pa), grid density (cells per m) and substeps per second."""
JELLY_DOMAIN = ((-0.35, -0.35, -0.12), (0.35, 0.35, 0.7))


def _jelly_reference(p: Params) -> Params:
    s = p["scale"]
    lengths = {key: round(value * s, 6) for key, value in JELLY.items()}
    return {
        "g": G,
        "scale": s,
        **lengths,
        "slab_top": lengths["slab_thick"],
        "youngs_modulus": round(JELLY_E * s, 3),
        "grid_density": round(JELLY_GRID / s, 6),
        "substeps_per_s": 60 * math.ceil(round(JELLY_STEPS / 60 / math.sqrt(s), 6)),
    }


def _jelly_checks(p: Params) -> list[dict[str, Any]]:
    ball = {"kind": "sphere", "radius": p["radius"]}
    slab = {"kind": "box", "solver": "mpm", "size": [p["slab_side"], p["slab_side"], p["slab_thick"]]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": ball, "g": p["g"], "rtol": 0.05},
        {"check": "no_penetration", "object": dict(ball), "floor": p["floor"], "atol": 0.0},
        {"check": "particles_kept", "object": slab},
        {"check": "no_penetration", "object": dict(slab), "atol": 0.02},
    ]


def _bound(corner: tuple[float, float, float], s: float) -> str:
    return "(" + ", ".join(f(round(c * s, 6)) for c in corner) + ")"


def _jelly_edits(p: Params) -> tuple[Edits, Edits]:
    s, r, h, side, thick = p["scale"], p["radius"], p["drop_height"], p["slab_side"], p["slab_thick"]
    kpa = number(round(p["youngs_modulus"] / 1000, 6))
    text = [
        (
            "(radius 5 cm, density 700 kg/m^3) released from rest with its centre 0.5 m above",
            f"(radius {cm(r)} cm, density 700 kg/m^3) released from rest with its centre {number(h)} m above",
        ),
        (
            "(40 cm x 40 cm, 10 cm thick, density 1000 kg/m^3, Young's modulus 20 kPa,",
            f"({cm(side)} cm x {cm(side)} cm, {cm(thick)} cm thick, density 1000 kg/m^3, Young's modulus {kpa} kPa,",
        ),
    ]
    low, high = JELLY_DOMAIN
    oracle = [
        ("substeps=1800 // FPS", f"substeps={p['substeps_per_s']} // FPS"),
        (
            "lower_bound=(-0.35, -0.35, -0.12), upper_bound=(0.35, 0.35, 0.7), grid_density=32",
            f"lower_bound={_bound(low, s)}, upper_bound={_bound(high, s)}, grid_density={f(p['grid_density'])}",
        ),
        (
            "Box(size=(0.4, 0.4, 0.1), pos=(0.0, 0.0, 0.05))",
            f"Box(size=({f(side)}, {f(side)}, {f(thick)}), pos=(0.0, 0.0, {f(round(thick / 2, 6))}))",
        ),
        ("Elastic(E=2e4, nu=0.3", f"Elastic(E={f(p['youngs_modulus'])}, nu=0.3"),
        ("Sphere(radius=0.05, pos=(0.0, 0.0, 0.5))", f"Sphere(radius={f(r)}, pos=(0.0, 0.0, {f(h)}))"),
        (
            "pos=(1.4, -1.4, 0.7), lookat=(0.0, 0.0, 0.2)",
            f"pos=({f(round(1.4 * s, 4))}, {f(round(-1.4 * s, 4))}, {f(round(0.7 * s, 4))}), "
            f"lookat=(0.0, 0.0, {f(round(0.2 * s, 4))})",
        ),
    ]
    return text, oracle


def _jelly_scene(p: Params) -> dict[str, Any]:
    s, (low, high) = p["scale"], JELLY_DOMAIN
    return {
        "MPMOptions.lower_bound": [round(c * s, 6) for c in low],
        "MPMOptions.upper_bound": [round(c * s, 6) for c in high],
        "MPMOptions.grid_density": p["grid_density"],
        "body1.size": [p["slab_side"], p["slab_side"], p["slab_thick"]],
        "body1.pos": [0.0, 0.0, round(p["slab_thick"] / 2, 6)],
        "body1.material.E": p["youngs_modulus"],
        "body1.material.nu": 0.3,
        "body1.material.rho": 1000.0,
        "body2.radius": p["radius"],
        "body2.pos": [0.0, 0.0, p["drop_height"]],
        "body2.material.rho": 700.0,
    }


FAMILIES: dict[str, Family] = {
    # the chain is down by 0.66 sqrt(s) s: 0.51-0.78 s
    "domino_chain": Family(
        params={"scale": Param(0.6, 1.4, 2)},
        materials={"material": ("oak", "pine", "polyethylene", "nylon")},
        edits=_domino_edits,
        reference=_domino_reference,
        checks=_domino_checks,
        scene=_domino_scene,
        settle_s=lambda p: p["fallen_by"],
    ),
    # the checks judge the fall, the deepest sink-in and the slab: over with the first rebound's rise
    "ball_on_jelly": Family(
        params={"scale": Param(0.75, 1.2, 2)},
        materials={},
        edits=_jelly_edits,
        reference=_jelly_reference,
        checks=_jelly_checks,
        scene=_jelly_scene,
        settle_s=lambda p: 2.0 * fall_time(p["drop_height"] - p["radius"] - p["slab_thick"]) + 0.05,
    ),
}
