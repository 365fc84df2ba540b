"""Channel flow on [0, 2]^2 driven by F = 1, periodic in x, no slip at y = 0 and 2, from rest to t = 5
(oracle for cfd-code/2D_Navier_Stokes_Channel).

With x-periodic data that do not depend on x, the flow stays x-independent: v = 0 (continuity and the walls),
the pressure is uniform (only its gradient enters; we report 0), and u obeys u_t = F + nu u_yy. Crank-Nicolson
in time (NT steps) with second-order differences on NY nodes. Writes u, v, p, x, y (u[j, i] = u(x_i, y_j)).
"""

import numpy as np
from scipy.linalg import solve_banded

NX = 41
NY = 81
NT = 500

NU = 0.1
F = 1.0
T_END = 5.0


def main():
    x, y = np.linspace(0.0, 2.0, NX), np.linspace(0.0, 2.0, NY)
    dy = y[1] - y[0]
    dt = T_END / NT
    m = NY - 2
    r = NU * dt / (2 * dy**2)
    banded = np.zeros((3, m))
    banded[0, 1:], banded[1, :], banded[2, :-1] = -r, 1 + 2 * r, -r
    u = np.zeros(NY)
    for _ in range(NT):
        explicit = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2]) + dt * F
        u[1:-1] = solve_banded((1, 1), banded, explicit)
    field = np.repeat(u[:, None], NX, axis=1)
    np.savez("solution.npz", u=field, v=np.zeros_like(field), p=np.zeros_like(field), x=x, y=y)


if __name__ == "__main__":
    main()
