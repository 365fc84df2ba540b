"""Fresh instances of the fem cases without a closed-form solution (``generator: refined``), and their check.

Such a case is defined by what makes it hard (a re-entrant corner, boundary layers, a lid's corner
singularities), so it gets no manufactured solution (that would replace the very feature it tests: a smooth
solution on the L-shape has no corner singularity). A draw keeps the domain, the boundary layout and the oracle's
three levels, and replaces the data:

- Poisson (the L-shape's corner): the conductivity (a number, or ``1 + s m`` for a monomial ``m`` where the
  published one is an expression) and the source ``c + P / 2``, ``c`` a drawn constant and ``P`` a product of
  the manufactured grammar (:func:`.fresh.product`); the Dirichlet data stay (zero);
- convection-diffusion (the layers): the diffusivity, the velocity (a drawn speed and direction) and the source,
  drawn as for Poisson;
- Stokes (the cavity): the viscosity, which wall is the lid, and the lid's profile ``U s^m (1 - s)^n / peak``
  along it (``s`` the coordinate along the wall, so the lid is still at the corners; ``peak`` the largest value of
  ``s^m (1 - s)^n``, so ``U`` is the lid's top speed); the other walls hold still. A Stokes velocity does not
  depend on the viscosity (only the pressure scales with it) and scales with ``U``, so the wall and the powers
  ``m, n`` make the new flow's shape: 36 shapes (4 walls, 9 profiles), each in either direction.

The reference is what the pipeline makes of any refined case (:func:`.reference.refined_reference`): the
oracle's finest of three levels. The check before a draw is kept runs the same three levels and asks more than
the pipeline's filter: the calibration level's gap to the finest, the e_base estimate, below the suite's
``e_base_limit``; the two finer levels agreeing within :data:`AGREEMENT` (``g12``); and the refinement
contracting the gaps at least :data:`CONTRACTION` times per level (``g12 <= g01 / 2``), so the reference's own
error, of the order of ``g12``, stays below half the calibration's (and a tenth of the accuracy gate
``10 e_base``).
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.io import read_yaml
from simcodebench.suites.fem import grid, manufactured
from simcodebench.suites.fem.fresh import exact, product, round_sig

AGREEMENT = 0.01
"""The largest relative gap ``g12`` between the two finer levels (L1 and L2, the reference)."""
CONTRACTION = 2.0
"""The least factor by which the gap shrinks from one level to the next (``g01 / g12``)."""

RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "poisson": {"kappa": (0.5, 3.0), "kappa_slope": (0.1, 1.0), "source": (0.5, 2.0)},
    "convection_diffusion": {
        "epsilon": (0.02, 0.05),
        "speed": (0.8, 1.6),
        "direction_deg": (0.0, 360.0),
        "beta": (-1.6, 1.6),
        "source": (0.5, 2.0),
    },
    "stokes": {"nu": (0.5, 2.0), "lid_speed": (-2.0, 2.0), "lid_powers": (1, 3)},
}
"""The refined families with a generator and the stated range of each drawn number."""
WALLS = ("y1", "y0", "x0", "x1")
"""The cavity's walls (sides of the unit square), any of which may be the lid."""


def _source(rng: np.random.Generator, drawn: dict[str, Any]) -> str:
    """A drawn constant plus half a product of the manufactured grammar (2-D)."""
    drawn["source"] = round_sig(rng.uniform(*RANGES["poisson"]["source"]), 3)
    return sp.sstr(exact(drawn["source"]) + product(rng, 2) / 2)


def _scalar(kind: str, params: dict[str, Any], rng: np.random.Generator, drawn: dict[str, Any]) -> dict[str, Any]:
    """New ``pde.params`` of the Poisson or convection-diffusion family."""
    ranges = RANGES[kind]
    if kind == "poisson":
        if isinstance(params.get("kappa", 1), int | float):
            drawn["kappa"] = round_sig(rng.uniform(*ranges["kappa"]), 3)
            params["kappa"] = drawn["kappa"]
        else:
            monomial = ["x", "y", "x*y", "x**2", "y**2"][int(rng.integers(5))]
            drawn["kappa_slope"] = round_sig(rng.uniform(*ranges["kappa_slope"]), 3)
            params["kappa"] = f"1 + {drawn['kappa_slope']}*{monomial}"
        return params
    drawn["epsilon"] = round_sig(rng.uniform(*ranges["epsilon"]), 3)
    drawn["speed"] = round_sig(rng.uniform(*ranges["speed"]), 3)
    drawn["direction_deg"] = float(round(rng.uniform(*ranges["direction_deg"])) % 360)
    angle = math.radians(drawn["direction_deg"])
    drawn["beta"] = [round_sig(drawn["speed"] * math.cos(angle), 3), round_sig(drawn["speed"] * math.sin(angle), 3)]
    params.update(epsilon=drawn["epsilon"], beta=drawn["beta"])
    return params


