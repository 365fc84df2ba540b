"""Fresh instances of the fem (and fem-dealii) manufactured cases (docs/fresh-variants.md); the refined cases
have their own generator (:mod:`.fresh_refined`).

A draw keeps the published case's family, domain type, boundary layout, evaluation grid and oracle settings and
replaces its numbers and shapes:

- a new manufactured solution from a small grammar of smooth functions: a sum of two products of one factor per
  coordinate, each ``sin(a pi s)``, ``cos(a pi s)``, ``exp(c s)`` or ``s^k``, with drawn frequencies ``a``,
  rates ``c``, powers ``k`` and amplitudes (every product holds a transcendental factor, so no element
  reproduces the solution exactly); Stokes and Navier-Stokes velocities are the curl of a drawn stream function
  (divergence free), their pressure one drawn product;
- in a transient case, the first product times a polynomial in t that the oracle's time steps integrate
  exactly, whatever the nonlinear term (:data:`TRANSIENT`): ``1 + a t`` for heat (as before) and under backward
  Euler, ``1 + a t + b t^2`` for Burgers, the wave equation, transient reaction- and convection-diffusion. So
  the time step adds no error and the verification's spatial rate is not blurred (the agent still has to choose
  a time scheme and step; a first-order one errs on the quadratic);
- new coefficients within the family's ranges (conductivity, wavenumber, diffusivity and velocity,
  reaction strength, Lamé data, viscosity, Burgers' viscosity, the wave speed);
- where the domain has free dimensions, new ones (:data:`DOMAIN_RANGES`: a circle's radius, a hole's centre and
  radius, an annulus's radii, a sector's angle, a star's radii and points, a T-junction's stem and bar).

The forcing, the boundary data (Dirichlet, and the Neumann flux ``kappa du/dn`` on a Neumann side of the
bounding box, :func:`.manufactured.neumann_flux`) and the initial state follow from the solution by sympy
(:func:`.manufactured.derive`), as for the published cases. The verification runs the oracle at three
refinements (the calibration's mesh and two coarser: resolution halved or mesh size doubled at each step; two for
the compiled deal.II oracle) and keeps the draw when the observed rate of the grid error against the exact
solution between the two finest levels lies within :data:`RATE_TOLERANCE` of ``degree + 1`` (the L2 order of the
oracle's elements), and the finest error (the oracle's ``e_base``) lies below the suite's ``e_base_limit``. The
rate is taken over the grid points every level covers (a coarse mesh of a curved boundary leaves out a few,
:data:`COARSE_MISSING`).
"""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.io import read_yaml
from simcodebench.suites.fem import grid, manufactured

LEVELS = 3
"""Oracle runs per verification: the calibration's discretisation and two coarser ones."""
COMPILED_LEVELS = 2
"""The same for a compiled oracle (deal.II), which is built anew for each level (its settings are compiled in,
about a minute each): the calibration's discretisation and one coarser, the rate measured between them."""
RATE_TOLERANCE = 0.5
"""How far the observed rate may fall below ``degree + 1`` (it may exceed it by up to 2: superconvergent grid
points)."""
COARSE_MISSING = 0.05
"""The share of the scored points a coarser level's field may leave out (NaN): a coarse mesh's polygon cuts off
the points next to a curved boundary that the calibration mesh covers. The errors of all levels are taken over
the points every level covers; the calibration level must cover them all."""
AMPLITUDE = (0.5, 2.0)
FREQUENCY = (1, 3)
EXP_RATE = (0.5, 1.5)
TIME_RATE = (0.5, 2.0)

