"""Lid-driven cavity on [0, L]^2 (oracle for cfd-code/2D_Navier_Stokes_Cavity).

Streamfunction-vorticity on NX x NY nodes (NX = NY): central differences, Thom's wall vorticity, SSP-RK3 with NT
steps (more where the explicit diffusion limit needs them, so a refined grid stays stable), the streamfunction from a sine-transform Poisson solver. The pressure at the final time solves
lap p = -rho (u_x^2 + 2 u_y v_x + v_y^2) with the momentum equation's wall gradients (grad p = rho nu lap u on
the walls) as Neumann data, up to a constant (zero mean; the score compares pressure up to a constant).
Writes u, v, p, x, y (u[j, i] = u(x_i, y_j)) to solution.npz.
"""

import numpy as np
from scipy.fft import dstn, idstn
from scipy.sparse import bmat, csc_matrix, lil_matrix
from scipy.sparse.linalg import splu

NX = 51
NY = 51
NT = 4000

L = 2.0
NU = 0.1
RHO = 1.0
T_END = 10.0


def main():
    n = NX
    h = L / (n - 1)
    steps = max(NT, int(np.ceil(NU * T_END / (0.3 * h**2))))  # NU dt / h^2 <= 0.3
    dt = T_END / steps
    k = 2.0 * (np.cos(np.pi * np.arange(1, n - 1) / (n - 1)) - 1.0) / h**2
    symbol = k[:, None] + k[None, :]

    def streamfunction(w):
        s = np.zeros_like(w)
        s[1:-1, 1:-1] = idstn(dstn(-w[1:-1, 1:-1], type=1) / symbol, type=1)
        return s

    def walls(w, s):
        w[0, :] = -2 * s[1, :] / h**2
        w[-1, :] = -2 * s[-2, :] / h**2 - 2 / h
        w[:, 0] = -2 * s[:, 1] / h**2
        w[:, -1] = -2 * s[:, -2] / h**2

    def velocity(s):
        u, v = np.zeros_like(s), np.zeros_like(s)
        u[1:-1, :] = (s[2:, :] - s[:-2, :]) / (2 * h)
        v[:, 1:-1] = -(s[:, 2:] - s[:, :-2]) / (2 * h)
        u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0, 0, 0, 1
        v[0, :], v[-1, :], v[:, 0], v[:, -1] = 0, 0, 0, 0
        return u, v

    def rhs(w):
        s = streamfunction(w)
        walls(w, s)
        u, v = velocity(s)
        out = np.zeros_like(w)
        c = w[1:-1, 1:-1]
        out[1:-1, 1:-1] = (
            -u[1:-1, 1:-1] * (w[1:-1, 2:] - w[1:-1, :-2]) / (2 * h)
            - v[1:-1, 1:-1] * (w[2:, 1:-1] - w[:-2, 1:-1]) / (2 * h)
            + NU * (w[1:-1, 2:] + w[1:-1, :-2] + w[2:, 1:-1] + w[:-2, 1:-1] - 4 * c) / h**2
        )
        return out

    w = np.zeros((n, n))
    walls(w, np.zeros((n, n)))
    for _ in range(steps):
        w1 = w + dt * rhs(w)
        w2 = 0.75 * w + 0.25 * (w1 + dt * rhs(w1))
        w = w / 3 + 2 / 3 * (w2 + dt * rhs(w2))
    s = streamfunction(w)
    walls(w, s)
    u, v = velocity(s)
    # pressure: Poisson equation with Neumann data from the momentum equation, ghost nodes, zero mean
    ux, uy, vx, vy = np.gradient(u, h, axis=1), np.gradient(u, h, axis=0), np.gradient(v, h, axis=1), np.gradient(v, h, axis=0)
    source = np.zeros_like(u)
    source[1:-1, 1:-1] = (2 * RHO * (ux * vy - uy * vx))[1:-1, 1:-1]
    dpdx, dpdy = -RHO * NU * np.gradient(w, h, axis=0), RHO * NU * np.gradient(w, h, axis=1)
    a = lil_matrix((n * n, n * n))
    b = source.ravel().copy()
    for j in range(n):
        for i in range(n):
            kk = j * n + i
            a[kk, kk] = -4 / h**2
            for dj, di in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                jj, ii = j + dj, i + di
                if 0 <= jj < n and 0 <= ii < n:
                    a[kk, jj * n + ii] += 1 / h**2
                else:
                    a[kk, (j - dj) * n + (i - di)] += 1 / h**2
                    b[kk] -= 2 * (dpdx[j, i] * di + dpdy[j, i] * dj) / h
    ones = csc_matrix(np.ones((n * n, 1)))
    p = splu(csc_matrix(bmat([[csc_matrix(a), ones], [ones.T, None]]))).solve(np.append(b, 0.0))[: n * n]
    p = p.reshape(n, n)
    x = np.linspace(0.0, L, n)
    np.savez("solution.npz", u=u, v=v, p=p - p.mean(), x=x, y=x)


if __name__ == "__main__":
    main()