def _lid(rng: np.random.Generator, drawn: dict[str, Any]) -> list[dict[str, Any]]:
    """The cavity's walls: a drawn lid (first) and three still walls."""
    wall = WALLS[int(rng.integers(len(WALLS)))]
    speed = round_sig(rng.uniform(0.5, 2.0), 3) * (1 if rng.random() < 0.5 else -1)
    m, n = (int(rng.integers(1, 4)) for _ in range(2))
    drawn.update(lid_wall=wall, lid_speed=speed, lid_powers=[m, n])
    along = manufactured.Y if wall[0] == "x" else manufactured.X
    top = sp.Rational(m, m + n)
    peak = top**m * (1 - top) ** n
    profile = sp.sstr(exact(speed) / peak * along**m * (1 - along) ** n)
    value = [profile, "0"] if wall[0] == "y" else ["0", profile]
    return [{"on": wall, "value": value}] + [{"on": w, "value": ["0", "0"]} for w in WALLS if w != wall]


def fresh_case(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of a refined 2-D case (see the module docstring); None for other families."""
    spec = family.visible.spec.get("case_spec", {})
    kind = spec.get("pde", {}).get("type")
    if kind not in RANGES or "nz" in spec.get("eval_grid", {}) or "ic" in spec:
        return None
    if kind == "stokes" and not (spec["domain"]["type"] == "unit_square" and isinstance(spec["bc"]["dirichlet"], list)):
        return None
    data = copy.deepcopy(read_yaml(family.folder / "case.yaml"))
    pde = data["visible"]["spec"]["case_spec"]["pde"]
    drawn: dict[str, Any] = {}
    if kind == "stokes":
        drawn["nu"] = round_sig(rng.uniform(*RANGES["stokes"]["nu"]), 3)
        pde["params"]["nu"] = drawn["nu"]
        data["visible"]["spec"]["case_spec"]["bc"]["dirichlet"] = _lid(rng, drawn)
    else:
        pde["params"] = _scalar(kind, dict(pde["params"]), rng, drawn)
        pde["forcing"] = {"type": "expression", "value": _source(rng, drawn)}
        drawn["forcing"] = pde["forcing"]["value"]
    ranges = {name: bounds for name, bounds in RANGES[kind].items() if name in drawn}
    return FreshDraw(case=data, params=drawn, ranges=ranges)


def verify_fresh_case(case: Case, workdir: Path) -> FreshCheck:
    """The oracle at the case's three levels (L0 calibration, L1, L2 reference): kept when the e_base estimate
    is below ``e_base_limit``, ``g12 <= AGREEMENT`` and ``g12 <= g01 / CONTRACTION``."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.suites.fem.harness import case_spec
    from simcodebench.suites.fem.oracle_runs import level_configs, run_oracle
    from simcodebench.suites.fem.reference import refinement_gaps

    configs = level_configs(case)
    mask = grid.domain_mask(case_spec(case))
    levels = []
    for index, config in enumerate(configs):
        try:
            field = run_oracle(case, config, keep=workdir / f"L{index}")
        except InfrastructureError as exc:
            return FreshCheck(ok=False, detail={"reason": f"the oracle failed: {str(exc)[-500:]}", "levels": configs})
        if field.shape != mask.shape or not np.all(np.isfinite(field[mask])):
            return FreshCheck(ok=False, detail={"reason": f"the oracle's L{index} field is not finite"})
        levels.append(field)
    gaps = refinement_gaps(levels, mask)
    limit = case.threshold_policy()["accuracy"].get("e_base_limit")
    detail: dict[str, Any] = {
        "rule": f"e_base estimate (L0 against L2) below e_base_limit {limit}, g12 <= {AGREEMENT} and "
        f"g12 <= g01 / {CONTRACTION:g}",
        "levels": [{k: c[k] for k in ("resolution", "char_length", "degree") if c.get(k)} for c in configs],
        **gaps,
    }
    if limit is not None and not gaps["e_base_estimate"] < float(limit):
        detail["reason"] = f"e_base estimate {gaps['e_base_estimate']:.3g} >= e_base_limit {limit}"
    elif not gaps["g12"] <= AGREEMENT:
        detail["reason"] = f"the two finer levels differ by g12 {gaps['g12']:.3g} > {AGREEMENT}"
    elif not gaps["g12"] <= gaps["g01"] / CONTRACTION:
        detail["reason"] = f"the gaps shrink too little: g01 {gaps['g01']:.3g}, g12 {gaps['g12']:.3g}"
    return FreshCheck(ok="reason" not in detail, detail=detail)
