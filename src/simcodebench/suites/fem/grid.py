"""The evaluation grid of App. J and the masked relative L2 error measured on it.

The grid is ``linspace`` over the bounding box with both endpoints, ``nx`` (``ny``, ``nz``) points per axis, and a
field on it is stored ``u[j, i] = u(x_i, y_j)`` (``u[k, j, i]`` with ``z`` first in 3D). Points outside the
domain (see :mod:`.domains`) are NaN in the reference and are not scored.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcodebench.suites.fem.domains import inside

AXES = ("nx", "ny", "nz")
MARGIN_FRACTION = 0.005
"""Points closer than this fraction of the bounding box's largest side to a curved boundary are not scored."""


def axes(eval_grid: dict[str, Any]) -> list[np.ndarray]:
    """The grid's coordinates along x, y (and z)."""
    box = eval_grid["bbox"]
    return [np.linspace(box[2 * i], box[2 * i + 1], int(eval_grid[n])) for i, n in enumerate(AXES) if n in eval_grid]


def shape(eval_grid: dict[str, Any]) -> tuple[int, ...]:
    """``(ny, nx)`` or ``(nz, ny, nx)``."""
    return tuple(int(eval_grid[n]) for n in reversed(AXES) if n in eval_grid)


def points(eval_grid: dict[str, Any]) -> np.ndarray:
    """Every grid point as an N x 3 array, x varying fastest (the C order of a field of :func:`shape`)."""
    coords = np.meshgrid(*reversed(axes(eval_grid)), indexing="ij")
    out = np.zeros((coords[0].size, 3))
    for i, values in enumerate(reversed(coords)):
        out[:, i] = values.ravel()
    return out


def margin(eval_grid: dict[str, Any]) -> float:
    """The distance from a curved boundary below which a point is not scored."""
    box = eval_grid["bbox"]
    return MARGIN_FRACTION * max(box[2 * i + 1] - box[2 * i] for i in range(len(box) // 2))


def domain_mask(case_spec: dict[str, Any]) -> np.ndarray:
    """Boolean field of :func:`shape`: True where a point is scored."""
    grid = case_spec["eval_grid"]
    return inside(case_spec["domain"], points(grid), margin(grid)).reshape(shape(grid))


def relative_l2(u: np.ndarray, reference: np.ndarray) -> float:
    """``||u - ref|| / ||ref||`` over the finite points of ``reference`` (absolute when ``||ref|| < 1e-15``).

    The caller has already checked that ``u`` has the reference's shape and is finite where it is.
    """
    valid = np.isfinite(reference)
    diff = np.linalg.norm(u[valid] - reference[valid])
    norm = np.linalg.norm(reference[valid])
    return float(diff / norm) if norm >= 1e-15 else float(diff)


def diagnostics(u: np.ndarray, reference: np.ndarray) -> dict[str, float]:
    """RMSE, MAE, max error and R^2 (when the reference is not constant) over the valid points (App. H.2;
    they never affect the verdict)."""
    valid = np.isfinite(reference)
    diff = u[valid] - reference[valid]
    spread = float(np.sum((reference[valid] - reference[valid].mean()) ** 2))
    found = {
        "rmse": float(np.sqrt(np.mean(diff**2))),
        "mae": float(np.mean(np.abs(diff))),
        "max_error": float(np.max(np.abs(diff))),
        "valid_points": float(valid.sum()),
    }
    if spread > 0:
        found["r2"] = float(1.0 - np.sum(diff**2) / spread)
    return found
