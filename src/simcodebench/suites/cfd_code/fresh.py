"""Fresh variants of the cfd-code problems: new coefficients, final times and boundary data of cheap families.

Each family edits its published case: the numbers in the problem text, title and output contract, the
reference parameters and the oracle's constants. A draw stays in the family's regime: its ranges keep the
oracle's explicit schemes stable, also at the doubled resolution of the convergence gate, and its features
resolved on the oracle's grid. Families not listed here (the Navier-Stokes, Euler, KdV, Lane-Emden, Poisson and
mixed Laplace problems, the 2-D convection boxes, the chaotic convection) have no generator: their regime is
narrow or their oracle's resolution is tied to the published numbers.

Verification (:func:`verify`): the reference is a truncated series or a sum of periodic images; it is recomputed
with its truncation doubled and quadrupled, and the two finer levels must agree with each other and with the
reference to :data:`REFERENCE_TOL` (NMSE). Then the oracle runs once at its own resolution and must score within
:data:`ORACLE_TOL`, well inside its wall limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.fresh_edits import Edits, Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.core.fresh_runs import run_python
from simcodebench.core.io import read_yaml
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code import scorer
from simcodebench.suites.cfd_code.references import generate

REFERENCE_TOL = 1e-8
"""NMSE within which the reference and its two finer truncations must agree."""

ORACLE_TOL = 1e-4
"""The oracle's NMSE must be at most this (a thousandth of the 10% pass mark: with a field offset, as 1 + a box,
a 10% NMSE can hide the published problem's answer to a fresh one; the published oracles reach 1e-7)."""

WALL_SHARE = 0.5
"""The oracle's run must finish within this share of the case's wall limit."""


@dataclass(frozen=True)
class Family:
    """A published case and how to draw a new instance of it.

    ``edits`` maps a draw to the substitutions in the case's texts and in its oracle; ``reference`` to the new
    ``hidden.reference.params`` entries; ``generator`` names the reference generator (how a fresh case finds its
    family again); ``knob`` is the reference's truncation parameter (terms of a series, periodic images) and
    ``knob_base`` its value in the published case.
    """

    generator: str
    params: dict[str, Param]
    edits: Callable[[dict[str, str]], tuple[Edits, Edits]]
    reference: Callable[[dict[str, float]], dict[str, float]]
    knob: str
    knob_base: int
    drop_keys: tuple[str, ...] = ()


def _diffusion_1d(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [(r"\nu = 0.3 \)", rf"\nu = {v['nu']} \)"), ("0.0333", v["t_end"])]
    oracle = [("NU = 0.3\n", f"NU = {v['nu']}\n"), ("0.0333", v["t_end"])]
    return text, oracle


def _diffusion_2d(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [(r"\nu = 0.05 \)", rf"\nu = {v['nu']} \)"), ("0.3777", v["t_end"])]
    oracle = [("NU = 0.05\n", f"NU = {v['nu']}\n"), ("0.3777", v["t_end"])]
    return text, oracle


def _burgers_1d(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"\nu = 0.07 \)", rf"\nu = {v['nu']} \)"),
        (r"0.14\pi", rf"{v['t_pi']}\pi"),
        ("0.14 pi", f"{v['t_pi']} pi"),
    ]
    oracle = [
        ("NU = 0.07\n", f"NU = {v['nu']}\n"),
        ("0.14 * np.pi", f"{v['t_pi']} * np.pi"),
        ("0.14 pi", f"{v['t_pi']} pi"),
    ]
    return text, oracle


def _linear_convection_1d(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"c = 1 \)", rf"c = {v['c']} \)"),
        ("5e-4 for damped", f"{v['eps']} for damped"),
        ("[0, 10]", f"[0, {v['t_end']}]"),
        ("t = 10", f"t = {v['t_end']}"),
    ]
    oracle = [
        ("C = 1.0\n", f"C = {v['c']}\n"),
        ("EPS = 5e-4\n", f"EPS = {v['eps']}\n"),
        ("eps = 5e-4", f"eps = {v['eps']}"),
        ("u_t + u_x", f"u_t + {v['c']} u_x"),
        ("T_END = 10.0\n", f"T_END = {v['t_end']}\n"),
        ("to t = 10", f"to t = {v['t_end']}"),
    ]
    return text, oracle


