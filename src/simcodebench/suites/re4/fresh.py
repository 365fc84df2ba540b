"""Fresh variants of the Re^4 problems: viscous Burgers, the shock tube, Hilbert, and three 2-D problems.

- ``burgers``: a new viscosity ``nu = a / pi`` and final time; the Cole-Hopf reference is recomputed with its
  quadrature doubled and quadrupled, and the three must agree to :data:`REFERENCE_TOL`.
- ``sod``: new left and right states and final time (a Riemann problem with a shock, a contact and a
  rarefaction, no vacuum); the reference is the exact Riemann solution, whose waves must stay inside [0, 1] (the
  ends keep their initial states), as the published problem's do.
- ``hilbert``: five new sizes n in [4, 30] and a new exact solution x* (ones, alternating signs or i/n); the
  reference is x* itself.

- ``poisson_holes``, ``helmholtz_holes``, ``lid_driven``, ``unsteady_ns``: new disks, boundary values and source,
  Re and the lid's amplitude, or Re, final time, inlet and forcing amplitudes (:mod:`.fresh_plane`); the
  reference is the DOLFINx solve at its three levels, kept when the two finest agree within the family's stated
  tolerance.

The oracle then runs at its own resolution and must be within the family's tolerance of the reference; where
it has a resolution constant it runs again with it doubled and must come closer (two finer levels converging to
the reference; for the shock tube, not more than 25% farther: a shock's pointwise error stalls now and then).
The keyhole data set has no generator (:data:`NO_GENERATOR`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.fresh_edits import Edits, Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.core.fresh_runs import run_python
from simcodebench.core.io import read_yaml
from simcodebench.core.references import Reference
from simcodebench.suites.re4 import fresh_plane, metrics, scorer
from simcodebench.suites.re4.burgers import burgers_cole_hopf

REFERENCE_TOL = 1e-10
"""Relative L2 within which a reference and its finer quadratures must agree."""

WALL_SHARE = 0.5
"""The oracle's run (at its own resolution) must finish within this share of the case's wall limit."""


@dataclass(frozen=True)
class Family:
    """A published re4 case and how to draw a new instance of it.

    ``draw`` returns the drawn parameters (JSON-able) from the generator; ``edits`` the substitutions in the
    case's texts and in its oracle; ``update`` changes the case mapping in place (reference parameters, contract);
    ``resolution`` is the oracle's resolution constant doubled for the convergence check (None: exact arithmetic);
    ``oracle_tol`` the error the oracle must reach; the refined oracle's error must be below ``slack`` times the
    oracle's (above 1 where a shock's pointwise error depends on where it falls between two nodes, so that the
    error of a first-order-converging shock capture may stall over one doubling).
    """

    params: dict[str, Param]
    draw: Callable[[np.random.Generator], dict[str, Any]]
    edits: Callable[[dict[str, Any]], tuple[Edits, Edits]]
    update: Callable[[dict[str, Any], dict[str, Any]], None]
    resolution: str | None
    oracle_tol: float
    slack: float = 1.0


def _s(value: float) -> str:
    return number(value)


# --- viscous Burgers -----------------------------------------------------------------------------------------

BURGERS = {"nu_pi": Param(0.01, 0.05, 3), "t": Param(0.5, 1.0, 2)}


def _burgers_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    nu, t = _s(d["nu_pi"]), _s(d["t"])
    text = [
        (r"\nu = \frac{0.01}{\pi}", rf"\nu = \frac{{{nu}}}{{\pi}}"),
        ("nu = 0.01/pi", f"nu = {nu}/pi"),
        (r"\times [0, 1]$", rf"\times [0, {t}]$"),
        ("t = 1", f"t = {t}"),
    ]
    oracle = [
        ("NU = 0.01 / np.pi", f"NU = {nu} / np.pi"),
        ("nu = 0.01/pi", f"nu = {nu}/pi"),
        ("T_END = 1.0\n", f"T_END = {t}\n"),
        ("to t = 1 (oracle", f"to t = {t} (oracle"),
    ]
    return text, oracle


def _burgers_update(case: dict[str, Any], d: dict[str, Any]) -> None:
    case["hidden"]["reference"]["params"].update(nu_times_pi=d["nu_pi"], t=d["t"])


# --- shock tube ----------------------------------------------------------------------------------------------

SOD = {
    "rho_left": Param(0.8, 1.5, 2),
    "p_left": Param(0.8, 1.5, 2),
    "rho_right": Param(0.1, 0.3, 3),
    "p_right": Param(0.05, 0.2, 3),
    "t": Param(0.1, 0.2, 2),
}


def _sod_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    rl, pl, rr, pr, t = (_s(d[k]) for k in ("rho_left", "p_left", "rho_right", "p_right", "t"))
    text = [
        (r"(1.0, 0.0, 1.0), & 0 \leq x < 0.5", rf"({rl}, 0.0, {pl}), & 0 \leq x < 0.5"),
        ("(0.125, 0.0, 0.1), & 0.5", f"({rr}, 0.0, {pr}), & 0.5"),
        ("t = 0.2", f"t = {t}"),
        ("Sod shock tube", "Shock tube"),
    ]
    oracle = [
        ("np.where(left, 1.0, 0.125)", f"np.where(left, {rl}, {rr})"),
        ("np.where(left, 1.0, 0.1))", f"np.where(left, {pl}, {pr}))"),
        ("T_END = 0.2\n", f"T_END = {t}\n"),
        ("t = 0.2", f"t = {t}"),
        ("Sod shock tube", "Shock tube"),
    ]
    return text, oracle


def _sod_update(case: dict[str, Any], d: dict[str, Any]) -> None:
    left, right = [d["rho_left"], 0.0, d["p_left"]], [d["rho_right"], 0.0, d["p_right"]]
    case["hidden"]["reference"]["params"].update(t=d["t"], left=left, right=right)


# --- Hilbert systems -----------------------------------------------------------------------------------------

HILBERT = {"sizes": Param(4, 30, 0)}
SOLUTIONS = {  # x*: its formula in the problem text and in the oracle's exact arithmetic (1-based i)
    "ones": ("(1)", "Fraction(1)"),
    "alternating": ("((-1)^{i+1})", "Fraction((-1) ** (i + 1))"),
    "ramp": ("(i/n)", "Fraction(i, n)"),
}


def _hilbert_draw(rng: np.random.Generator) -> dict[str, Any]:
    sizes = sorted(int(n) for n in rng.choice(np.arange(4, 31), size=5, replace=False))
    return {"sizes": sizes, "solution": str(rng.choice(sorted(SOLUTIONS)))}


def _hilbert_edits(d: dict[str, Any]) -> tuple[Edits, Edits]:
    sizes, (tex, code) = d["sizes"], SOLUTIONS[d["solution"]]
    text = [
        (r"(1)_{n \times 1}$", rf"{tex}_{{n \times 1}}$"),
        ("n = 5, 10, 15, 20, 25$", f"n = {', '.join(map(str, sizes))}$"),
        ("n = 5 ... 25", f"n = {sizes[0]} ... {sizes[-1]}"),
    ]
    exact = '\n\n\ndef exact(n):\n    """The exact solution x* (1-based i)."""\n'
    exact += f"    return [{code} for i in range(1, n + 1)]\n"
    oracle = [
        ("SIZES = [5, 10, 15, 20, 25]\n", f"SIZES = {sizes}{exact}"),
        ("H_n x = H_n 1", "H_n x = H_n x*"),
        ("b = H 1", "b = H x*"),
        ("[sum(row) for row in h]", "[sum(hij * xj for hij, xj in zip(row, exact(n))) for row in h]"),
        ("np.max(np.abs(x - 1.0))", "np.max(np.abs(x - np.array([float(v) for v in exact(n)])))"),
        ("vs x* = 1", "vs x*"),
    ]
    return text, oracle


def _hilbert_update(case: dict[str, Any], d: dict[str, Any]) -> None:
    sizes = d["sizes"]
    case["hidden"]["reference"]["params"] = {"sizes": sizes, "solution": d["solution"]}
    case["hidden"]["scoring"]["sizes"] = sizes
    case["visible"]["contract"]["files"][0]["fields"] = {f"x_{n}": {"shape": [n]} for n in sizes}


_PLANE = fresh_plane.PLANE
FAMILIES: dict[str, Family] = {
    "burgers": Family(BURGERS, lambda rng: draw(rng, BURGERS), _burgers_edits, _burgers_update, "NODES", 0.02),
    "sod": Family(SOD, lambda rng: draw(rng, SOD), _sod_edits, _sod_update, "CELLS", 0.05, slack=1.25),
    "hilbert": Family(HILBERT, _hilbert_draw, _hilbert_edits, _hilbert_update, None, 1e-10),
    "poisson_holes": Family(
        fresh_plane.POISSON,
        fresh_plane.poisson_draw,
        fresh_plane.poisson_edits,
        fresh_plane.update_disks,
        None,
        _PLANE["poisson_holes"].oracle_tol,
    ),
    "helmholtz_holes": Family(
        fresh_plane.HELMHOLTZ,
        fresh_plane.helmholtz_draw,
        fresh_plane.helmholtz_edits,
        fresh_plane.helmholtz_update,
        None,
        _PLANE["helmholtz_holes"].oracle_tol,
    ),
    "lid_driven": Family(
        fresh_plane.LID,
        fresh_plane.lid_draw,
        fresh_plane.lid_edits,
        fresh_plane.lid_update,
        None,
        _PLANE["lid_driven"].oracle_tol,
    ),
    "unsteady_ns": Family(
        fresh_plane.CHANNEL,
        fresh_plane.channel_draw,
        fresh_plane.channel_edits,
        fresh_plane.channel_update,
        None,
        _PLANE["unsteady_ns"].oracle_tol,
    ),
}

NO_GENERATOR = {
    "keyhole": (
        "the answer is Ke, a group fixed by the physics of the keyhole: a new synthetic data set drawn from the "
        "same law keeps the answer a model may recall, a data set drawn from another law would contradict the "
        "physics the problem describes, and the real data are measurements that cannot be drawn again"
    ),
}
"""The re4 cases without a generator, and why."""


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of the published case ``family``; None where the family has no generator."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    drawn = spec.draw(rng)
    edits, oracle_edits = spec.edits(drawn)
    raw = read_yaml(family.folder / "case.yaml")
    raw["visible"].pop("released_problem", None)  # the released text keeps the published numbers
    raw["hidden"].pop("alternative", None)  # so does the second solution
    case = substitute_strings(raw, edits, str(family.folder / "case.yaml"))
    spec.update(case, drawn)
    oracle_path = family.folder / raw["hidden"]["oracle"]
    oracle = substitute(oracle_path.read_text(encoding="utf-8"), oracle_edits, str(oracle_path))
    return FreshDraw(case=case, files={raw["hidden"]["oracle"]: oracle}, params=drawn, ranges=ranges(spec.params))


def _family_of(case: Case) -> tuple[str, Family]:
    by_generator = {"burgers_cole_hopf": "burgers", "sod_exact": "sod", "hilbert": "hilbert"}
    reference = case.hidden.reference
    name = by_generator.get(reference["generator"])
    if reference["generator"] == "dolfinx_plane" and reference["params"].get("problem") in _PLANE:
        name = reference["params"]["problem"]
    if name is None:
        raise KeyError(f"{case.key}: no re4 fresh family makes references with '{case.hidden.reference['generator']}'")
    return name, FAMILIES[name]


def _reference_check(name: str, case: Case, detail: dict[str, Any]) -> str | None:
    """The family's own check of its reference: None when it holds, else why not."""
    params = case.hidden.reference["params"]
    if name == "burgers":
        lo, hi = case.hidden.scoring["domain"]
        x = np.linspace(float(lo), float(hi), int(params["points"]))
        nu, t = float(params["nu_times_pi"]) / np.pi, float(params["t"])
        levels = [burgers_cole_hopf(x, t, nu, nodes) for nodes in (300, 600, 1200)]
        detail["rel_l2_level0_vs_level2"] = metrics.relative_l2(levels[0], levels[2])
        detail["rel_l2_level1_vs_level2"] = metrics.relative_l2(levels[1], levels[2])
        detail["reference_tol"] = REFERENCE_TOL
        if max(detail["rel_l2_level0_vs_level2"], detail["rel_l2_level1_vs_level2"]) > REFERENCE_TOL:
            return "the reference's quadrature levels disagree"
    if name == "sod":
        reference = scorer.generate_reference(case)
        ends = [(np.array(params["left"]), 0), (np.array(params["right"]), -1)]
        moved = max(
            float(np.max(np.abs(np.array([reference.fields[k][i] for k in ("rho", "u", "p")]) - state)))
            for state, i in ends
        )
        detail["end_state_change"] = moved
        if moved > 1e-12:
            return "a wave leaves the tube before the final time"
    return None


