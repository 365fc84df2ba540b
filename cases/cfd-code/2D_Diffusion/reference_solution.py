"""2-D diffusion of a box on [0, 2]^2, u = 1 on the boundary, to t = 0.3777 (oracle for cfd-code/2D_Diffusion).

FTCS on NX x NY nodes with NT steps; box edges on grid lines take the mean of both sides. Writes u, x, y
(u[j, i] = u(x_i, y_j)) to solution.npz.
"""

import numpy as np

NX = 81
NY = 81
NT = 400

NU = 0.05
T_END = 0.3777


def box(s):
    inside = ((s > 0.5 + 1e-12) & (s < 1.0 - 1e-12)).astype(float)
    inside[np.isclose(s, 0.5) | np.isclose(s, 1.0)] = 0.5
    return inside


def main():
    x, y = np.linspace(0.0, 2.0, NX), np.linspace(0.0, 2.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    dt = T_END / NT
    if NU * dt * (1 / dx**2 + 1 / dy**2) > 0.5:
        raise SystemExit("unstable: increase NT")
    u = 1.0 + np.outer(box(y), box(x))
    for _ in range(NT):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + NU * dt * (
            (u[1:-1, 2:] - 2 * u[1:-1, 1:-1] + u[1:-1, :-2]) / dx**2
            + (u[2:, 1:-1] - 2 * u[1:-1, 1:-1] + u[:-2, 1:-1]) / dy**2
        )
    np.savez("solution.npz", u=u, x=x, y=y)


if __name__ == "__main__":
    main()
