"""Statistics of a Rayleigh-Benard snapshot, and how far a sample's statistics lie from an ensemble's.

The flow of ``2D_Rayleigh_Benard_Convection`` at ``t = 50`` is chaotic and starts from random noise, so two
correct programs agree on its statistics, not on its values. A snapshot (``x`` along the first axis, periodic
and uniform; ``z`` along the second, increasing nodes from wall to wall) gives:

- ``nusselt_wall``: the heat flux through the walls over the conductive one, ``-d mean_x(b)/dz`` at ``z = 0`` and
  at ``z = Lz`` (averaged) times ``Lz / Delta_b``, by the one-sided difference between the first two nodes
  (``Delta_b = Lz``, the buoyancy drop of the problem);
- ``u_rms``: ``sqrt(<u^2 + w^2>)`` (``<.>`` the mean over ``x`` and the trapezoid rule in ``z`` over ``Lz``);
- ``theta_mean``: the horizontally averaged buoyancy minus the conduction profile, ``mean_x(b) - (Lz - z)``, a
  profile over ``z`` (zero without convection; boundary layers and a well-mixed core with it);
- ``nusselt_volume``: ``1 + <w b> Lz / (kappa Delta_b)``, reported but not compared: a snapshot's plumes make it
  vary by 25% between members of the ensemble (7.9 to 15.3 at Ra = 2e6), beyond any useful pass mark.

Each compared statistic (``NAMES``) is measured against the ensemble mean of the reference runs in the suite's
own metric, the NMSE (``(s - s_ref)^2 / s_ref^2`` for a number), so the usual 10% / 30% bins apply; the error
of a sample is the worst of the three. The reference stores every member's statistics so that the spread can be
checked against the bins (the leave-one-out error: each member against the mean of the others).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import nmse as metric

NAMES = ("nusselt_wall", "u_rms", "theta_mean")


def _volume_mean(values: np.ndarray, z: np.ndarray) -> float:
    """Mean over ``x`` (first axis) and the trapezoid rule over ``z`` (second axis), divided by the height."""
    profile = np.asarray(values, dtype=float).mean(axis=0)
    return float(np.trapezoid(profile, z) / (z[-1] - z[0]))


def snapshot_statistics(
    fields: Mapping[str, np.ndarray], z: np.ndarray, kappa: float, lz: float
) -> dict[str, np.ndarray]:
    """The statistics of the snapshot ``fields`` (``b``, ``u``, ``w``, ``x`` first) on the nodes ``z``."""
    b, u, w = (np.asarray(fields[name], dtype=float) for name in ("b", "u", "w"))
    z = np.asarray(z, dtype=float)
    mean_b = b.mean(axis=0)
    bottom = -(mean_b[1] - mean_b[0]) / (z[1] - z[0])
    top = -(mean_b[-1] - mean_b[-2]) / (z[-1] - z[-2])
    return {
        "nusselt_wall": np.asarray((bottom + top) / 2),  # Delta_b / Lz = 1
        "u_rms": np.asarray(np.sqrt(_volume_mean(u * u + w * w, z))),
        "theta_mean": mean_b - (lz - z),
        "nusselt_volume": np.asarray(1.0 + _volume_mean(w * b, z) / kappa),
    }


def ensemble_mean(members: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The mean of each statistic over ``members``."""
    return {name: np.mean([np.asarray(member[name]) for member in members], axis=0) for name in members[0]}


def statistic_errors(sample: Mapping[str, np.ndarray], reference: Mapping[str, np.ndarray]) -> dict[str, float]:
    """The NMSE of each compared statistic of ``sample`` against ``reference`` (infinite when not finite)."""
    errors = {}
    for name in NAMES:
        value = np.asarray(sample[name], dtype=float)
        errors[name] = metric.nmse(reference[name], value) if np.all(np.isfinite(value)) else float("inf")
    return errors


def leave_one_out(members: Sequence[Mapping[str, np.ndarray]]) -> list[float]:
    """For each member, its worst statistic error against the mean of the other members."""
    worst = []
    for index, member in enumerate(members):
        others = ensemble_mean([m for i, m in enumerate(members) if i != index])
        worst.append(max(statistic_errors(member, others).values()))
    return worst


def against_reference(
    fields: Mapping[str, np.ndarray], reference: Reference
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """The statistics of the snapshot ``fields`` on the reference's nodes, and their errors against the mean of
    the reference ensemble (as ``references/rayleigh_benard.py`` stores it)."""
    z = reference.fields["z"]
    stats = snapshot_statistics(fields, z, reference.scalars["kappa"], reference.scalars["lz"])
    return stats, statistic_errors(stats, reference_mean(reference))


def reference_mean(reference: Reference) -> dict[str, np.ndarray]:
    """The compared statistics of the reference ensemble's mean (as ``references/rayleigh_benard.py`` stores it)."""
    mean = {name: np.asarray(reference.scalars[name]) for name in ("nusselt_wall", "u_rms")}
    mean["theta_mean"] = np.asarray(reference.fields["theta_mean"])
    return mean