def _oracle_error(
    case: Case, source: str, folder: Path, wall: float, reference: Reference | None = None
) -> tuple[float | None, float, str]:
    run = run_python(source, folder, wall)
    if not run.ok:
        return None, run.seconds, f"the oracle failed: {run.reason}"
    measurement = scorer.measure(case, folder, reference or scorer.generate_reference(case))
    if measurement.outcome != "ok" or measurement.error is None:
        return None, run.seconds, f"the oracle's output is {measurement.outcome}: {measurement.message}"
    return float(measurement.error), run.seconds, ""


def _verify_plane(name: str, case: Case, workdir: Path) -> FreshCheck:
    """A 2-D draw: the DOLFINx reference's two finest levels agree within the family's tolerance, and the oracle
    is within its tolerance of the reference, in under :data:`WALL_SHARE` of the wall limit."""
    plane = _PLANE[name]
    try:
        reference = scorer.generate_reference(case)
    except InfrastructureError as error:
        if "does not converge" not in str(error):
            raise
        return FreshCheck(ok=False, detail={"reason": f"the reference does not converge: {error}"})
    gaps = reference.scalars["refinement"][case.hidden.scoring["primary"]]
    detail: dict[str, Any] = {**gaps, "reference_gap_tol": plane.reference_gap}
    if gaps["g12"] > plane.reference_gap:
        return FreshCheck(ok=False, detail={**detail, "reason": "the reference's two finest levels disagree"})
    wall = float(case.resources["wall_s"])
    source = (case.folder / case.hidden.oracle).read_text(encoding="utf-8")
    error, seconds, reason = _oracle_error(case, source, workdir / "oracle", wall, reference)
    detail.update(oracle_error=error, oracle_tol=plane.oracle_tol)
    if error is None or error > plane.oracle_tol or seconds > WALL_SHARE * wall:
        return FreshCheck(ok=False, detail={**detail, "reason": reason or "the oracle misses the reference or is slow"})
    return FreshCheck(ok=True, detail=detail)


