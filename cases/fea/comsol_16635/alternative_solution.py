"""Second solution for comsol_16635: the separation from the tangent (linearised) Lorenz equations.

Instead of integrating two trajectories 1e-11 apart, we integrate the reference trajectory together with the
linearised equations d(delta)/dt = J(x(t)) delta, delta(0) = 1e-11 (1, 1, 1), with DOP853 at rtol 1e-13. At
t = 15 the separation is about 1e-5, far inside the linear regime, so |delta_u(15)| is the answer.
"""

import json

import numpy as np
from scipy.integrate import solve_ivp

SIGMA, BETA, RHO = 10.0, 8.0 / 3.0, 28.0
START = np.array([-10.0, -4.45, 35.1])
PERTURBATION = 1e-11


def rhs(_t, y):
    u, v, w, du, dv, dw = y
    return [
        SIGMA * (v - u),
        u * (RHO - w) - v,
        u * v - BETA * w,
        SIGMA * (dv - du),
        (RHO - w) * du - dv - u * dw,
        v * du + u * dv - BETA * dw,
    ]


y0 = np.concatenate([START, PERTURBATION * np.ones(3)])
end = solve_ivp(rhs, (0.0, 15.0), y0, method="DOP853", rtol=1e-13, atol=1e-20).y[:, -1]
value = float(abs(end[3]))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "dimensionless"}, handle)
print(value)
