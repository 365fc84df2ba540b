"""Heat-equation problems with Dirichlet boundaries, solved exactly by sine series.

1-D diffusion (a box on [0, 2]), 2-D diffusion (a box on [0, 2]^2, the product of two 1-D solutions) and the
2-D unsteady heat equation with a Gaussian source on [-1, 1]^2.
"""

from __future__ import annotations

import numpy as np

from simcodebench.suites.cfd_code.references.solution import Solution


def box_diffusion(x: np.ndarray, t: float, nu: float, lo: float, hi: float, length: float, modes: int = 4000):
    """``w(x, t)`` for ``w_t = nu w_xx`` on [0, length], ``w = 0`` at both ends, ``w(x, 0) = 1`` on [lo, hi].

    Sine series ``sum_n b_n exp(-nu (n pi / L)^2 t) sin(n pi x / L)`` with
    ``b_n = 2 / (n pi) (cos(n pi lo / L) - cos(n pi hi / L))``; ``modes`` terms reach round-off for ``t > 0``.
    """
    n = np.arange(1, modes + 1)
    k = n * np.pi / length
    coefficients = 2.0 / (n * np.pi) * (np.cos(k * lo) - np.cos(k * hi)) * np.exp(-nu * k**2 * t)
    return np.sin(np.outer(np.asarray(x, dtype=float), k)) @ coefficients


def diffusion_1d(points: int = 41, nu: float = 0.3, t_end: float = 0.0333, modes: int = 4000) -> Solution:
    """u = 1 + box diffusion on [0, 2] (u = 2 on [0.5, 1] at t = 0; u = 1 held at both ends); ``modes`` series
    terms."""
    x = np.linspace(0.0, 2.0, points)
    return Solution(
        coords={"x": x},
        fields={"u": 1.0 + box_diffusion(x, t_end, nu, 0.5, 1.0, 2.0, modes)},
        method="exact sine series (u = 1 held at x = 0 and x = 2)",
    )


def diffusion_2d(points: int = 31, nu: float = 0.05, t_end: float = 0.3777, modes: int = 4000) -> Solution:
    """u = 1 + w(x) w(y): the box [0.5, 1]^2 on [0, 2]^2 diffuses as a product of 1-D solutions (``modes``
    series terms each)."""
    x = np.linspace(0.0, 2.0, points)
    w = box_diffusion(x, t_end, nu, 0.5, 1.0, 2.0, modes)
    return Solution(
        coords={"y": x, "x": x},
        fields={"u": 1.0 + np.outer(w, w)},
        method="exact sine series (product of two 1-D box solutions)",
    )


def unsteady_heat(
    points: int = 41, alpha: float = 1.0, q0: float = 200.0, sigma: float = 0.1, t_end: float = 3.0, modes: int = 200
) -> Solution:
    """T on [-1, 1]^2 with T = 1 on the boundary, source and initial excess ``q0 exp(-(x^2 + y^2) / 2 sigma^2)``.

    With ``phi_m(x) = sin(m pi (x + 1) / 2)`` the Gaussian has the coefficients
    ``g_m = sin(m pi / 2) sqrt(2 pi) sigma exp(-(m pi sigma / 2)^2 / 2)`` (its tails beyond |x| = 1 are below
    e^-50); each mode then evolves exactly: ``c_mn (q0 e^{-lambda t} + q0 (1 - e^{-lambda t}) / lambda)``.
    """
    x = np.linspace(-1.0, 1.0, points)
    m = np.arange(1, modes + 1)
    k = m * np.pi / 2.0
    g = np.sin(k) * np.sqrt(2.0 * np.pi) * sigma * np.exp(-0.5 * (k * sigma) ** 2)
    lam = alpha * (k[:, None] ** 2 + k[None, :] ** 2)
    decay = np.exp(-lam * t_end)
    amplitude = np.outer(g, g) * (q0 * decay + q0 * (1.0 - decay) / lam)
    basis = np.sin(np.outer(x + 1.0, k))
    excess = basis @ amplitude @ basis.T
    excess[[0, -1], :] = 0.0
    excess[:, [0, -1]] = 0.0
    return Solution(
        coords={"y": x, "x": x},
        fields={"T": 1.0 + excess},
        method="exact double sine series of the forced heat equation",
    )