def _unsteady_heat(v: dict[str, str]) -> tuple[Edits, Edits]:
    text = [
        (r"\alpha = 1 \)", rf"\alpha = {v['alpha']} \)"),
        ("Q_0 = 200°C/s", f"Q_0 = {v['q0']}°C/s"),
        (r"200 \cdot", rf"{v['q0']} \cdot"),
        (r"\sigma = 0.1 \)", rf"\sigma = {v['sigma']} \)"),
        ("0.1^2", f"{v['sigma']}^2"),
        ("[0, 3]", f"[0, {v['t_end']}]"),
        ("t = 3", f"t = {v['t_end']}"),
    ]
    oracle = [
        ("The problem does not state alpha; alpha = 1 (the upstream setup). ", ""),
        ("ALPHA = 1.0\n", f"ALPHA = {v['alpha']}\n"),
        ("Q0 = 200.0\n", f"Q0 = {v['q0']}\n"),
        ("SIGMA = 0.1\n", f"SIGMA = {v['sigma']}\n"),
        ("T_END = 3.0\n", f"T_END = {v['t_end']}\n"),
        ("t = 3 (oracle", f"t = {v['t_end']} (oracle"),
    ]
    return text, oracle


def _steady_heat(v: dict[str, str]) -> tuple[Edits, Edits]:
    sides = {"x = 0": v["left"], "x = 5": v["right"], "y = 4": v["top"], "y = 0": v["bottom"]}
    published = {"x = 0": "10", "x = 5": "40", "y = 4": "0", "y = 0": "20"}
    text = [
        (rf"at {s}): \( T = {published[s]}^\circ C", rf"at {s}): \( T = {value}^\circ C") for s, value in sides.items()
    ]
    values = ", ".join(f"{float(v[k])!r}" for k in ("bottom", "top", "left", "right"))
    oracle = [
        ("T = 10, 40, 0, 20 on the left", f"T = {v['left']}, {v['right']}, {v['top']}, {v['bottom']} on the left"),
        ("= 20.0, 0.0, 10.0, 40.0\n", f"= {values}\n"),
    ]
    return text, oracle


