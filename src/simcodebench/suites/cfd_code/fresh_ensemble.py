"""The check of a fresh chaotic case's reference (``2D_Rayleigh_Benard_Convection``): its ensemble's spread, and an
ensemble on a finer grid scored as a program's output would be.

The flow is chaotic, so no refinement of one run converges pointwise: the case is scored by statistics of a
snapshot against the mean of a reference ensemble (:mod:`.convection_statistics`). A draw's reference ensemble is
kept when

- its spread, the worst leave-one-out error (each member against the mean of the others), is at most
  :data:`SPREAD_LIMIT`, half the pass mark (0.019 for the published case): wider, and a correct program could
  fail by the luck of its noise; the check stops here, before the finer runs, when it is not;
- every run of an ensemble on a grid 1.5 times finer each way (:data:`FINER`, other noise seeds), sampled on the
  reference grid and measured exactly as a program's output is, passes the pass mark;
- that finer ensemble's mean lies within the reference's spread of the reference's mean (or within
  :data:`MEAN_FLOOR` where the flow has settled and the members barely scatter): a bias of the reference's
  resolution larger than the ensemble's own scatter would show here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import convection_statistics
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code.references.rayleigh_benard import Setup, simulate

PASS_MARK = 0.10
"""The suite's accuracy mark (``cases/cfd-code/suite.yaml``, ``thresholds.accuracy``): NMSE at most 10%."""

SPREAD_LIMIT = PASS_MARK / 2
"""The largest leave-one-out error of a kept reference ensemble."""

MEAN_FLOOR = PASS_MARK / 100
"""The distance of the means always allowed: a hundredth of the pass mark."""

FINER = {"nx": 384, "nz": 97}
"""The finer ensemble's grid (the reference's is 256 x 65)."""

FINER_SEEDS = (6, 7, 8)
"""The finer ensemble's noise seeds: none of the reference's (0 to 5)."""


def finer_statistics(
    params: Mapping[str, Any], reference: Reference, grid: Mapping[str, int] = FINER, seeds: Sequence[int] = FINER_SEEDS
) -> list[dict[str, np.ndarray]]:
    """The statistics of each run on ``grid`` (the reference's ``params`` otherwise), each snapshot sampled on the
    reference grid as :func:`..scorer.on_reference_grid` samples a program's output."""
    setup = Setup(**{**{name: value for name, value in params.items() if name != "seeds"}, **grid})
    x, z = reference.fields["x"], reference.fields["z"]
    kappa, lz = reference.scalars["kappa"], reference.scalars["lz"]
    statistics = []
    for seed in seeds:
        run = simulate(setup, seed)
        sampled = {
            name: metric.sample_on_grid(run[name], [run["x"], run["z"]], [x, z], ["x", "z"], {"x": setup.lx})
            for name in ("b", "u", "w")
        }
        statistics.append(convection_statistics.snapshot_statistics(sampled, z, kappa, lz))
    return statistics


def judge(spread: float, reference_mean: Mapping[str, np.ndarray], finer: Sequence[Mapping[str, np.ndarray]]) -> dict:
    """The finer ensemble's errors against the reference ensemble (whose worst leave-one-out error is ``spread``),
    with a ``reason`` when a member fails the pass mark or the means lie further apart than ``spread`` (and
    :data:`MEAN_FLOOR`)."""
    member_errors = [max(convection_statistics.statistic_errors(member, reference_mean).values()) for member in finer]
    mean = convection_statistics.ensemble_mean(finer)
    mean_error = max(convection_statistics.statistic_errors(mean, reference_mean).values())
    detail: dict[str, Any] = {"finer_member_errors": member_errors, "finer_mean_error": mean_error}
    if max(member_errors) > PASS_MARK:
        detail["reason"] = "a run on the finer grid fails the pass mark against the reference ensemble"
    elif mean_error > max(spread, MEAN_FLOOR):
        detail["reason"] = "the finer ensemble's mean lies further from the reference's than the reference's spread"
    return detail


def ensemble_check(params: Mapping[str, Any], reference: Reference) -> dict[str, Any]:
    """The check of the module docstring on a reference made from ``params``; a ``reason`` when it fails."""
    spread = float(reference.scalars["leave_one_out_worst"])
    detail: dict[str, Any] = {"leave_one_out_worst": spread, "spread_limit": SPREAD_LIMIT}
    if spread > SPREAD_LIMIT:
        detail["reason"] = "the reference ensemble's spread is more than half the pass mark"
        return detail
    mean = convection_statistics.reference_mean(reference)
    return detail | judge(spread, mean, finer_statistics(params, reference))