COEFFICIENT_RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "poisson": {"kappa_slope": (0.1, 1.0), "kappa": (0.5, 3.0)},
    "heat": {"kappa_slope": (0.1, 1.0), "kappa": (0.2, 2.0)},
    "helmholtz": {"k": (3.0, 12.0)},
    "convection_diffusion": {"epsilon": (0.02, 0.1), "beta": (-3.0, 3.0)},
    "reaction_diffusion": {"epsilon": (0.05, 0.3), "lambda": (0.5, 2.0), "alpha": (0.5, 2.0), "rho": (0.5, 2.0)},
    "linear_elasticity": {"E": (0.5, 10.0), "nu": (0.2, 0.4)},
    "stokes": {"nu": (0.5, 2.0)},
    "navier_stokes": {"nu": (0.03, 0.1)},
    "biharmonic": {},
    "burgers": {"nu": (0.05, 0.2)},
    "wave": {"c": (0.5, 2.0)},
}
"""The manufactured families with a generator and the stated range of each drawn coefficient."""
TRANSIENT = frozenset({"heat", "convection_diffusion", "reaction_diffusion", "burgers", "wave"})
"""The transient families whose oracle steps are exact in time for the drawn solutions, whatever the nonlinear
term: the theta scheme (Crank-Nicolson; backward Euler where the oracle's ``scheme`` says so) applied to the
whole residual ``u_t + R(u) - f`` with ``f = u_t + R(u)`` sampled at the step's ends leaves the exact solution a
defect of ``(u(t+dt) - u(t)) / dt - (u_t(t+dt) + u_t(t)) / 2``, zero for a quadratic in t (backward Euler: a
linear one); Newmark's average acceleration (wave) is exact for a constant acceleration, a quadratic in t."""
NEUMANN_FAMILIES = frozenset({"poisson", "helmholtz"})
"""The families whose oracle assembles Neumann data (``int g v ds``, :func:`.manufactured.neumann_flux`)."""
DOMAIN_RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "circle": {"radius": (0.3, 0.45)},
    "square_with_hole": {"hole_radius": (0.1, 0.25), "hole_center": (0.4, 0.6)},
    "annulus": {"inner_r": (0.1, 0.25), "outer_r": (0.35, 0.45)},
    "sector": {"angle": (45.0, 90.0)},
    "star": {"inner_r": (0.2, 0.35), "outer_r": (0.5, 0.7), "points": (4, 7)},
    "t_junction": {"stem_width": (0.2, 0.4), "junction_height": (0.6, 0.8)},
}
"""The free dimensions of each domain type and their ranges, inside the published evaluation grid's box (a
circle and an annulus about the centre (0.5, 0.5), a sector of radius 1 from the x axis, a star about the
origin, a T-junction's stem centred on x = 0.5 under a bar up to y = 1)."""


def round_sig(value: float, digits: int = 2) -> float:
    """``value`` to ``digits`` significant digits (a drawn number as the case states it)."""
    return float(f"{value:.{digits}g}")


def exact(value: float) -> sp.Rational:
    """A drawn number as an exact rational (``13/10``), so the expressions print short and exact."""
    return sp.Rational(repr(value))


def _factor(rng: np.random.Generator, symbol: sp.Symbol, transcendental: bool) -> sp.Expr:
    kinds = ["sin", "cos", "exp"] + ([] if transcendental else ["power"])
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "power":
        return symbol ** int(rng.integers(1, 4))
    if kind == "exp":
        return sp.exp(exact(round_sig(rng.uniform(*EXP_RATE))) * symbol)
    frequency = int(rng.integers(FREQUENCY[0], FREQUENCY[1] + 1))
    return (sp.sin if kind == "sin" else sp.cos)(frequency * sp.pi * symbol)


def product(rng: np.random.Generator, dim: int) -> sp.Expr:
    """A drawn amplitude times one factor per coordinate, at least one of them transcendental."""
    amplitude = round_sig(rng.uniform(*AMPLITUDE)) * (1 if rng.random() < 0.5 else -1)
    lead = int(rng.integers(dim))
    factors = [_factor(rng, manufactured.SPACE[i], i == lead) for i in range(dim)]
    return exact(amplitude) * sp.Mul(*factors)