FAMILIES: dict[str, Family] = {
    # FTCS at nu dt / dx^2 <= 0.125 (0.25 refined): stable for any draw.
    "1D_Diffusion": Family(
        generator="diffusion_1d",
        params={"nu": Param(0.1, 0.5, 2), "t_end": Param(0.02, 0.05, 3)},
        edits=_diffusion_1d,
        reference=lambda d: {"nu": d["nu"], "t_end": d["t_end"]},
        knob="modes",
        knob_base=4000,
    ),
    # FTCS: nu t_end <= 0.024 keeps nu dt (1/dx^2 + 1/dy^2) <= 0.31 at the doubled resolution.
    "2D_Diffusion": Family(
        generator="diffusion_2d",
        params={"nu": Param(0.02, 0.08, 3), "t_end": Param(0.15, 0.3, 3)},
        edits=_diffusion_2d,
        reference=lambda d: {"nu": d["nu"], "t_end": d["t_end"]},
        knob="modes",
        knob_base=4000,
    ),
    # The front's width ~ nu: nu >= 0.05 stays resolved by the oracle's 400 nodes; t_end = t_pi * pi.
    "1D_Burgers_Equation": Family(
        generator="burgers_1d",
        params={"nu": Param(0.05, 0.15, 3), "t_pi": Param(0.08, 0.2, 2)},
        edits=_burgers_1d,
        reference=lambda d: {"nu": d["nu"], "t_end": d["t_pi"] * np.pi},
        knob="images",
        knob_base=3,
    ),
    "1D_Linear_Convection": Family(
        generator="linear_convection_1d",
        params={"c": Param(0.5, 1.5, 2), "eps": Param(1e-4, 1e-3, 4), "t_end": Param(4.0, 12.0, 1)},
        edits=_linear_convection_1d,
        reference=lambda d: dict(d),
        knob="images",
        knob_base=4,
    ),
    # Backward Euler: stable for any step; sigma >= 0.08 keeps the source 3 grid spacings wide.
    "2D_Unsteady_Heat_Equation": Family(
        generator="unsteady_heat",
        params={
            "alpha": Param(0.5, 2.0, 2),
            "q0": Param(100.0, 300.0, 0),
            "sigma": Param(0.08, 0.2, 2),
            "t_end": Param(0.5, 3.0, 1),
        },
        edits=_unsteady_heat,
        reference=lambda d: dict(d),
        knob="modes",
        knob_base=200,
        drop_keys=("released_problem",),
    ),
    # A direct solve: any boundary temperatures; the series converges at every interior node.
    "2D_Steady_Heat_Equation": Family(
        generator="steady_heat_plate",
        params={side: Param(0.0, 100.0, 0) for side in ("left", "right", "top", "bottom")},
        edits=_steady_heat,
        reference=lambda d: dict(d),
        knob="modes",
        knob_base=8001,
    ),
}


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of the published case ``family``; None where the family has no generator."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    drawn = draw(rng, spec.params)
    edits, oracle_edits = spec.edits({name: number(value) for name, value in drawn.items()})
    raw = read_yaml(family.folder / "case.yaml")
    for key in spec.drop_keys:
        raw["visible"].pop(key, None)
    raw["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    case = substitute_strings(raw, edits, f"{family.folder / 'case.yaml'}")
    case["hidden"]["reference"]["params"].update(spec.reference(drawn))
    oracle_name = raw["hidden"]["oracle"]
    oracle_path = family.folder / oracle_name
    oracle = substitute(oracle_path.read_text(encoding="utf-8"), oracle_edits, str(oracle_path))
    return FreshDraw(case=case, files={oracle_name: oracle}, params=drawn, ranges=ranges(spec.params))


def _family(case: Case) -> Family:
    generator = case.hidden.reference["generator"]
    for family in FAMILIES.values():
        if family.generator == generator:
            return family
    raise KeyError(f"{case.key}: no cfd-code fresh family makes references with '{generator}'")


def reference_levels(case: Case, family: Family) -> dict[str, float]:
    """The worst NMSE, over the fields, of the reference and its once-refined truncation against the twice
    refined one."""
    spec = case.hidden.reference
    params = dict(spec.get("params", {}))
    base = params.get(family.knob, family.knob_base)
    levels = [generate(spec["generator"], {**params, family.knob: base * 2**k}) for k in range(3)]
    finest = levels[2].fields

    def worst(level: dict[str, np.ndarray]) -> float:
        return max(metric.nmse(finest[name], level[name]) for name in finest)

    return {"nmse_level0_vs_level2": worst(levels[0].fields), "nmse_level1_vs_level2": worst(levels[1].fields)}


def verify(case: Case, workdir: Path) -> FreshCheck:
    """Check a fresh case's reference under refinement and its oracle (module docstring)."""
    family = _family(case)
    detail: dict[str, Any] = reference_levels(case, family)
    detail["reference_tol"] = REFERENCE_TOL
    if max(detail["nmse_level0_vs_level2"], detail["nmse_level1_vs_level2"]) > REFERENCE_TOL:
        detail["reason"] = "the reference's refinement levels disagree"
        return FreshCheck(ok=False, detail=detail)
    reference = scorer.generate_reference(case)
    run_dir = workdir / "oracle"
    wall = float(case.resources["wall_s"])
    run = run_python(scorer.oracle_source(case), run_dir, wall)  # its seconds stay out of the (seeded) report
    if not run.ok:
        detail["reason"] = f"the oracle failed: {run.reason}"
        return FreshCheck(ok=False, detail=detail)
    measurement = scorer.measure(case, run_dir, reference)
    detail.update(oracle_nmse=measurement.error, oracle_limit=ORACLE_TOL, oracle_outcome=measurement.outcome)
    if measurement.outcome != "ok" or measurement.error is None or measurement.error > ORACLE_TOL:
        detail["reason"] = "the oracle misses the reference"
        return FreshCheck(ok=False, detail=detail)
    if run.seconds > WALL_SHARE * wall:
        detail["reason"] = "the oracle is too slow for the wall limit"
        return FreshCheck(ok=False, detail=detail)
    return FreshCheck(ok=True, detail=detail)
