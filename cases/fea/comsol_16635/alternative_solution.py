"""Second solution for comsol_16635: the separation from the exact (nonlinear) perturbation equations.

Subtracting two copies of the Lorenz system gives, for the separation d = x_perturbed - x_reference, the
equations d' = f(x + d) - f(x), whose right-hand side is written out below with its quadratic terms kept
(no linearisation, and no cancellation between two nearly equal trajectories). The reference trajectory and
d, starting at 1e-11 (1, 1, 1), are integrated together with DOP853 at rtol 1e-13 (d has its own absolute
tolerance, far below its size); |d_u(T_EVAL)| is the answer.
"""

import json

import numpy as np
from scipy.integrate import solve_ivp

SIGMA, BETA, RHO = 10.0, 8.0 / 3.0, 28.0
START = np.array([-10.0, -4.45, 35.1])
PERTURBATION = 1e-11
T_EVAL = 15.0


def rhs(_t, y):
    u, v, w, du, dv, dw = y
    return [
        SIGMA * (v - u),
        u * (RHO - w) - v,
        u * v - BETA * w,
        SIGMA * (dv - du),
        (RHO - w) * du - dv - u * dw - du * dw,
        v * du + u * dv + du * dv - BETA * dw,
    ]


y0 = np.concatenate([START, PERTURBATION * np.ones(3)])
tolerance = np.array([1e-12, 1e-12, 1e-12, 1e-24, 1e-24, 1e-24])
end = solve_ivp(rhs, (0.0, T_EVAL), y0, method="DOP853", rtol=1e-13, atol=tolerance).y[:, -1]
value = float(abs(end[3]))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "dimensionless"}, handle)
print(value)
