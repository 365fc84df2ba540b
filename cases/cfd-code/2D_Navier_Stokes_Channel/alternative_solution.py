"""Second solution of cfd-code/2D_Navier_Stokes_Channel, written apart from the reference: the flow starts from
rest with a force along x and walls along x, so it stays parallel (v = 0, u = u(y, t), p constant: every
nonlinear term and the pressure source vanish identically), and u_t = nu u_yy + F is integrated with
Crank-Nicolson on NY nodes of [0, 2] with NT steps; the fields are then laid out on the NY x NX grid (x periodic,
its right end left out). The pressure constant is zero."""

import numpy as np
from scipy.linalg import solve_banded

NX = 32
NY = 81
NT = 200

NU, FORCE, LENGTH, T_END = 0.1, 1.0, 2.0, 5.0

y = np.linspace(0.0, LENGTH, NY)
x = np.arange(NX) * LENGTH / NX
dy, dt = y[1] - y[0], T_END / NT
r = NU * dt / dy**2
n = NY - 2
bands = np.zeros((3, n))
bands[0, 1:] = -0.5 * r
bands[1] = 1 + r
bands[2, :-1] = -0.5 * r
profile = np.zeros(NY)
for _ in range(NT):
    inner = profile[1:-1]
    rhs = inner + 0.5 * r * (profile[2:] - 2 * inner + profile[:-2]) + dt * FORCE
    profile[1:-1] = solve_banded((1, 1), bands, rhs)

u = np.repeat(profile[:, None], NX, axis=1)
v = np.zeros((NY, NX))
p = np.zeros((NY, NX))
np.savez("solution.npz", u=u, v=v, p=p, x=x, y=y)
