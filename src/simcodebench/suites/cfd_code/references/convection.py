"""Convection problems with exact solutions.

- 1-D linear convection-diffusion of a Gaussian, periodic on [-5, 5]: a sum of periodic images.
- 1-D inviscid Burgers ("nonlinear convection"), periodic on [0, 2 pi]: the Lax-Oleinik formula.
- 2-D linear convection of a box: the box translated.
- 2-D inviscid convection of a box with ``u = v`` (the "2-D convection" and "2-D inviscid Burgers" problems):
  ``u = v`` holds for all time, and on each line ``x - y = d`` the field obeys the 1-D Burgers equation
  ``g_t + g g_x = 0`` with a box profile, whose entropy solution (rarefaction, plateau, shock, and after the fan
  catches the shock ``s = a + t + sqrt(t t*)``) is written in closed form.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from simcodebench.suites.cfd_code.references.solution import Solution


def linear_convection_1d(
    points: int = 101, c: float = 1.0, eps: float = 5e-4, t_end: float = 10.0, images: int = 4
) -> Solution:
    """``u_t + c u_x = eps u_xx`` with ``u(x, 0) = exp(-x^2)``, period 10: spreading Gaussians, ``images``
    periodic images each side summed."""
    x = np.linspace(-5.0, 5.0, points)
    spread = 1.0 + 4.0 * eps * t_end
    shifts = x[:, None] - c * t_end - 10.0 * np.arange(-images, images + 1)[None, :]
    u = (np.exp(-(shifts**2) / spread) / np.sqrt(spread)).sum(axis=1)
    return Solution(coords={"x": x}, fields={"u": u}, method="exact (periodic images of a spreading Gaussian)")


def _sawtooth_potential(y: np.ndarray, a: float = 1.0, b: float = 0.5) -> np.ndarray:
    """Antiderivative of the 2 pi-periodic extension of ``a sin y + b sin(y / 2)`` (``4 b`` per period)."""
    period = 2.0 * np.pi
    k = np.floor(y / period)
    r = y - k * period
    return 4.0 * b * k + a * (1.0 - np.cos(r)) + 2.0 * b * (1.0 - np.cos(0.5 * r))


def _initial_nonlinear(y: np.ndarray, a: float = 1.0, b: float = 0.5) -> np.ndarray:
    r = np.mod(y, 2.0 * np.pi)
    return a * np.sin(r) + b * np.sin(0.5 * r)


def nonlinear_convection_1d(
    points: int = 315, t_end: float = 5.0, samples: int = 20001, a: float = 1.0, b: float = 0.5
) -> Solution:
    """Entropy solution of ``u_t + u u_x = 0`` from ``u(x, 0) = a sin x + b sin(x / 2)`` on [0, 2 pi), extended
    periodically, by Lax-Oleinik: ``u = (x - y*) / t`` with ``y*`` minimising ``U0(y) + (x - y)^2 / (2 t)``; a
    dense search (``samples`` points) then a bounded 1-D minimisation locate ``y*``."""
    x = np.linspace(0.0, 2.0 * np.pi, points)
    fine = np.linspace(0.0, 2.0 * np.pi, 4001)
    lo, hi = _initial_nonlinear(fine, a, b).min() - 0.1, _initial_nonlinear(fine, a, b).max() + 0.1
    u = np.empty_like(x)
    for i, xi in enumerate(x):
        y = np.linspace(xi - t_end * hi, xi - t_end * lo, samples)
        cost = _sawtooth_potential(y, a, b) + (xi - y) ** 2 / (2.0 * t_end)
        k = int(np.argmin(cost))
        h = y[1] - y[0]
        best = minimize_scalar(
            lambda s, xi=xi: float(_sawtooth_potential(np.array([s]), a, b)[0] + (xi - s) ** 2 / (2.0 * t_end)),
            bounds=(y[k] - h, y[k] + h),
            method="bounded",
            options={"xatol": 1e-13},
        )
        u[i] = (xi - best.x) / t_end
    return Solution(coords={"x": x}, fields={"u": u}, method="exact entropy solution (Lax-Oleinik formula)")


def linear_convection_2d(points: int = 81, c: float = 1.0, t_end: float = 0.5) -> Solution:
    """The box ``u = 2`` on [0.5, 1]^2 moved by ``(c t, c t)``; ``u = 1`` elsewhere (inflow and outflow alike)."""
    x = np.linspace(0.0, 2.0, points)
    tol = 1e-12
    inside = (x >= 0.5 + c * t_end - tol) & (x <= 1.0 + c * t_end + tol)
    u = 1.0 + np.outer(inside, inside).astype(float)
    return Solution(coords={"y": x, "x": x}, fields={"u": u}, method="exact (translated box)")


def box_burgers(x: np.ndarray, t: float, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Entropy solution at ``x`` of ``g_t + g g_x = 0``, ``g(x, 0) = 2`` on [a, b] and 1 elsewhere (``t > 0``)."""
    g = np.ones(np.broadcast(x, a, b).shape)
    x, a, b = np.broadcast_arrays(x, a, b)
    width = b - a
    catch = 2.0 * width  # when the head of the fan reaches the shock
    before = width > 0.0
    fan_end = np.where(t <= catch, a + 2.0 * t, a + t + np.sqrt(t * np.maximum(catch, 0.0)))
    fan = before & (x >= a + t) & (x < fan_end)
    g[fan] = (x[fan] - a[fan]) / t
    plateau = before & (t <= catch) & (x >= a + 2.0 * t) & (x < b + 1.5 * t)
    g[plateau] = 2.0
    return g


def box_convection_2d(points: int = 101, t_end: float = 0.32, height: float = 2.0) -> Solution:
    """``u = v`` solving ``u_t + u u_x + v u_y = 0`` with the box [0.5, 1]^2 at ``height`` in a field of 1, on
    [0, 2]^2.

    On the line ``y = x - d`` the box occupies ``x`` in ``[max(0.5, 0.5 + d), min(1, 1 + d)]``. A box of height
    ``h`` is the height-2 solution ``G`` seen in a moving frame with time scaled by ``h - 1``:
    ``g(x, t) = 1 + (h - 1) (G(x + (h - 2) t, (h - 1) t) - 1)``.
    """
    x = np.linspace(0.0, 2.0, points)
    xx, yy = np.meshgrid(x, x)
    d = xx - yy
    a = np.maximum(0.5, 0.5 + d)
    b = np.minimum(1.0, 1.0 + d)
    rise = height - 1.0
    u = 1.0 + rise * (box_burgers(xx + (height - 2.0) * t_end, rise * t_end, a, b) - 1.0)
    return Solution(
        coords={"y": x, "x": x},
        fields={"u": u, "v": u.copy()},
        method="exact entropy solution (u = v; 1-D Burgers box solution along each diagonal)",
    )
