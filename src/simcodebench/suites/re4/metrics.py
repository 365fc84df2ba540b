"""Error norms of a sample against a reference, and moving a 1-D sample onto the reference grid."""

from __future__ import annotations

import numpy as np


def relative_l2(sample: np.ndarray, reference: np.ndarray) -> float:
    """``||sample - reference||_2 / ||reference||_2`` over matching points (Re^4's Eq. 1)."""
    sample, reference = np.asarray(sample, dtype=float), np.asarray(reference, dtype=float)
    scale = np.linalg.norm(reference)
    if scale == 0.0:
        raise ValueError("the reference is zero everywhere: a relative error is undefined")
    return float(np.linalg.norm(sample - reference) / scale)


def linf(sample: np.ndarray, reference: np.ndarray) -> float:
    """``max |sample - reference|`` over matching points."""
    return float(np.max(np.abs(np.asarray(sample, dtype=float) - np.asarray(reference, dtype=float))))


def check_grid(x_sample: np.ndarray, y_sample: np.ndarray, lo: float, hi: float) -> None:
    """Require a 1-D, strictly increasing grid as long as its field that reaches both ends of ``[lo, hi]``
    to within one sample spacing (so cell centres cover their domain); raise ``ValueError`` with the reason."""
    x, y = np.asarray(x_sample, dtype=float), np.asarray(y_sample, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"the grid (shape {x.shape}) and the field (shape {y.shape}) do not match")
    if x.size < 2:
        raise ValueError("the grid needs at least 2 points")
    steps = np.diff(x)
    if np.any(steps <= 0.0):
        first = int(np.argmax(steps <= 0.0))
        raise ValueError(f"the grid is not strictly increasing (x[{first + 1}] <= x[{first}])")
    if x[0] > lo + steps[0] or x[-1] < hi - steps[-1]:
        raise ValueError(f"the grid [{x[0]:.6g}, {x[-1]:.6g}] does not cover the domain [{lo:.6g}, {hi:.6g}]")


def interpolate_to(x_sample: np.ndarray, y_sample: np.ndarray, x_ref: np.ndarray) -> np.ndarray:
    """Linear interpolation of ``y_sample(x_sample)`` at ``x_ref`` after :func:`check_grid` on ``x_ref``'s
    range; values beyond the sample's ends are held constant."""
    check_grid(x_sample, y_sample, float(np.min(x_ref)), float(np.max(x_ref)))
    return np.interp(
        np.asarray(x_ref, dtype=float), np.asarray(x_sample, dtype=float), np.asarray(y_sample, dtype=float)
    )


def relative_l2_at_sample(x_sample: np.ndarray, y_sample: np.ndarray, x_ref: np.ndarray, y_ref: np.ndarray) -> float:
    """Relative L2 error measured at the sample's own points inside the reference's domain.

    The (much finer) reference is interpolated onto the sample's points and the squared errors are weighted
    by trapezoidal quadrature weights of the sample grid, so the result approximates
    ``||u_s - u||_L2 / ||u||_L2`` and does not depend on how the sample spaces its points. Comparing there,
    rather than interpolating the sample onto the reference grid, keeps a shock that falls between two
    sample points from counting as error when the sample's values are exact.
    """
    lo, hi = float(np.min(x_ref)), float(np.max(x_ref))
    check_grid(x_sample, y_sample, lo, hi)
    x, y = np.asarray(x_sample, dtype=float), np.asarray(y_sample, dtype=float)
    inside = (x >= lo) & (x <= hi)
    x, y = x[inside], y[inside]
    if x.size < 2:
        raise ValueError("fewer than 2 grid points lie inside the domain")
    exact = np.interp(x, np.asarray(x_ref, dtype=float), np.asarray(y_ref, dtype=float))
    weights = np.zeros_like(x)
    weights[1:] += 0.5 * np.diff(x)
    weights[:-1] += 0.5 * np.diff(x)
    scale = float(np.sum(weights * exact**2))
    if scale == 0.0:
        raise ValueError("the reference is zero everywhere: a relative error is undefined")
    return float(np.sqrt(np.sum(weights * (y - exact) ** 2) / scale))
