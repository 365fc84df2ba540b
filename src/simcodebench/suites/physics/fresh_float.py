"""Fresh family of a light rigid ball dropped into a pool of SPH water, where it floats: Archimedes applied to the
water Genesis actually settles into.

Genesis's SPH water does not keep the volume it was sampled with: its particles (each of mass 0.8 rho0 ps^3, ps
the particle size) settle denser, so the pool's surface and the floating ball sit lower than the stated depth
gives. The published pool (40 x 40 cm, 2 cm particles, 15 cm: a regular 20 x 20 x 8 lattice, 3200 particles)
settles to a level of :data:`SETTLED_LEVEL`: the published oracle's ball rests at 0.108 m, which this model gives
back with that level, and the pool's top particles were seen at about 9.5 cm (cases/physics/README.md). Every
stated depth that samples the same lattice (round(depth / ps) = 8: 15-17 cm) is the same water, so the same
settled state; the ball floats in it by Archimedes: its submerged cap d solves d^2 (3r - d) = 4 r^3 rho_ball /
rho_settled, and the level rises by the cap's volume over the floor's area. The two fresh balls measured before
this family existed (an oak ball r 6.5 cm: 0.098 m; a pine ball r 6.7 cm in water stated 17 cm deep: 0.109 m;
benchmarks/results/fresh-variants-physics.md) are predicted to 1 mm (0.0974, 0.1100).

The check keeps the published one's tolerance about the ideal answer (Archimedes in water of the stated depth
and density, 5 cm either side) and reaches down to the settled prediction less :data:`SETTLED_MARGIN`, so both
water that keeps its volume and Genesis's default water pass; a draw whose lower bound would not clear a sunken
ball (centre at r) by :data:`SUNK_CLEARANCE` is dropped.
"""

from __future__ import annotations

import math
from typing import Any

from scipy.optimize import brentq

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, a_an, cm, f, fall_time

POOL_SIDE, WATER, PARTICLE = 0.4, 1000.0, 0.02
LAYERS = 8
"""The published pool's particle layers (round(0.15 / 0.02), as Genesis's regular sampler counts them)."""
SETTLED_LEVEL = 0.0957
"""The published pool's settled level (m) without the ball, from the published oracle's resting ball (0.108 m)
through this module's model."""
PUBLISHED_ATOL = 0.05
SETTLED_MARGIN = 0.02
"""How far below the settled prediction the check reaches: the published oracle's resting centre wandered 8 mm
over the tail the check averages (0.104-0.112 m, run D of the earlier acceptance), and the model's error on the
two measured draws was 1 mm."""
SUNK_CLEARANCE = 0.01


def layers(depth: float) -> int:
    """The particle layers Genesis's regular sampler puts in water ``depth`` deep."""
    return max(1, round(depth / PARTICLE))


def settled_density() -> float:
    """The settled water's mean density (kg/m^3): the sampled mass per floor area over the settled level."""
    mass_per_area = 0.8 * WATER * PARTICLE**3 * (POOL_SIDE / PARTICLE) ** 2 * LAYERS / POOL_SIDE**2
    return mass_per_area / SETTLED_LEVEL


def floating_centre(radius: float, density: float, level: float, water: float) -> float:
    """Height of a floating ball's centre: the cap d with d^2 (3r - d) = 4 r^3 density / water under a level
    ``level`` raised by the cap's volume over the pool's floor."""
    ratio = density / water
    if ratio >= 1.0:
        raise ValueError(f"a ball of {density} kg/m^3 does not float in water of {water} kg/m^3")
    d = brentq(lambda x: x * x * (3 * radius - x) - 4 * radius**3 * ratio, 0.0, 2 * radius)
    displaced = math.pi * d * d * (3 * radius - d) / 3
    return level + displaced / POOL_SIDE**2 - d + radius


def _reference(p: Params) -> Params:
    r, rho = p["radius"], p["density"]
    ideal = floating_centre(r, rho, p["water_depth"], WATER)
    settled = floating_centre(r, rho, SETTLED_LEVEL, settled_density())
    low = min(ideal - PUBLISHED_ATOL, settled - SETTLED_MARGIN)
    high = ideal + PUBLISHED_ATOL
    return {
        "g": G,
        "radius": r,
        "water_depth": p["water_depth"],
        "drop_height": p["drop_height"],
        "density_ratio": round(rho / WATER, 4),
        "floating_ideal": round(ideal, 4),
        "floating_settled": round(settled, 4),
        "resting": round((low + high) / 2, 4),
        "resting_atol": round((high - low) / 2, 4),
        "material": p["material"],
        "density": rho,
    }