def draw_solution(rng: np.random.Generator, family: str, dim: int, time_degree: int = 0) -> dict[str, Any]:
    """A manufactured ``solution`` block (``u``, and ``p`` for flows) of the grammar in the module docstring; its
    first product times ``1 + a t`` (``time_degree`` 1) or ``1 + a t + b t^2`` (2), none for 0."""
    if family in ("stokes", "navier_stokes"):
        psi = product(rng, 2) / 4
        u = [sp.diff(psi, manufactured.Y), -sp.diff(psi, manufactured.X)]
        return {"u": [sp.sstr(c) for c in u], "p": sp.sstr(product(rng, 2))}
    if family == "linear_elasticity":
        return {"u": [sp.sstr(product(rng, dim) + product(rng, dim) / 4) for _ in range(dim)]}
    first, second = product(rng, dim), product(rng, dim)
    if time_degree:
        growth = 1 + exact(round_sig(rng.uniform(*TIME_RATE))) * manufactured.T
        if time_degree == 2:
            sign = 1 if rng.random() < 0.5 else -1
            growth += sign * exact(round_sig(rng.uniform(*TIME_RATE))) * manufactured.T**2
        first = first * growth
    return {"u": sp.sstr(first + second / 2)}


def _draw_params(family: str, published: dict[str, Any], rng: np.random.Generator) -> tuple[dict, dict, dict]:
    """(the case's new ``pde.params``, the drawn numbers, their ranges)."""
    ranges = COEFFICIENT_RANGES[family]
    params = copy.deepcopy(published)
    drawn: dict[str, Any] = {}

    def pick(name: str) -> float:
        drawn[name] = round_sig(rng.uniform(*ranges[name]), 3)
        return drawn[name]

    if family in ("poisson", "heat"):
        kappa = published.get("kappa", 1)
        if isinstance(kappa, int | float):
            params["kappa"] = pick("kappa")
        else:
            monomial = ["x", "y", "x*y", "x**2", "y**2"][int(rng.integers(5))]
            params["kappa"] = f"1 + {pick('kappa_slope')}*{monomial}"
    elif family == "convection_diffusion":
        params["epsilon"] = pick("epsilon")
        drawn["beta"] = [round_sig(rng.uniform(*ranges["beta"]), 2) for _ in published["beta"]]
        params["beta"] = drawn["beta"]
    elif family == "reaction_diffusion":
        params["epsilon"] = pick("epsilon")
        reaction = dict(published["reaction"])
        for key in ("lambda", "alpha", "rho"):
            if key in reaction:
                reaction[key] = pick(key)
        params["reaction"] = reaction
    else:
        for name in ranges:
            if name in published:
                params[name] = pick(name)
    used = {name: ranges[name] for name in drawn}
    return params, drawn, used


def _draw_domain(domain: dict[str, Any], rng: np.random.Generator) -> tuple[dict, dict, dict]:
    """(the new domain, the drawn numbers, their ranges): only where the domain has free dimensions."""
    domain = copy.deepcopy(domain)
    kind = domain["type"]
    ranges = DOMAIN_RANGES.get(kind, {})
    if not ranges:
        return domain, {}, {}

    def pick(name: str) -> float:
        return round_sig(rng.uniform(*ranges[name]), 3)

    geometry = domain["geometry_params"]
    if kind == "circle":
        drawn: dict[str, Any] = {"radius": pick("radius")}
        geometry.update(drawn)
    elif kind == "square_with_hole":
        drawn = {"hole_radius": pick("hole_radius"), "hole_center": [pick("hole_center"), pick("hole_center")]}
        geometry["inner_hole"].update(radius=drawn["hole_radius"], center=drawn["hole_center"])
    elif kind == "annulus":
        drawn = {"inner_r": pick("inner_r"), "outer_r": pick("outer_r")}
        geometry.update(drawn)
    elif kind == "sector":
        drawn = {"angle": float(round(rng.uniform(*ranges["angle"])))}
        geometry.update(drawn)
    elif kind == "star":
        points = int(rng.integers(ranges["points"][0], ranges["points"][1] + 1))
        drawn = {"inner_r": pick("inner_r"), "outer_r": pick("outer_r"), "points": points}
        geometry.update(drawn)
    else:  # t_junction
        drawn = {"stem_width": pick("stem_width"), "junction_height": pick("junction_height")}
        half, height = drawn["stem_width"] / 2, drawn["junction_height"]
        geometry["horizontal_rect"] = [0, 1, height, 1.0]
        geometry["vertical_rect"] = [round_sig(0.5 - half, 4), round_sig(0.5 + half, 4), 0, height]
    return domain, drawn, {name: ranges[name] for name in drawn}


