"""2-D viscous Burgers equation on [0, 2]^2 with a box of u = v = 2: a fine finite-difference solution.

The published box is ``0.5 <= x, y <= 1``; a fresh variant draws its height and its sides ``x0 <= x <= x1``,
``y0 <= y <= y1`` (on nodes of the output grid, so on nodes of every finer one).

``u = v`` holds for all time (same equation, data and boundary values), so one scalar field
``u_t + u (u_x + u_y) = nu (u_xx + u_yy)`` is integrated: second-order central differences (the cell Peclet
number ``2 h / nu`` stays below 2) and SSP-RK3 on a grid ``refine`` times finer than the output grid. The box
edges that fall on grid lines take the mean of the two sides, which makes the initial data second-order accurate
in the sense of distributions.
"""

from __future__ import annotations

import numpy as np

from simcodebench.suites.cfd_code.references.solution import Solution


def _box_profile(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    tol = 1e-12
    inside = ((x > lo + tol) & (x < hi - tol)).astype(float)
    inside[np.isclose(x, lo, atol=tol) | np.isclose(x, hi, atol=tol)] = 0.5
    return inside


def viscous_burgers_2d(
    points: int = 41,
    nu: float = 0.01,
    t_end: float = 0.027,
    refine: int = 8,
    height: float = 2.0,
    box_x: tuple[float, float] = (0.5, 1.0),
    box_y: tuple[float, float] = (0.5, 1.0),
) -> Solution:
    """The solution at ``t_end``, sampled on ``points`` x ``points`` nodes (every ``refine``-th fine node), from
    ``u = v = height`` on the box ``box_x`` by ``box_y`` and 1 elsewhere."""
    n = (points - 1) * refine + 1
    x = np.linspace(0.0, 2.0, n)
    h = x[1] - x[0]
    u = 1.0 + (height - 1.0) * np.outer(_box_profile(x, *box_y), _box_profile(x, *box_x))
    steps = int(np.ceil(t_end / min(0.2 * h / (2.0 * max(height, 2.0)), 0.2 * h * h / nu)))
    dt = t_end / steps

    def rhs(w: np.ndarray) -> np.ndarray:
        out = np.zeros_like(w)
        c = w[1:-1, 1:-1]
        grad = (w[1:-1, 2:] - w[1:-1, :-2] + w[2:, 1:-1] - w[:-2, 1:-1]) / (2.0 * h)
        lap = (w[1:-1, 2:] + w[1:-1, :-2] + w[2:, 1:-1] + w[:-2, 1:-1] - 4.0 * c) / h**2
        out[1:-1, 1:-1] = -c * grad + nu * lap
        return out

    for _ in range(steps):
        u1 = u + dt * rhs(u)
        u2 = 0.75 * u + 0.25 * (u1 + dt * rhs(u1))
        u = u / 3.0 + 2.0 / 3.0 * (u2 + dt * rhs(u2))
    coarse = u[::refine, ::refine]
    return Solution(
        coords={"y": x[::refine], "x": x[::refine]},
        fields={"u": coarse, "v": coarse.copy()},
        method=f"central differences + SSP-RK3 on a {n}x{n} grid ({steps} steps), sampled",
    )
