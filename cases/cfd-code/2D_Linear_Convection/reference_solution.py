"""2-D linear convection u_t + u_x + u_y = 0 of a box on [0, 2]^2, to t = 0.5 (oracle for cfd-code/2D_Linear_Convection).

First-order upwind with dimensional splitting on NX x NY cells ((NX + 1) x (NY + 1) nodes) at Courant number 1 in
each direction (the time step is dx / c), where the upwind update is an exact shift by one node; u = 1 enters
through x = 0 and y = 0. NT = t / dt steps, so doubling NX, NY and NT keeps the Courant number. Writes u, x, y (u[j, i] = u(x_i, y_j)) to solution.npz.
"""

import numpy as np

NX = 200
NY = 200
NT = 50

C = 1.0
T_END = 0.5


def main():
    x, y = np.linspace(0.0, 2.0, NX + 1), np.linspace(0.0, 2.0, NY + 1)
    dx, dy = x[1] - x[0], y[1] - y[0]
    dt = T_END / NT
    if not (np.isclose(C * dt, dx) and np.isclose(C * dt, dy)):
        raise SystemExit("choose NT = c t / dx so that the Courant number is 1")
    inside = lambda s: (s >= 0.5 - 1e-9) & (s <= 1.0 + 1e-9)  # noqa: E731
    u = 1.0 + np.outer(inside(y), inside(x)).astype(float)
    for _ in range(NT):
        u[:, 1:] = u[:, 1:] - C * dt / dx * (u[:, 1:] - u[:, :-1])  # x sweep
        u[1:, :] = u[1:, :] - C * dt / dy * (u[1:, :] - u[:-1, :])  # y sweep
        u[:, 0], u[0, :] = 1.0, 1.0
    np.savez("solution.npz", u=u, x=x, y=y)


if __name__ == "__main__":
    main()