def _problem_text(problem: str, published: dict[str, Any], params: dict[str, Any]) -> str:
    """The problem statement with every ``name = value`` it states of a drawn scalar coefficient updated."""
    for name, value in published.items():
        if isinstance(value, int | float) and not isinstance(value, bool) and name in params:
            problem = re.sub(rf"\b{re.escape(name)} = {value:g}\b", f"{name} = {params[name]:g}", problem)
    return problem


def time_degree(kind: str, spec: dict[str, Any], oracle: dict[str, Any]) -> int | None:
    """The degree in t of a transient draw's solution (0 for a steady case), or None where the oracle's time
    scheme is not exact for any polynomial in t (see :data:`TRANSIENT`)."""
    if "ic" not in spec:
        return 0
    if kind not in TRANSIENT:
        return None
    if kind == "heat" or oracle.get("scheme") == "backward_euler":
        return 1
    return 2


def _neumann_pieces(kind: str, bc: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The case's Neumann pieces ([] for none), or None where the generator cannot derive their data (a family
    whose oracle assembles no Neumann term, a piece not on a side of the bounding box)."""
    pieces = bc.get("neumann")
    if not pieces:
        return []
    pieces = pieces if isinstance(pieces, list) else [pieces]
    if kind not in NEUMANN_FAMILIES or any(p.get("on") not in manufactured.NEUMANN_SIDES for p in pieces):
        return None
    return pieces


def fresh_case(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of a manufactured fem case (see the module docstring); None for other references, other
    boundary data (periodic, Neumann off the bounding box's sides), a time scheme not exact in t
    (:func:`time_degree`) and families without a generator."""
    spec = family.visible.spec.get("case_spec", {})
    pde = spec.get("pde", {})
    kind = pde.get("type")
    if family.hidden.reference.get("generator") != "manufactured" or kind not in COEFFICIENT_RANGES:
        return None
    oracle = family.hidden.reference.get("params", {}).get("oracle", {})
    degree = time_degree(kind, spec, oracle)
    neumann = _neumann_pieces(kind, spec.get("bc", {}))
    if set(spec.get("bc", {})) - {"dirichlet", "laplacian", "neumann"} or degree is None or neumann is None:
        return None
    data = copy.deepcopy(read_yaml(family.folder / "case.yaml"))
    case_spec = data["visible"]["spec"]["case_spec"]
    dim = 3 if "nz" in spec["eval_grid"] else 2
    transient = "ic" in spec
    params, drawn, ranges = _draw_params(kind, pde.get("params", {}), rng)
    domain, drawn_domain, domain_ranges = _draw_domain(spec["domain"], rng)
    solution = draw_solution(rng, kind, dim, degree)
    t0 = float(pde.get("time", {}).get("t0", 0.0))
    derived = manufactured.derive(kind, params, solution, dim, t0=t0, transient=transient, simplify=False)
    case_spec["pde"]["params"] = params
    case_spec["pde"]["forcing"] = {"type": "expression", "value": derived["forcing"]}
    case_spec["domain"] = domain
    case_spec["bc"]["dirichlet"]["value"] = derived["dirichlet"]
    if "laplacian" in case_spec["bc"]:
        case_spec["bc"]["laplacian"]["value"] = derived["laplacian"]
    if neumann:
        fluxes = [{**p, "value": manufactured.neumann_flux(kind, params, solution, p["on"])} for p in neumann]
        case_spec["bc"]["neumann"] = fluxes if isinstance(spec["bc"]["neumann"], list) else fluxes[0]
    for key in ("u0", "v0"):
        if key in derived and transient:
            case_spec["ic"][key] = derived[key]
    data["visible"]["problem"] = _problem_text(data["visible"]["problem"], pde.get("params", {}), params)
    data["hidden"]["reference"]["params"]["solution"] = solution
    flat = {f"domain_{k}": v for k, v in drawn_domain.items()}
    return FreshDraw(
        case=data,
        params={**drawn, **flat, "solution": solution},
        ranges={**ranges, **{f"domain_{k}": v for k, v in domain_ranges.items()}},
    )


