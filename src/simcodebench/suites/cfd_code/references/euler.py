"""Sod's shock tube on [-1, 1] (diaphragm at 0) at t = 0.25: the exact Riemann solution.

Before t ~ 0.5 no wave reaches the reflective ends, so the solution is that of the unbounded Riemann problem
(other states and times: as long as no wave has reached the ends).
"""

from __future__ import annotations

import numpy as np

from simcodebench.suites.cfd_code.references.solution import Solution
from simcodebench.suites.re4.sod import sod_exact


def shock_tube(
    points: int = 81,
    t_end: float = 0.25,
    gamma: float = 1.4,
    rho_l: float = 1.0,
    p_l: float = 1.0,
    rho_r: float = 0.125,
    p_r: float = 0.1,
) -> Solution:
    """rho, u and the total energy per unit mass ``E = p / ((gamma - 1) rho) + u^2 / 2``, from the states
    ``(rho_l, 0, p_l)`` left of x = 0 and ``(rho_r, 0, p_r)`` right of it (Sod's by default)."""
    x = np.linspace(-1.0, 1.0, points)
    rho, u, p = sod_exact(x, t_end, gamma=gamma, x0=0.0, left=(rho_l, 0.0, p_l), right=(rho_r, 0.0, p_r))
    energy = p / ((gamma - 1.0) * rho) + 0.5 * u**2
    return Solution(
        coords={"x": x},
        fields={"rho": rho, "u": u, "E": energy},
        method="exact Riemann solution (Toro ch. 4) of the unbounded tube",
    )
