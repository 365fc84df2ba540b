"""References of the fem suite: the exact field of a manufactured case, or a refined oracle run.

``manufactured`` (``params.solution``: ``u`` (a string, or a list for a vector field) and optionally ``p``):
the exact solution at the final time on the grid, its magnitude for a vector output, NaN outside the domain.

``refined`` (``params.intermediate`` and ``params.reference``: two oracle configurations finer than the
calibration one, ``params.oracle``): the oracle runs at all three levels L0, L1, L2; the reference is L2. The
paper's filter keeps the case only if ``e_base ~ ||u_L0 - u_L2|| / ||u_L2|| < 0.05`` (the suite's
``thresholds.accuracy.e_base_limit``, which the calibration applies to every case) and the refinement is
monotone, ``g12 < g01`` with ``g01 = ||u_L0 - u_L1|| / ||u_L1||`` and ``g12 = ||u_L1 - u_L2|| / ||u_L2||``;
otherwise :class:`ReferenceRejected` names the reason (the case must then be dropped from the suite).
"""

from __future__ import annotations

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.references import Reference
from simcodebench.suites.fem import grid, manufactured
from simcodebench.suites.fem.harness import case_spec
from simcodebench.suites.fem.oracle_runs import level_configs, run_oracle

# Gaps below this are round-off: every level reproduces the solution exactly (a Poiseuille channel on P2), and
# whether g12 < g01 is then noise, not a failure to converge.
ROUNDOFF_GAP = 1e-10


class ReferenceRejected(Exception):
    """A ``refined`` case fails the paper's filter (``e_base < 0.05`` and ``g12 < g01``)."""


def final_time(spec: dict) -> float:
    """The time at which the field is scored (``t_end`` of a transient case, else 0)."""
    return float(spec["pde"].get("time", {}).get("t_end", 0.0))


def manufactured_reference(case: Case) -> Reference:
    """The exact solution on the grid."""
    spec = case_spec(case)
    solution = case.hidden.reference["params"]["solution"]
    mask = grid.domain_mask(spec)
    values = manufactured.evaluate(solution, spec["output"]["field"], grid.points(spec["eval_grid"]), final_time(spec))
    field = values.reshape(mask.shape)
    field[~mask] = np.nan
    return Reference(
        fields={"u": field},
        meta={"method": "manufactured solution evaluated on the grid at the final time", "t": final_time(spec)},
    )


def refinement_gaps(levels: list[np.ndarray], mask: np.ndarray) -> dict[str, float]:
    """``g01``, ``g12`` and the estimated ``e_base`` (L0 against L2) over the scored points."""
    u0, u1, u2 = (np.where(mask, u, np.nan) for u in levels)
    return {
        "g01": grid.relative_l2(u0, u1),
        "g12": grid.relative_l2(u1, u2),
        "e_base_estimate": grid.relative_l2(u0, u2),
    }


def check_filter(key: str, gaps: dict[str, float], e_base_limit: float | None) -> None:
    """Raise :class:`ReferenceRejected` unless ``e_base < e_base_limit`` (none: no bound) and ``g12 < g01`` (the
    paper's filter, with 0.05), the latter waived when both gaps are round-off (:data:`ROUNDOFF_GAP`)."""
    if e_base_limit is not None and not gaps["e_base_estimate"] < e_base_limit:
        raise ReferenceRejected(f"{key}: e_base {gaps['e_base_estimate']:.3g} >= {e_base_limit:g} (drop the case)")
    if max(gaps["g01"], gaps["g12"]) < ROUNDOFF_GAP:
        return
    if not gaps["g12"] < gaps["g01"]:
        raise ReferenceRejected(f"{key}: refinement not monotone, g12 {gaps['g12']:.3g} >= g01 {gaps['g01']:.3g}")


def refined_reference(case: Case) -> Reference:
    """The oracle's finest level, after the refinement filter."""
    spec = case_spec(case)
    mask = grid.domain_mask(spec)
    configs = level_configs(case)
    levels = [run_oracle(case, config) for config in configs]
    for name, level in zip(("L0", "L1", "L2"), levels, strict=True):
        if level.shape != mask.shape or not np.all(np.isfinite(level[mask])):
            raise ReferenceRejected(f"{case.key}: the oracle's {name} field is not finite on the domain")
    gaps = refinement_gaps(levels, mask)
    check_filter(case.key, gaps, case.threshold_policy()["accuracy"].get("e_base_limit"))
    field = np.where(mask, levels[2], np.nan)
    return Reference(
        fields={"u": field},
        scalars=gaps,
        meta={"method": "oracle at the finest of three levels (L0 calibration, L1, L2)", "levels": configs},
    )


GENERATORS = {"manufactured": manufactured_reference, "refined": refined_reference}