def level_configs(config: dict[str, Any], levels: int = LEVELS) -> list[dict[str, Any]]:
    """The oracle's discretisation ``config`` and coarser ones, coarse to fine: the resolution halved (a
    structured mesh) or the mesh size doubled (a gmsh mesh) per level."""
    configs = []
    for step in range(levels - 1, -1, -1):
        level = dict(config)
        if config.get("char_length"):
            level["char_length"] = config["char_length"] * 2**step
        if config.get("resolution"):
            level["resolution"] = max(2, round(config["resolution"] / 2**step))
        configs.append(level)
    return configs


def _sizes(configs: list[dict[str, Any]]) -> list[float]:
    """The mesh size of each level (relative): the gmsh mesh size where the mesh is one, else 1 / resolution."""
    return [c["char_length"] if c.get("char_length") else 1.0 / c["resolution"] for c in configs]


def verify_fresh_case(case: Case, workdir: Path) -> FreshCheck:
    """The oracle's grid error against the exact solution at three refinements; the rate between the two finest
    levels must be within :data:`RATE_TOLERANCE` of ``degree + 1`` and the finest error below ``e_base_limit``."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.suites.fem.harness import compiled
    from simcodebench.suites.fem.oracle_runs import run_oracle
    from simcodebench.suites.fem.reference import manufactured_reference

    base = case.hidden.reference["params"]["oracle"]
    configs = level_configs(base, COMPILED_LEVELS if compiled(case) else LEVELS)
    exact = manufactured_reference(case).fields["u"]
    mask = np.isfinite(exact)
    fields = []
    for config in configs:
        try:
            fields.append(run_oracle(case, config, keep=workdir / f"h{len(fields)}"))
        except InfrastructureError as exc:
            return FreshCheck(ok=False, detail={"reason": f"the oracle failed: {str(exc)[-500:]}", "levels": configs})
        if fields[-1].shape != exact.shape:
            return FreshCheck(ok=False, detail={"reason": "the oracle's field has another shape", "levels": configs})
    missing = [int(np.sum(mask & ~np.isfinite(field))) for field in fields]
    if missing[-1] or max(missing) > COARSE_MISSING * mask.sum():
        return FreshCheck(ok=False, detail={"reason": "the oracle's field is not finite", "missing": missing})
    common = np.where(mask & np.all([np.isfinite(field) for field in fields], axis=0), exact, np.nan)
    errors = [grid.relative_l2(field, common) for field in fields]
    calibration_error = grid.relative_l2(fields[-1], exact)  # over every scored point, as the calibration takes it
    sizes = _sizes(configs)
    rates = [
        math.log(errors[i] / errors[i + 1]) / math.log(sizes[i] / sizes[i + 1]) if errors[i + 1] > 0 else math.inf
        for i in range(len(errors) - 1)
    ]
    expected = int(base.get("degree", 2)) + 1
    limit = case.threshold_policy()["accuracy"].get("e_base_limit")
    rate_ok = expected - RATE_TOLERANCE <= rates[-1] <= expected + 2.0
    error_ok = limit is None or calibration_error < float(limit)
    detail: dict[str, Any] = {
        "rule": f"rate between the two finest levels within [{expected - RATE_TOLERANCE}, {expected + 2.0}] "
        f"(degree + 1 = {expected}) and the finest error below e_base_limit {limit}",
        "levels": [{k: c[k] for k in ("resolution", "char_length", "degree", "dt") if c.get(k)} for c in configs],
        "errors": errors,
        "rates": rates,
        "missing_points": missing,
        "calibration_error": calibration_error,
        "expected_rate": expected,
    }
    if not rate_ok:
        detail["reason"] = f"observed rate {rates[-1]:.3g}, expected {expected} +- tolerance"
    elif not error_ok:
        detail["reason"] = f"the calibration level's error {calibration_error:.3g} >= e_base_limit {limit}"
    return FreshCheck(ok=rate_ok and error_ok, detail=detail)
