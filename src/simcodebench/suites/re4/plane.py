"""Re^4's 2-D domains (a box minus disks) and scoring a sample given at its own points against a reference.

A sample is a set of points ``(x, y)`` with field values: a grid (any orientation) or the nodes of its own mesh.
Points farther than ``tolerance`` outside the domain (beyond the box, or inside a disk by more than
``tolerance``) are ignored, whatever they hold. The remaining points are triangulated (Delaunay) and the sample
is interpolated linearly onto the reference's evaluation points; evaluation points outside the sample's convex
hull take the value of the nearest sample point. Every evaluation point must lie within ``reach`` of a sample
point, otherwise the sample does not cover the domain (a ``format`` failure). The error is the relative L2 error
over the evaluation points (a uniform grid masked to the domain, so equal weights approximate the integral).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.tri import Triangulation


@dataclass(frozen=True)
class Domain:
    """The rectangle ``box = (x0, x1, y0, y1)`` minus the closed disks ``(cx, cy, r)``."""

    box: tuple[float, float, float, float]
    disks: tuple[tuple[float, float, float], ...] = ()

    @classmethod
    def from_params(cls, params: dict) -> Domain:
        """The domain of a case's ``box`` and ``disks`` parameters."""
        return cls(
            tuple(float(v) for v in params["box"]),  # type: ignore[arg-type]
            tuple(tuple(float(v) for v in disk) for disk in params.get("disks", [])),  # type: ignore[misc]
        )

    def outside_distance(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """How far each point lies outside the domain (0 inside or on the boundary)."""
        x0, x1, y0, y1 = self.box
        beyond = np.hypot(np.maximum(np.maximum(x0 - x, x - x1), 0.0), np.maximum(np.maximum(y0 - y, y - y1), 0.0))
        depth = np.zeros_like(beyond)
        for cx, cy, r in self.disks:
            depth = np.maximum(depth, r - np.hypot(x - cx, y - cy))
        return np.maximum(beyond, depth)

    def grid(self, nx: int, ny: int) -> np.ndarray:
        """The points (N x 2) of an ``nx`` by ``ny`` grid on the box that lie in the domain, x fastest."""
        x0, x1, y0, y1 = self.box
        gx, gy = np.meshgrid(np.linspace(x0, x1, nx), np.linspace(y0, y1, ny))
        points = np.column_stack([gx.ravel(), gy.ravel()])
        return points[self.outside_distance(points[:, 0], points[:, 1]) == 0.0]


def flatten_sample(fields: dict[str, np.ndarray], names: list[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The sample's points (N x 2) and the named fields as flat arrays; ``ValueError`` when shapes differ."""
    shape = np.shape(fields["x"])
    for name in ["y", *names]:
        if np.shape(fields[name]) != shape:
            raise ValueError(f"'{name}' has shape {np.shape(fields[name])}, but 'x' has {shape}")
    points = np.column_stack([np.ravel(fields["x"]), np.ravel(fields["y"])])
    return points, {name: np.ravel(fields[name]).astype(float) for name in names}


def to_reference_points(
    points: np.ndarray,
    values: dict[str, np.ndarray],
    targets: np.ndarray,
    domain: Domain,
    tolerance: float,
    reach: float,
) -> dict[str, np.ndarray]:
    """The sample's fields interpolated onto ``targets`` (the rules in the module docstring); ``ValueError``
    names what is wrong (too few points in the domain, a part of the domain not covered)."""
    keep = domain.outside_distance(points[:, 0], points[:, 1]) <= tolerance
    points = points[keep]
    if len(points) < 3:
        raise ValueError(f"only {len(points)} sample point(s) lie in the domain; at least 3 are needed")
    points, first = np.unique(points, axis=0, return_index=True)
    # scipy here, not at import: seconds in every fresh process (a cluster job), most of which need none
    from scipy.interpolate import LinearNDInterpolator
    from scipy.spatial import cKDTree

    distance, nearest = cKDTree(points).query(targets)
    worst = int(np.argmax(distance))
    if distance[worst] > reach:
        x, y = targets[worst]
        raise ValueError(
            f"the sample does not cover the domain: ({x:.4g}, {y:.4g}) is {distance[worst]:.3g} from the nearest "
            f"sample point (at most {reach:g} allowed)"
        )
    columns = np.column_stack([values[name][keep][first] for name in values])
    try:
        inside = LinearNDInterpolator(points, columns)(targets)
    except Exception as exc:  # scipy's Qhull errors: all points on a line, and the like
        raise ValueError(f"the sample points cannot be triangulated ({type(exc).__name__})") from None
    gaps = ~np.isfinite(inside[:, 0])
    inside[gaps] = columns[nearest[gaps]]
    return {name: inside[:, i] for i, name in enumerate(values)}


def speed(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The velocity magnitude ``sqrt(u^2 + v^2)``."""
    return np.hypot(u, v)


def triangulation(x: np.ndarray, y: np.ndarray, domain: Domain) -> Triangulation:
    """The Delaunay triangulation of the points ``(x, y)`` for drawing, with the triangles whose centroid lies
    outside the domain (across a hole) masked."""
    from matplotlib.tri import Triangulation

    mesh = Triangulation(x, y)
    centroid_x, centroid_y = x[mesh.triangles].mean(axis=1), y[mesh.triangles].mean(axis=1)
    mesh.set_mask(domain.outside_distance(centroid_x, centroid_y) > 0.0)
    return mesh
