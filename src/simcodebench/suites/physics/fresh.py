"""Fresh variants of the cheapest physics scenes: a dropped ball, a sliding block, a dropped cube.

Each family draws new sizes, heights, speeds, friction and a material (its density), writes them into the
published case's text and oracle, and computes the physics checks from them with the same closed forms as the
published case (resting height = radius or half the side, sliding distance v0^2 / (2 mu g)). The other scenes
(fluids, soft bodies, collisions, inclines, chains) have no generator.

Verification is at the level of the parameters (:mod:`.fresh_verify`); the acceptance run
(benchmarks/fresh_variants_cfd_re4_physics.py) runs each case's oracle in Genesis.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Edits, Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.core.io import read_yaml

G = 9.81

MATERIALS = {  # name in the text: density (kg/m^3)
    "steel": 7850.0,
    "aluminium": 2700.0,
    "granite": 2650.0,
    "oak": 700.0,
    "pine": 500.0,
    "polyethylene": 950.0,
}


@dataclass(frozen=True)
class Family:
    """A published scene and how to draw a new one: numeric ``params``, the ``materials`` to pick from,
    the edits of the text and oracle, the case's new reference parameters and checks, and the time the motion
    takes (``settle_s``), all from the draw."""

    params: dict[str, Param]
    materials: tuple[str, ...]
    edits: Callable[[dict[str, Any]], tuple[Edits, Edits]]
    reference: Callable[[dict[str, Any]], dict[str, float]]
    checks: Callable[[dict[str, Any]], list[dict[str, Any]]]
    settle_s: Callable[[dict[str, float]], float]
    oracle_scene: Callable[[dict[str, Any]], dict[str, Any]]


def _cm(metres: float) -> str:
    return number(round(100.0 * metres, 6))


def _f(value: float) -> str:
    """A float as the oracles write them (one decimal at least: 0.3, 1.0, 7850.0)."""
    return repr(float(value))


# --- a ball dropped on rigid ground --------------------------------------------------------------------------


def _ball_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    r, h, mat, rho = d["radius"], d["drop_height"], d["material"], d["density"]
    text = [
        (
            "steel ball (radius 10 cm, density 7850 kg/m^3)",
            f"{mat} ball (radius {_cm(r)} cm, density {number(rho)} kg/m^3)",
        ),
        ("centre 1 m above", f"centre {number(h)} m above"),
        ("A steel ball", f"A {mat} ball" if mat[0] not in "aeiou" else f"An {mat} ball"),
    ]
    oracle = [
        ("a 10 cm steel ball dropped from 1 m", f"a {_cm(r)} cm {mat} ball dropped from {number(h)} m"),
        ("Sphere(radius=0.1, pos=(0.0, 0.0, 1.0))", f"Sphere(radius={_f(r)}, pos=(0.0, 0.0, {_f(h)}))"),
        ("Rigid(rho=7850.0, friction=0.5)", f"Rigid(rho={_f(rho)}, friction=0.5)"),
    ]
    return text, oracle


def _ball_checks(d: dict[str, Any]) -> list[dict[str, Any]]:
    body = {"kind": "sphere", "radius": d["radius"]}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": body, "g": G, "rtol": 0.05},
        {"check": "no_penetration", "object": body, "atol": 0.02},
        {"check": "resting_height", "object": body, "z": d["radius"], "atol": 0.02},
        {"check": "energy_not_growing", "object": body},
    ]


# --- a block sliding to a stop -------------------------------------------------------------------------------


def _block_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    s, v0, mu, mat, rho = d["side"], d["v0"], d["mu"], d["material"], d["density"]
    text = [
        (
            "wooden block (a 20 cm cube, density 500 kg/m^3)",
            f"{mat} block (a {_cm(s)} cm cube, density {number(rho)} kg/m^3)",
        ),
        ("velocity of 2 m/s", f"velocity of {number(v0)} m/s"),
        ("floor is 0.3 and", f"floor is {number(mu)} and"),
        ("A wooden block", f"A {mat} block" if mat[0] not in "aeiou" else f"An {mat} block"),
    ]
    oracle = [
        ("a 20 cm wooden block pushed at 2 m/s", f"a {_cm(s)} cm {mat} block pushed at {number(v0)} m/s"),
        ("friction coefficient 0.3", f"friction coefficient {number(mu)}"),
        ("Rigid(friction=0.3)", f"Rigid(friction={_f(mu)})"),
        (
            "Box(size=(0.2, 0.2, 0.2), pos=(-0.5, 0.0, 0.1))",
            f"Box(size=({_f(s)}, {_f(s)}, {_f(s)}), pos=(-0.5, 0.0, {_f(s / 2)}))",
        ),
        ("Rigid(rho=500.0, friction=0.3)", f"Rigid(rho={_f(rho)}, friction={_f(mu)})"),
        ("set_dofs_velocity([2.0, 0.0,", f"set_dofs_velocity([{_f(v0)}, 0.0,"),
    ]
    return text, oracle


def sliding_distance(v0: float, mu: float, g: float = G) -> float:
    """Distance a body launched at ``v0`` slides against Coulomb friction ``mu`` before it stops."""
    return v0**2 / (2.0 * mu * g)


def _block_checks(d: dict[str, Any]) -> list[dict[str, Any]]:
    body = {"kind": "box", "size": [d["side"]] * 3}
    return [
        {"check": "no_nan"},
        {
            "check": "sliding_distance",
            "object": body,
            "distance": round(sliding_distance(d["v0"], d["mu"]), 4),
            "rtol": 0.15,
        },
        {"check": "no_penetration", "object": body, "atol": 0.02},
        {"check": "resting_height", "object": body, "z": d["side"] / 2, "atol": 0.02},
        {"check": "energy_not_growing", "object": body},
    ]


# --- a cube dropped flat -------------------------------------------------------------------------------------


def _cube_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    s, h, mat, rho = d["side"], d["drop_height"], d["material"], d["density"]
    text = [
        ("oak cube (30 cm side, density 700 kg/m^3)", f"{mat} cube ({_cm(s)} cm side, density {number(rho)} kg/m^3)"),
        ("centre 1.2 m above", f"centre {number(h)} m above"),
        ("An oak cube", f"A {mat} cube" if mat[0] not in "aeiou" else f"An {mat} cube"),
    ]
    oracle = [
        ("a 30 cm oak cube dropped flat from 1.2 m", f"a {_cm(s)} cm {mat} cube dropped flat from {number(h)} m"),
        (
            "Box(size=(0.3, 0.3, 0.3), pos=(0.0, 0.0, 1.2))",
            f"Box(size=({_f(s)}, {_f(s)}, {_f(s)}), pos=(0.0, 0.0, {_f(h)}))",
        ),
        ("Rigid(rho=700.0, friction=0.6)", f"Rigid(rho={_f(rho)}, friction=0.6)"),
    ]
    return text, oracle


def _cube_checks(d: dict[str, Any]) -> list[dict[str, Any]]:
    body = {"kind": "box", "size": [d["side"]] * 3}
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": body, "g": G, "rtol": 0.05},
        {"check": "no_penetration", "object": body, "atol": 0.02},
        {"check": "resting_height", "object": body, "z": d["side"] / 2, "atol": 0.02},
        {"check": "tilt_angle", "object": body, "max_deg": 3.0},
        {"check": "energy_not_growing", "object": body},
    ]


def fall_time(height: float, g: float = G) -> float:
    """Seconds to fall ``height`` from rest."""
    return math.sqrt(2.0 * height / g)


FAMILIES: dict[str, Family] = {
    "ball_drop": Family(
        params={"radius": Param(0.05, 0.15, 2), "drop_height": Param(0.6, 1.3, 2)},
        materials=("steel", "aluminium", "granite", "oak"),
        edits=_ball_edits,
        reference=lambda d: {"g": G, "radius": d["radius"], "drop_height": d["drop_height"]},
        checks=_ball_checks,
        settle_s=lambda p: fall_time(p["drop_height"] - p["radius"]),
        oracle_scene=lambda d: {
            "Sphere": {"radius": d["radius"], "pos": (0.0, 0.0, d["drop_height"])},
            "rho": d["density"],
        },
    ),
    # The block stops after v0 / (mu g) <= 2.2 / (0.3 g) = 0.75 s; a cube with mu < 1 slides without tipping.
    "block_slide": Family(
        params={"side": Param(0.1, 0.3, 2), "v0": Param(1.0, 2.2, 1), "mu": Param(0.3, 0.6, 2)},
        materials=("pine", "oak", "polyethylene", "aluminium"),
        edits=_block_edits,
        reference=lambda d: {"v0": d["v0"], "mu": d["mu"], "g": G, "side": d["side"]},
        checks=_block_checks,
        settle_s=lambda p: p["v0"] / (p["mu"] * p["g"]),
        oracle_scene=lambda d: {
            "Box": {"size": (d["side"],) * 3, "pos": (-0.5, 0.0, d["side"] / 2)},
            "rho": d["density"],
            "friction": d["mu"],
            "velocity": [d["v0"], 0.0, 0.0, 0.0, 0.0, 0.0],
        },
    ),
    "box_drop": Family(
        params={"side": Param(0.15, 0.4, 2), "drop_height": Param(0.8, 1.3, 2)},
        materials=("oak", "pine", "granite", "polyethylene"),
        edits=_cube_edits,
        reference=lambda d: {"g": G, "side": d["side"], "drop_height": d["drop_height"]},
        checks=_cube_checks,
        settle_s=lambda p: fall_time(p["drop_height"] - p["side"] / 2),
        oracle_scene=lambda d: {
            "Box": {"size": (d["side"],) * 3, "pos": (0.0, 0.0, d["drop_height"])},
            "rho": d["density"],
        },
    ),
}


def _follow(args: dict[str, Any], edits: Edits, oracle: str, name: str) -> dict[str, Any]:
    """A mutant's ``replace_source`` arguments with the oracle's edits applied to the text it replaces."""
    if "old" not in args:
        return args
    old = substitute(args["old"], edits, f"hidden.mutants.{name}", require=False)
    if old not in oracle:
        raise ValueError(f"hidden.mutants.{name}: '{old}' is not in the fresh oracle; update the family's edits")
    return {**args, "old": old}


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of the published scene ``family``; None where the scene has no generator."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    drawn: dict[str, Any] = draw(rng, spec.params)
    material = str(rng.choice(spec.materials))
    drawn.update(material=material, density=MATERIALS[material])
    edits, oracle_edits = spec.edits(drawn)
    raw = read_yaml(family.folder / "case.yaml")
    mutants = raw["hidden"].pop("mutants", None)
    raw["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    case = substitute_strings(raw, edits, str(family.folder / "case.yaml"))
    case["hidden"]["reference"]["params"] = {**spec.reference(drawn), "density": drawn["density"]}
    # each check its own mapping (a shared one would be written as a YAML anchor and alias)
    case["hidden"]["scoring"]["checks"] = [copy.deepcopy(check) for check in spec.checks(drawn)]
    oracle_path = family.folder / raw["hidden"]["oracle"]
    oracle = substitute(oracle_path.read_text(encoding="utf-8"), oracle_edits, str(oracle_path))
    if mutants:  # a case's own mutant edits quote its oracle: their old text follows the oracle's edits
        case["hidden"]["mutants"] = {name: _follow(args, oracle_edits, oracle, name) for name, args in mutants.items()}
    scoring_ranges = ranges(spec.params) | {"density": (min(MATERIALS.values()), max(MATERIALS.values()))}
    return FreshDraw(case=case, files={raw["hidden"]["oracle"]: oracle}, params=drawn, ranges=scoring_ranges)
