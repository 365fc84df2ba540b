"""Manufactured solutions: the data of a PDE family derived symbolically from a hidden exact solution.

Expressions are strings in ``x, y, z, t`` that sympy reads (``^`` is accepted for a power). The same family
conventions as the oracle (``cases/fem/oracle_dolfinx.py``) and as the upstream records (checked against them by
``tests/test_fem_import.py``): Burgers is ``u_t + u (u_x + u_y) - nu Lap u = f``, the reaction terms are
``alpha u`` (linear), ``alpha u + beta u^3`` (cubic), ``lambda (u^3 - u)`` (Allen-Cahn) and ``rho u (1 - u)``
(logistic), elasticity is isotropic with ``lambda = E nu / ((1 + nu)(1 - 2 nu))`` and ``mu = E / (2 (1 + nu))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

X, Y, Z, T = sp.symbols("x y z t")
SPACE = (X, Y, Z)
VECTOR_FAMILIES = frozenset({"linear_elasticity", "stokes", "navier_stokes"})
TRANSIENT_FAMILIES = frozenset({"heat", "burgers", "wave"})

Expr = sp.Expr
Field = str | list[str]


def parse(text: Any) -> Expr:
    """A sympy expression in x, y, z, t."""
    return sp.sympify(str(text).replace("^", "**"), locals={"x": X, "y": Y, "z": Z, "t": T})


def _text(expr: Expr, simplify: bool = True) -> str:
    return sp.sstr(sp.simplify(expr) if simplify and expr.count_ops() < 200 else expr)


def _grad(u: Expr, dim: int) -> list[Expr]:
    return [sp.diff(u, s) for s in SPACE[:dim]]


def _lap(u: Expr, dim: int) -> Expr:
    return sum(sp.diff(u, s, 2) for s in SPACE[:dim])


def _div(vector: Sequence[Expr], dim: int) -> Expr:
    return sum(sp.diff(vector[i], SPACE[i]) for i in range(dim))


def reaction_term(reaction: dict[str, Any], u: Expr) -> Expr:
    """R(u) of a ``reaction`` block."""
    kind = reaction["type"]
    if kind == "linear":
        return reaction["alpha"] * u
    if kind == "cubic":
        return reaction["alpha"] * u + reaction["beta"] * u**3
    if kind == "allen_cahn":
        return reaction["lambda"] * (u**3 - u)
    if kind == "logistic":
        return reaction["rho"] * u * (1 - u)
    if kind == "expression":
        return sp.sympify(reaction["value"], locals={"u": sp.Symbol("u")}).subs(sp.Symbol("u"), u)
    raise ValueError(f"unknown reaction type '{kind}'")


def _lame(params: dict[str, Any]) -> tuple[Expr, Expr]:
    if "E" in params:
        E, nu = sp.nsimplify(params["E"]), sp.nsimplify(params["nu"])
        return E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    return sp.nsimplify(params["lambda"]), sp.nsimplify(params["mu"])


def _scalar_forcing(family: str, params: dict[str, Any], u: Expr, dim: int, transient: bool) -> Expr:
    lap = _lap(u, dim)
    rate = sp.diff(u, T) if transient else 0
    if family == "poisson":
        kappa = parse(params.get("kappa", 1))
        return -_div([kappa * g for g in _grad(u, dim)], dim)
    if family == "helmholtz":
        return -lap - sp.nsimplify(params["k"]) ** 2 * u
    if family == "biharmonic":
        return _lap(lap, dim)
    if family == "heat":
        kappa = parse(params.get("kappa", 1))
        return rate - _div([kappa * g for g in _grad(u, dim)], dim)
    if family == "convection_diffusion":
        beta = [parse(b) for b in params["beta"]]
        return rate - parse(params["epsilon"]) * lap + sum(b * g for b, g in zip(beta, _grad(u, dim), strict=False))
    if family == "reaction_diffusion":
        return rate - parse(params["epsilon"]) * lap + reaction_term(params["reaction"], u)
    if family == "burgers":
        return rate + u * sum(_grad(u, dim)) - parse(params["nu"]) * lap
    if family == "wave":
        return sp.diff(u, T, 2) - parse(params["c"]) ** 2 * lap
    raise ValueError(f"unknown scalar family '{family}'")


def _vector_forcing(family: str, params: dict[str, Any], u: list[Expr], p: Expr, dim: int) -> list[Expr]:
    if family == "linear_elasticity":
        lam, mu = _lame(params)
        div = _div(u, dim)
        eps = [[(sp.diff(u[i], SPACE[j]) + sp.diff(u[j], SPACE[i])) / 2 for j in range(dim)] for i in range(dim)]
        sigma = [[lam * div * int(i == j) + 2 * mu * eps[i][j] for j in range(dim)] for i in range(dim)]
        return [-sum(sp.diff(sigma[i][j], SPACE[j]) for j in range(dim)) for i in range(dim)]
    nu = parse(params["nu"])
    forcing = [-nu * _lap(u[i], dim) + sp.diff(p, SPACE[i]) for i in range(dim)]
    if family == "navier_stokes":
        forcing = [forcing[i] + sum(u[j] * sp.diff(u[i], SPACE[j]) for j in range(dim)) for i in range(dim)]
    return forcing


def derive(
    family: str,
    params: dict[str, Any],
    solution: dict[str, Any],
    dim: int,
    t0: float = 0.0,
    transient: bool = False,
    simplify: bool = True,
) -> dict[str, Any]:
    """The agent-visible data of a manufactured case: ``forcing`` and ``dirichlet`` (strings, or lists for
    vector families), ``laplacian`` (biharmonic), ``u0`` (and ``v0`` for the wave equation) at ``t0``.

    Heat, Burgers and wave are always transient; convection-diffusion and reaction-diffusion when ``transient``.
    ``simplify`` tidies the strings with sympy (slow on long expressions).
    """
    transient = transient or family in TRANSIENT_FAMILIES
    if family in VECTOR_FAMILIES:
        u = [parse(c) for c in solution["u"]]
        p = parse(solution.get("p", 0))
        if family != "linear_elasticity" and sp.simplify(_div(u, dim)) != 0:
            raise ValueError(f"the manufactured velocity {solution['u']} is not divergence free")
        return {
            "forcing": [_text(f, simplify) for f in _vector_forcing(family, params, u, p, dim)],
            "dirichlet": [sp.sstr(c) for c in u],
        }
    u = parse(solution["u"])
    data: dict[str, Any] = {
        "forcing": _text(_scalar_forcing(family, params, u, dim, transient), simplify),
        "dirichlet": sp.sstr(u),
    }
    if family == "biharmonic":
        data["laplacian"] = _text(_lap(u, dim), simplify)
    if transient:
        data["u0"] = sp.sstr(u.subs(T, t0))
    if family == "wave":
        data["v0"] = _text(sp.diff(u, T).subs(T, t0), simplify)
    return data


NEUMANN_SIDES = {f"{axis}{side}": (i, 1 if side == "1" else -1) for i, axis in enumerate("xyz") for side in "01"}
"""A side of the bounding box (``x0`` ... ``z1``, as ``bc.neumann.on`` names it): the axis of its outward normal
and the normal's sign."""


