"""1-D diffusion of a box on [0, 2], u = 1 held at both ends, to t = 0.0333 (oracle for cfd-code/1D_Diffusion).

FTCS on NX nodes with NT steps (NT chosen so that nu dt / dx^2 <= 0.5). Writes u, x to solution.npz.
"""

import numpy as np

NX = 201
NT = 2000

NU = 0.3
T_END = 0.0333


def main():
    x = np.linspace(0.0, 2.0, NX)
    dx = x[1] - x[0]
    dt = T_END / NT
    if NU * dt / dx**2 > 0.5:
        raise SystemExit("unstable: increase NT")
    u = np.ones(NX)
    u[(x >= 0.5 - 1e-12) & (x <= 1.0 + 1e-12)] = 2.0
    u[np.isclose(x, 0.5) | np.isclose(x, 1.0)] = 1.5  # the jump sits on a node: take the mean
    for _ in range(NT):
        u[1:-1] = u[1:-1] + NU * dt / dx**2 * (u[2:] - 2 * u[1:-1] + u[:-2])
    np.savez("solution.npz", u=u, x=x)


if __name__ == "__main__":
    main()
