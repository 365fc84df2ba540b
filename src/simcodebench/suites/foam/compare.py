"""FoamBench's accuracy: NMSE of each field at the reference cell centres, in physical coordinates.

NMSE = sum((y - yhat)^2) / sum(y^2) with y the reference and yhat the sample (vectors: summed over components).
The sample is taken as it is where its cell centres are the reference's; otherwise it is interpolated linearly
at the reference centres (nearest cell outside its hull), in the coordinates the reference varies in (the empty
direction of a 2-D case is dropped). The score is FoamBench's: 1 at NMSE <= 10%, 0.5 at <= 30%, else 0.
"""

from __future__ import annotations

import numpy as np
from scipy.interpolate import LinearNDInterpolator, NearestNDInterpolator
from scipy.spatial import QhullError

SCORE_BANDS = ((0.1, 1.0), (0.3, 0.5))
"""(upper NMSE, score) pairs; above the last the score is 0 (the paper's <=; the released code used <)."""
SAME_MESH_TOLERANCE = 1e-9
FLAT_AXIS = 1e-9


def nmse(reference: np.ndarray, sample: np.ndarray) -> float:
    """sum((y - yhat)^2) / sum(y^2); for an all-zero reference, 0 when the sample is zero too, else infinity."""
    error = float(np.sum((reference - sample) ** 2))
    norm = float(np.sum(reference**2))
    if norm == 0.0:
        return 0.0 if error == 0.0 else float("inf")
    return error / norm


def nmse_score(value: float) -> float:
    """FoamBench's score of an NMSE."""
    return next((score for upper, score in SCORE_BANDS if value <= upper), 0.0)


def _varying_axes(points: np.ndarray) -> np.ndarray:
    extent = points.max(axis=0) - points.min(axis=0)
    return extent > FLAT_AXIS * max(float(extent.max()), 1e-300)


def same_mesh(reference: np.ndarray, sample: np.ndarray) -> bool:
    """Whether two sets of cell centres are the same cells in the same order."""
    if reference.shape != sample.shape:
        return False
    scale = float(np.abs(reference).max()) or 1.0
    return bool(np.allclose(reference, sample, rtol=0.0, atol=SAME_MESH_TOLERANCE * scale))


def sample_at(centres: np.ndarray, values: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """``values`` given at ``centres`` evaluated at ``targets``: linear inside the hull, nearest outside."""
    axes = _varying_axes(targets)
    source, wanted = centres[:, axes], targets[:, axes]
    if axes.sum() == 1:
        order = np.argsort(source[:, 0])
        columns = values.reshape(len(values), -1)[order]
        x = source[order, 0]
        sampled = np.column_stack([np.interp(wanted[:, 0], x, c) for c in columns.T])
        return sampled.reshape((len(targets), *values.shape[1:]))
    try:
        linear = LinearNDInterpolator(source, values)(wanted)
    except QhullError:  # the sample's cells are degenerate in the reference's coordinates: nearest only
        return NearestNDInterpolator(source, values)(wanted)
    missing = np.isnan(linear).reshape(len(targets), -1).any(axis=1)
    if missing.any():
        linear[missing] = NearestNDInterpolator(source, values)(wanted[missing])
    return linear


def compare_fields(
    ref_centres: np.ndarray,
    ref_fields: dict[str, np.ndarray],
    centres: np.ndarray,
    fields: dict[str, np.ndarray],
) -> tuple[dict[str, float], bool]:
    """NMSE per field present in both, and whether the sample had to be interpolated."""
    interpolated = not same_mesh(ref_centres, centres)
    errors = {}
    for name in sorted(set(ref_fields) & set(fields)):
        sample = sample_at(centres, fields[name], ref_centres) if interpolated else fields[name]
        errors[name] = nmse(ref_fields[name], sample)
    return errors, interpolated