def neumann_flux(family: str, params: dict[str, Any], solution: dict[str, Any], where: str) -> str:
    """The Neumann datum ``g = kappa du/dn`` (Poisson; ``du/dn`` for Helmholtz) of a scalar manufactured
    ``solution`` on the bounding-box side ``where`` (:data:`NEUMANN_SIDES`), the form the oracle assembles as
    ``int g v ds``."""
    if where not in NEUMANN_SIDES:
        raise ValueError(f"a Neumann piece on '{where}': only a side of the bounding box (x0 ... z1) has a normal here")
    axis, sign = NEUMANN_SIDES[where]
    kappa = parse(params.get("kappa", 1)) if family == "poisson" else sp.Integer(1)
    return _text(sign * kappa * sp.diff(parse(solution["u"]), SPACE[axis]), simplify=False)


def evaluate(solution: dict[str, Any], field: str, points: np.ndarray, t: float = 0.0) -> np.ndarray:
    """The exact output field at ``points`` (N x 3): the scalar, or the magnitude of a vector solution."""
    value = solution["u"]
    parts = value if isinstance(value, list) else [value]
    arrays = []
    for part in parts:
        function = sp.lambdify((X, Y, Z, T), parse(part), "numpy")
        arrays.append(np.broadcast_to(np.asarray(function(*points.T, t), dtype=float), points.shape[:1]))
    if len(arrays) == 1:
        return np.array(arrays[0])
    if field not in ("velocity_magnitude", "displacement_magnitude", "u_mag", "magnitude"):
        raise ValueError(f"a vector solution needs a magnitude output field, not '{field}'")
    return np.sqrt(sum(a**2 for a in arrays))