def verify(case: Case, workdir: Path) -> FreshCheck:
    """The family's reference check, then the oracle (and the oracle refined) against it (module docstring)."""
    name, family = _family_of(case)
    if name in _PLANE:
        return _verify_plane(name, case, workdir)
    detail: dict[str, Any] = {}
    reason = _reference_check(name, case, detail)
    if reason:
        return FreshCheck(ok=False, detail={**detail, "reason": reason})
    wall = float(case.resources["wall_s"])
    source = (case.folder / case.hidden.oracle).read_text(encoding="utf-8")
    error, seconds, reason = _oracle_error(case, source, workdir / "oracle", wall)
    detail.update(oracle_error=error, oracle_tol=family.oracle_tol)
    if error is None or error > family.oracle_tol or seconds > WALL_SHARE * wall:
        return FreshCheck(ok=False, detail={**detail, "reason": reason or "the oracle misses the reference or is slow"})
    if family.resolution:
        constant = next(
            line for line in source.splitlines() if line.startswith(f"{family.resolution} = ")
        )  # NODES = 2001
        doubled = f"{family.resolution} = {2 * int(constant.split('=')[1]) - (1 if name == 'burgers' else 0)}"
        refined, _, reason = _oracle_error(case, source.replace(constant, doubled), workdir / "refined", 8 * wall)
        detail["refined_oracle_error"] = refined
        if refined is None or refined >= family.slack * error:
            return FreshCheck(ok=False, detail={**detail, "reason": reason or "the refined oracle is not closer"})
    return FreshCheck(ok=True, detail=detail)
