"""Second solution for comsol_82: the truncated Black-Scholes put by finite differences and Crank-Nicolson.

In time to expiry tau = 12 - t, u_tau = 1/2 sigma^2 x^2 u_xx + r x u_x - r u on 0 <= x <= 80, u(80) = 0; at
x = 0 the diffusion and drift vanish, leaving u_tau = -r u (the divergence form's natural condition). Central
differences on a uniform grid of 1600 cells (x = 40 a node), Crank-Nicolson in time with four implicit-Euler
quarter steps first (Rannacher start-up, which damps the payoff kink at the strike).
"""

import json

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

R, SIGMA, STRIKE, X_MAX, T_END = 0.12, 0.3, 40.0, 80.0, 12.0
CELLS, STEPS = 1600, 2400

x = np.linspace(0.0, X_MAX, CELLS + 1)
dx = x[1] - x[0]
diffusion = 0.5 * SIGMA**2 * x**2 / dx**2
drift = R * x / (2.0 * dx)
lower = diffusion[1:] - drift[1:]
upper = diffusion[:-1] + drift[:-1]
operator = sp.diags([lower, -2.0 * diffusion - R, upper], [-1, 0, 1], format="lil")
operator[CELLS, :] = 0.0  # u(80) = 0: that row stays zero and its value is kept at 0
operator = operator.tocsc()
identity = sp.identity(CELLS + 1, format="csc")


def march(u: np.ndarray, dt: float, steps: int, theta: float) -> np.ndarray:
    solver = splu((identity - theta * dt * operator).tocsc())
    explicit = identity + (1.0 - theta) * dt * operator
    for _ in range(steps):
        u = solver.solve(explicit @ u)
        u[-1] = 0.0
    return u


u = np.maximum(STRIKE - x, 0.0)
dt = T_END / STEPS
u = march(u, dt / 4.0, 4, 1.0)  # Rannacher: one step's worth of implicit Euler
u = march(u, dt, STEPS - 1, 0.5)
value = float(u[np.argmin(abs(x - STRIKE))])
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "dimensionless"}, handle)
print(value)
