"""2-D viscous Burgers equation on [0, 2]^2, box initial data, to t = 0.027 (oracle for cfd-code/2D_Burgers_Equation).

Central differences for advection and diffusion on NX x NY nodes, SSP-RK3 with NT steps; the box edges that fall
on grid lines take the mean of both sides. Writes u, v, x, y (u[j, i] = u(x_i, y_j)) to solution.npz.
"""

import numpy as np

NX = 161
NY = 161
NT = 100

NU = 0.01
T_END = 0.027


def box(s):
    inside = ((s > 0.5 + 1e-12) & (s < 1.0 - 1e-12)).astype(float)
    inside[np.isclose(s, 0.5) | np.isclose(s, 1.0)] = 0.5
    return inside


def main():
    x, y = np.linspace(0.0, 2.0, NX), np.linspace(0.0, 2.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    dt = T_END / NT
    u = 1.0 + np.outer(box(y), box(x))
    v = u.copy()

    def rhs(u, v):
        du, dv = np.zeros_like(u), np.zeros_like(v)
        for f, out in ((u, du), (v, dv)):
            fx = (f[1:-1, 2:] - f[1:-1, :-2]) / (2 * dx)
            fy = (f[2:, 1:-1] - f[:-2, 1:-1]) / (2 * dy)
            lap = (f[1:-1, 2:] - 2 * f[1:-1, 1:-1] + f[1:-1, :-2]) / dx**2 + (
                f[2:, 1:-1] - 2 * f[1:-1, 1:-1] + f[:-2, 1:-1]
            ) / dy**2
            out[1:-1, 1:-1] = -u[1:-1, 1:-1] * fx - v[1:-1, 1:-1] * fy + NU * lap
        return du, dv

    for _ in range(NT):
        a = rhs(u, v)
        u1, v1 = u + dt * a[0], v + dt * a[1]
        b = rhs(u1, v1)
        u2, v2 = 0.75 * u + 0.25 * (u1 + dt * b[0]), 0.75 * v + 0.25 * (v1 + dt * b[1])
        c = rhs(u2, v2)
        u, v = u / 3 + 2 / 3 * (u2 + dt * c[0]), v / 3 + 2 / 3 * (v2 + dt * c[1])
    np.savez("solution.npz", u=u, v=v, x=x, y=y)


if __name__ == "__main__":
    main()
