"""Channel flows driven by a uniform body force or pressure gradient.

- Laminar start-up (the "2-D Navier-Stokes channel"): from rest, ``u_t = F + nu u_yy`` with no slip at
  y = 0 and y = h; x-periodicity and symmetry keep ``v = 0`` and the pressure uniform. Exact sine series.
- Fully developed turbulent channel with Cess's eddy viscosity: ``(mu_eff u')' = -1``, integrated exactly:
  ``u(y) = int_0^y (1 - s) / mu_eff(s) ds``.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import quad

from simcodebench.suites.cfd_code.references.solution import Solution


def channel_startup(
    nx: int = 41,
    ny: int = 41,
    nu: float = 0.1,
    force: float = 1.0,
    height: float = 2.0,
    t_end: float = 5.0,
    modes: int = 2000,
) -> Solution:
    """``u = F y (h - y) / (2 nu) - sum_{n odd} 4 F h^2 / (nu (n pi)^3) sin(n pi y / h) exp(-nu (n pi / h)^2 t)``.

    The pressure is uniform; its level is arbitrary (the problem fixes only its gradient), reported as 0. The
    series keeps the odd ``n`` below ``modes``.
    """
    x, y = np.linspace(0.0, 2.0, nx), np.linspace(0.0, height, ny)
    n = np.arange(1, modes + 1, 2)
    k = n * np.pi / height
    transient = np.sin(np.outer(y, k)) @ (
        4.0 * force * height**2 / (nu * (n * np.pi) ** 3) * np.exp(-nu * k**2 * t_end)
    )
    profile = force * y * (height - y) / (2.0 * nu) - transient
    profile[[0, -1]] = 0.0
    u = np.repeat(profile[:, None], nx, axis=1)
    return Solution(
        coords={"y": y, "x": x},
        fields={"u": u, "v": np.zeros_like(u), "p": np.zeros_like(u)},
        method="exact sine series of the start-up Poiseuille flow (v = 0, uniform p)",
    )


def tanh_mesh(points: int = 100, height: float = 2.0, stretch: float = 6.0) -> np.ndarray:
    """Wall-clustered nodes ``y = H (1 + tanh(s (i / (n - 1) - 1/2)) / tanh(s / 2)) / 2`` (upstream's mesh)."""
    i = np.linspace(0.0, 1.0, points) - 0.5
    return height * (1.0 + np.tanh(stretch * i) / np.tanh(stretch / 2.0)) / 2.0


def cess_viscosity(y: np.ndarray | float, re_tau: float, kappa: float, damping: float) -> np.ndarray:
    """``mu_eff / mu = 1/2 (1 + kappa^2 Re^2 / 9 (2d - d^2)^2 (3 - 4d + 2d^2)^2 (1 - exp(-d Re / A))^2)^(1/2) + 1/2``
    with ``d`` the distance to the nearer wall (half-height 1)."""
    d = np.minimum(y, 2.0 - np.asarray(y, dtype=float))
    damp = 1.0 - np.exp(-d * re_tau / damping)
    core = (kappa * re_tau) ** 2 / 9.0 * (2.0 * d - d**2) ** 2 * (3.0 - 4.0 * d + 2.0 * d**2) ** 2 * damp**2
    return 0.5 * np.sqrt(1.0 + core) + 0.5


def turbulent_channel(
    points: int = 100, re_tau: float = 395.0, kappa: float = 0.42, damping: float = 25.4, subdivide: int = 1
) -> Solution:
    """u+ on the wall-clustered mesh: ``mu = 1 / Re_tau``, unit forcing, so the friction velocity is 1. The
    quadrature runs over each mesh interval split into ``subdivide`` equal parts."""
    y = tanh_mesh(points)
    mu = 1.0 / re_tau

    def slope(s: float) -> float:
        return (1.0 - s) / (mu * float(cess_viscosity(s, re_tau, kappa, damping)))

    half = y <= 1.0
    cuts = np.concatenate([np.linspace(a, b, subdivide + 1)[:-1] for a, b in zip(y[:-1], y[1:], strict=True)])
    cuts = np.append(cuts, y[-1])
    pieces = [
        quad(slope, a, b, epsabs=1e-13, epsrel=1e-13, limit=200)[0] for a, b in zip(cuts[:-1], cuts[1:], strict=True)
    ]
    increments = np.add.reduceat(pieces, np.arange(0, len(pieces), subdivide))
    u = np.concatenate([[0.0], np.cumsum(increments)])
    u[~half] = u[::-1][~half]  # symmetric about the centre line; removes the quadrature's drift at y = 2
    return Solution(
        coords={"y": y},
        fields={"u": u},
        method="Cess eddy viscosity (mu_eff = mu + mu_t), (mu_eff u')' = -1 integrated by adaptive quadrature",
    )
