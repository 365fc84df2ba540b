"""Second solution for comsol_12677: the periodic steady state by Newton shooting with the variational equation.

The one-period map u0 -> u(T) is integrated together with its derivative s = du(T)/du0 (ds/dt = f (-b - 2 c u)
s, s(0) = 1) by an explicit Runge-Kutta method of order 8 (DOP853) at rtol 1e-13, and Newton's method solves
u(T) - u0 = 0 from u0 = 0.25.
"""

import json

import numpy as np
from scipy.integrate import solve_ivp

A, B, C, F = 0.25, 0.05, 0.015, 1.0
OMEGA = 2.0 * np.pi * F
PERIOD = 1.0 / F


def rhs(t, y):
    u, s = y
    return [F * (A * np.sin(OMEGA * t) ** 2 - B * u - C * u * u), F * (-B - 2.0 * C * u) * s]


def period_map(u0: float) -> tuple[float, float]:
    end = solve_ivp(rhs, (0.0, PERIOD), [u0, 1.0], method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]
    return float(end[0]), float(end[1])


u0 = 0.25
for _ in range(50):
    u_end, slope = period_map(u0)
    step = (u_end - u0) / (slope - 1.0)
    u0 -= step
    if abs(step) < 1e-14:
        break
value = period_map(u0)[0]
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "dimensionless"}, handle)
print(value)
