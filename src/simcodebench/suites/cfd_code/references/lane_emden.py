"""Lane-Emden equation on the unit ball, ``lap f + f^n = 0``, ``f(1) = 0``, regular at the centre.

With ``theta`` the classical solution (``theta(0) = 1``, ``theta'(0) = 0``) and ``xi_1`` its first zero,
``f(r) = xi_1^(2 / (n - 1)) theta(xi_1 r)`` solves the problem (the nontrivial solution the Dedalus example
converges to). ``theta`` is integrated from a series start at ``xi = 1e-6`` to ``rtol = 1e-13`` (by default).
The output nodes are those of the upstream Dedalus run: ``r = sqrt((z + 1) / 2)`` with ``z`` the
Gauss-Jacobi(0, 1/2) nodes.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import roots_jacobi

from simcodebench.suites.cfd_code.references.solution import Solution


def dedalus_ball_nodes(points: int = 128) -> np.ndarray:
    """Radial grid of a Dedalus ``BallBasis`` with ``points`` radial modes (increasing)."""
    z, _ = roots_jacobi(points, 0.0, 0.5)
    return np.sqrt((np.sort(z) + 1.0) / 2.0)


def lane_emden(points: int = 128, index: float = 3.0, start: float = 1e-6, rtol: float = 1e-13) -> Solution:
    """``f`` at the ball's radial nodes; ``meta['xi1']`` is the first zero of ``theta``. ``start`` (where the
    series start hands over to the integrator) and ``rtol`` are the solution's truncation."""
    series = (1.0 - start**2 / 6.0, -start / 3.0)

    def rhs(xi: float, y: np.ndarray) -> list[float]:
        return [y[1], -(max(y[0], 0.0) ** index) - 2.0 * y[1] / xi]

    def surface(xi: float, y: np.ndarray) -> float:
        return y[0]

    surface.terminal, surface.direction = True, -1
    sol = solve_ivp(rhs, (start, 20.0), series, rtol=rtol, atol=1e-2 * rtol, events=surface, dense_output=True)
    xi1 = float(sol.t_events[0][0])
    r = dedalus_ball_nodes(points)
    xi = np.maximum(xi1 * r, start)
    theta = np.where(xi1 * r > start, sol.sol(xi)[0], 1.0)
    return Solution(
        coords={"r": r},
        fields={"f": xi1 ** (2.0 / (index - 1.0)) * theta},
        method=f"scaled classical Lane-Emden solution (ODE integrated to rtol {rtol:g})",
        meta={"xi1": xi1},
    )
