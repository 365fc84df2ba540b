"""1-D viscous Burgers equation, periodic on [0, 2 pi]: the closed-form Cole-Hopf solution of Barba's step 4."""

from __future__ import annotations

import numpy as np

from simcodebench.suites.cfd_code.references.solution import Solution


def burgers_sawtooth(x: np.ndarray, t: float, nu: float, images: int = 3) -> np.ndarray:
    """``u = -2 nu phi_x / phi + 4`` with ``phi`` a sum of heat kernels centred at ``4 t + 2 pi k``.

    ``phi(x, 0) = exp(-x^2 / 4 nu) + exp(-(x - 2 pi)^2 / 4 nu)`` is the problem's initial condition; summing the
    periodic images ``k = -images..images`` makes the solution 2 pi-periodic (the extra images change nothing in
    double precision at the problem's time).
    """
    d = 4.0 * nu * (t + 1.0)
    shifts = x[:, None] - 4.0 * t - 2.0 * np.pi * np.arange(-images, images + 1)[None, :]
    exponents = -(shifts**2) / d
    top = exponents.max(axis=1, keepdims=True)  # factor out the largest term: no underflow for small nu
    weights = np.exp(exponents - top)
    phi = weights.sum(axis=1)
    dphi = (-2.0 * shifts / d * weights).sum(axis=1)
    return -2.0 * nu * dphi / phi + 4.0


def burgers_1d(points: int = 101, nu: float = 0.07, t_end: float = 0.14 * np.pi, images: int = 3) -> Solution:
    """The solution at ``t_end`` on ``points`` nodes of [0, 2 pi] (both ends included), ``images`` periodic
    images each side."""
    x = np.linspace(0.0, 2.0 * np.pi, points)
    return Solution(
        coords={"x": x},
        fields={"u": burgers_sawtooth(x, t_end, nu, images)},
        method="closed form (Cole-Hopf transform of periodic heat kernels)",
    )
