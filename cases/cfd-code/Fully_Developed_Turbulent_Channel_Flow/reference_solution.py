"""Fully developed turbulent channel flow with Cess's eddy viscosity, Re_tau = 395
(oracle for cfd-code/Fully_Developed_Turbulent_Channel_Flow).

(mu_eff u')' = -1 with mu_eff = mu (1/2 sqrt(1 + kappa^2 Re^2 / 9 (2d - d^2)^2 (3 - 4d + 2d^2)^2
(1 - exp(-d Re / A))^2) + 1/2), d the wall distance (the stated formula gives mu_t / mu: with its "- 1/2"
mu_eff would vanish at the wall). Second-order finite differences on NY wall-clustered nodes (tanh mapping),
solved as a banded linear system. Writes u, y to solution.npz.
"""

import numpy as np
from scipy.linalg import solve_banded

NY = 401

RE_TAU = 395.0
KAPPA = 0.42
A = 25.4


def mu_eff(y):
    d = np.minimum(y, 2.0 - y)
    damp = 1 - np.exp(-d * RE_TAU / A)
    core = (KAPPA * RE_TAU) ** 2 / 9 * (2 * d - d**2) ** 2 * (3 - 4 * d + 2 * d**2) ** 2 * damp**2
    return (0.5 * np.sqrt(1 + core) + 0.5) / RE_TAU


def main():
    s = np.linspace(-0.5, 0.5, NY)
    y = 1.0 + np.tanh(6.0 * s) / np.tanh(3.0)
    mid = 0.5 * (y[1:] + y[:-1])
    flux = mu_eff(mid) / np.diff(y)  # mu_eff at the half nodes over the spacing
    width = 0.5 * (y[2:] - y[:-2])
    banded = np.zeros((3, NY - 2))
    banded[0, 1:] = flux[1:-1] / width[:-1]
    banded[1, :] = -(flux[:-1] + flux[1:]) / width
    banded[2, :-1] = flux[1:-1] / width[1:]
    u = np.zeros(NY)
    u[1:-1] = solve_banded((1, 1), banded, -np.ones(NY - 2))
    np.savez("solution.npz", u=u, y=y)


if __name__ == "__main__":
    main()