def _checks(p: Params) -> list[dict[str, Any]]:
    ball = {"kind": "sphere", "radius": p["radius"]}
    water = {"kind": "box", "solver": "sph", "size": [POOL_SIDE, POOL_SIDE, p["water_depth"]]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": ball, "g": p["g"], "rtol": 0.05},
        {"check": "particles_kept", "object": water},
        {"check": "resting_height", "object": dict(ball), "z": p["resting"], "atol": p["resting_atol"], "tail": 0.3},
    ]


def _edits(p: Params) -> tuple[Edits, Edits]:
    mat, r, depth = p["material"], p["radius"], p["water_depth"]
    ratio = p["density_ratio"]
    dense = "half as dense as water" if ratio == 0.5 else f"{number(round(ratio, 2))} times as dense as water"
    share = "about half" if ratio == 0.5 else f"about {round(100 * ratio)} %"
    text = [
        ("A wooden ball dropped into a pool", f"{a_an(mat + ' ball')} dropped into a pool"),
        (
            "solid wooden ball (radius 6 cm, density 500 kg/m^3)",
            f"solid {mat} ball (radius {cm(r)} cm, density {number(p['density'])} kg/m^3)",
        ),
        ("centre 45 cm above", f"centre {cm(p['drop_height'])} cm above"),
        ("holding a 15 cm deep layer", f"holding a {cm(depth)} cm deep layer"),
        (
            "being half as dense as water it floats with about half its volume submerged, its centre near the water "
            "surface,",
            f"being {dense} it floats with {share} of its volume submerged,",
        ),
    ]
    oracle = [
        ("a wooden ball (rigid)", f"{a_an(mat + ' ball').lower()} (rigid)"),
        ("floats half submerged", "floats partly submerged"),
        ("Sphere(radius=0.06, pos=(0.0, 0.0, 0.45))", f"Sphere(radius={f(r)}, pos=(0.0, 0.0, {f(p['drop_height'])}))"),
        ("Rigid(rho=500.0)", f"Rigid(rho={f(p['density'])})"),
        (
            "Box(size=(0.4, 0.4, 0.15), pos=(0.0, 0.0, 0.075))",
            f"Box(size=(0.4, 0.4, {f(depth)}), pos=(0.0, 0.0, {f(round(depth / 2, 6))}))",
        ),
    ]
    return text, oracle


def _scene(p: Params) -> dict[str, Any]:
    return {
        "SPHOptions.particle_size": PARTICLE,
        "body1.size": [POOL_SIDE, POOL_SIDE, p["water_depth"]],
        "body1.pos": [0.0, 0.0, round(p["water_depth"] / 2, 6)],
        "body2.radius": p["radius"],
        "body2.pos": [0.0, 0.0, p["drop_height"]],
        "body2.material.rho": p["density"],
    }


def _problems(p: Params) -> list[str]:
    problems = []
    if layers(p["water_depth"]) != LAYERS:
        problems.append(f"water {p['water_depth']} m deep samples {layers(p['water_depth'])} layers, not {LAYERS}")
    if p["resting"] - p["resting_atol"] < p["radius"] + SUNK_CLEARANCE:
        problems.append("the resting check's lower bound does not clear a ball sunk to the floor")
    if p["drop_height"] - p["radius"] <= p["water_depth"] + 0.1:
        problems.append("the ball starts less than 10 cm above the water: no free fall to fit")
    return problems


FAMILIES: dict[str, Family] = {
    # the fall onto the water is over within 0.25 s; the bobbing is left to the tail the check averages (30 %)
    "ball_float": Family(
        params={
            "radius": Param(0.05, 0.07, 3),
            "water_depth": Param(0.15, 0.17, 3),
            "drop_height": Param(0.4, 0.5, 2),
        },
        materials={"material": ("pine", "oak")},
        edits=_edits,
        reference=_reference,
        checks=_checks,
        scene=_scene,
        settle_s=lambda p: fall_time(p["drop_height"] - p["radius"] - p["water_depth"]),
        problems=_problems,
    ),
}
