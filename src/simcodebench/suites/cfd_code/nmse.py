"""CFDCodeBench's accuracy metric: the normalised mean squared error at the final time, and its score.

``NMSE = sum((y - y_hat)^2) / sum(y^2)`` with ``y`` the reference (Eq. 1 of the paper, as a fraction). Score 1 when
``NMSE <= 0.10``, 0.5 when ``<= 0.30``, else 0; the released code uses strict ``<`` (``strict=True``).

Zero-norm references (the channel's ``v`` and its pressure up to a constant are identically zero) have no
relative error. A case then gives the variable a characteristic ``scale`` and the denominator becomes
``max(sum(y^2), N scale^2)``: the mean squared error relative to ``scale^2`` wherever the reference is smaller
than that scale, the paper's NMSE elsewhere. Without a scale a zero-norm reference raises ``ValueError``.

Two ways of putting a sample on the reference grid:

- ``legacy`` (the released code): resample by array index with ``scipy.ndimage.zoom(order=1)`` to the
  reference's shape when the shapes differ (1-D arrays taken as columns first, as upstream);
  ``NMSE = mean((y - y_hat)^2) / mean(y^2)``, any NaN or infinity an error (infinite NMSE);
- ``coords`` (ours): the sample comes with its grid; it is interpolated linearly in physical coordinates at the
  reference nodes (periodic axes wrapped), after checking that each axis is strictly monotonic, matches the
  field's length and covers the reference's extent within one sample spacing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from scipy.interpolate import RegularGridInterpolator
from scipy.ndimage import zoom

LOWER, UPPER = 0.10, 0.30


class GridError(ValueError):
    """The sample cannot be put on the reference grid (a format problem of the sample)."""


def nmse(reference: np.ndarray, sample: np.ndarray, scale: float | None = None) -> float:
    """``sum((y - y_hat)^2) / sum(y^2)``, the denominator raised to ``N scale^2`` when ``scale`` is given."""
    y, y_hat = np.asarray(reference, dtype=float), np.asarray(sample, dtype=float)
    if y.shape != y_hat.shape:
        raise ValueError(f"shapes differ: reference {y.shape}, sample {y_hat.shape}")
    denominator = float(np.sum(y**2))
    if scale is not None:
        denominator = max(denominator, y.size * float(scale) ** 2)
    if denominator == 0.0:
        raise ValueError("the reference is zero everywhere: give the variable a scale")
    return float(np.sum((y - y_hat) ** 2) / denominator)


def nmse_score(value: float, strict: bool = False) -> float:
    """1 for ``value <= 0.10``, 0.5 for ``<= 0.30``, else 0 (``<`` with ``strict``); NaN scores 0."""
    if not np.isfinite(value):
        return 0.0
    below = (lambda a, b: a < b) if strict else (lambda a, b: a <= b)
    if below(value, LOWER):
        return 1.0
    return 0.5 if below(value, UPPER) else 0.0


def released_score(value: float) -> float:
    """The released code's score bin: strict ``<`` on the NMSE as its comparison log prints it (3 decimals,
    ``NMSE=0.100`` for 0.0996), the only record of the NMSE it keeps."""
    return nmse_score(float(f"{value:.3f}"), strict=True) if np.isfinite(value) else 0.0


def legacy_resample(sample: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """The released code's resampling to the reference ``shape``: a 1-D array (sample or reference) is first made
    a column, then ``zoom(sample, shape / sample.shape, order=1)`` when the shapes differ. So a 1-D sample meets
    a 2-D reference as a column stretched across it, and a 2-D sample a 1-D reference through its first
    column; a sample with another number of dimensions (a scalar, a 3-D history) cannot be resampled."""
    target = tuple(int(n) for n in shape)
    full = target + (1,) if len(target) == 1 else target
    values = np.asarray(sample, dtype=float)
    if values.ndim == 1:
        values = values[:, np.newaxis]
    if values.shape != full:
        if values.ndim != len(full) or 0 in values.shape:
            raise GridError(f"cannot resample an array of shape {np.shape(sample)} to {target}")
        values = zoom(values, np.array(full, dtype=float) / np.array(values.shape), order=1)
        if values.shape != full:
            raise GridError(f"resampling {np.shape(sample)} gave {values.shape}, not {target}")
    return values.reshape(target)


def legacy_nmse(reference: np.ndarray, sample: np.ndarray) -> float:
    """``mean((y - y_hat)^2) / mean(y^2)`` after :func:`legacy_resample`; non-finite values give ``inf``."""
    y = np.asarray(reference, dtype=float)
    y_hat = legacy_resample(sample, y.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(np.mean((y - y_hat) ** 2) / np.mean(y**2))
    return value if np.isfinite(value) else float("inf")


def _axis(name: str, values: np.ndarray, length: int, target: np.ndarray, period: float | None) -> np.ndarray:
    """Check one sample axis against its field length and the reference extent; return it increasing."""
    axis = np.asarray(values, dtype=float)
    if axis.ndim != 1 or axis.size != length:
        raise GridError(f"grid '{name}' has shape {axis.shape} but the field has {length} points along it")
    if axis.size < 2:
        raise GridError(f"grid '{name}' needs at least 2 points")
    steps = np.diff(axis)
    if not (np.all(steps > 0) or np.all(steps < 0)):
        raise GridError(f"grid '{name}' is not strictly monotonic")
    axis = np.sort(axis)
    spacing = float(np.max(np.abs(steps)))
    lo, hi = float(np.min(target)), float(np.max(target))
    reach = axis[-1] + (spacing if period else 0.0)
    if axis[0] > lo + spacing or reach < hi - spacing:
        raise GridError(f"grid '{name}' spans [{axis[0]:.6g}, {axis[-1]:.6g}], not the domain [{lo:.6g}, {hi:.6g}]")
    return axis


def sample_on_grid(
    sample: np.ndarray,
    sample_axes: Sequence[np.ndarray],
    reference_axes: Sequence[np.ndarray],
    names: Sequence[str],
    periods: Mapping[str, float] | None = None,
) -> np.ndarray:
    """Linear interpolation of ``sample`` (defined on ``sample_axes``) at the nodes of ``reference_axes``.

    Axes may be given decreasing. Beyond the sample's ends values are held constant, except along the axes in
    ``periods`` (name -> period), where the sample is wrapped around.
    """
    values = np.asarray(sample, dtype=float)
    if values.ndim != len(names):
        raise GridError(f"the field has {values.ndim} dimensions, expected {len(names)} ({', '.join(names)})")
    periods = periods or {}
    grid = []
    for dim, (name, axis, target) in enumerate(zip(names, sample_axes, reference_axes, strict=True)):
        period = periods.get(name)
        raw = np.asarray(axis, dtype=float)
        ordered = _axis(name, raw, values.shape[dim], target, period)
        if raw.size > 1 and raw[1] < raw[0]:
            values = np.flip(values, axis=dim)
        if period:
            start = ordered[0]
            keep = ordered < start + period - 1e-9 * period
            values = np.compress(keep, values, axis=dim)
            ordered = ordered[keep]
            first = np.take(values, [0], axis=dim)
            values = np.concatenate([values, first], axis=dim)
            ordered = np.append(ordered, start + period)
        grid.append(ordered)
    points = []
    for name, axis, target in zip(names, grid, reference_axes, strict=True):
        target = np.asarray(target, dtype=float)
        period = periods.get(name)
        if period:
            target = axis[0] + np.mod(target - axis[0], period)
        points.append(np.clip(target, axis[0], axis[-1]))
    if values.ndim == 1:
        return np.interp(points[0], grid[0], values)
    mesh = np.meshgrid(*points, indexing="ij")
    interpolator = RegularGridInterpolator(tuple(grid), values, method="linear")
    return interpolator(np.stack([m.ravel() for m in mesh], axis=-1)).reshape(mesh[0].shape)


def field_nmse(
    reference: np.ndarray,
    sample: np.ndarray,
    *,
    gauge: str | None = None,
    interior: bool = False,
    scale: float | None = None,
) -> float:
    """NMSE of a sample already on the reference grid, with the case's options for the variable: ``interior``
    compares only nodes off the boundary; ``gauge='mean'`` removes each field's mean over the compared nodes
    (a pressure known up to a constant)."""
    y, y_hat = np.asarray(reference, dtype=float), np.asarray(sample, dtype=float)
    if interior:
        inner = tuple(slice(1, -1) for _ in range(y.ndim))
        y, y_hat = y[inner], y_hat[inner]
    if gauge == "mean":
        y, y_hat = y - y.mean(), y_hat - y_hat.mean()
    elif gauge is not None:
        raise ValueError(f"unknown gauge '{gauge}' (known: mean)")
    return nmse(y, y_hat, scale)
