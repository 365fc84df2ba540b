"""1-D viscous Burgers, periodic on [0, 2 pi), to t = 0.14 pi (oracle for cfd-code/1D_Burgers_Equation).

Fourth-order central differences of the conservative flux u^2/2 and of u_xx on NX periodic nodes, classical RK4
with NT steps. Writes u, x to solution.npz.
"""

import numpy as np

NX = 400
NT = 2000

NU = 0.07
T_END = 0.14 * np.pi


def initial(x):
    phi = np.exp(-x**2 / (4 * NU)) + np.exp(-(x - 2 * np.pi) ** 2 / (4 * NU))
    dphi = -x / (2 * NU) * np.exp(-x**2 / (4 * NU)) - (x - 2 * np.pi) / (2 * NU) * np.exp(-(x - 2 * np.pi) ** 2 / (4 * NU))
    return -2 * NU * dphi / phi + 4


def d1(f, h):
    return (-np.roll(f, -2) + 8 * np.roll(f, -1) - 8 * np.roll(f, 1) + np.roll(f, 2)) / (12 * h)


def d2(f, h):
    return (-np.roll(f, -2) + 16 * np.roll(f, -1) - 30 * f + 16 * np.roll(f, 1) - np.roll(f, 2)) / (12 * h * h)


def main():
    x = 2 * np.pi * np.arange(NX) / NX
    h = x[1] - x[0]
    dt = T_END / NT
    u = initial(x)

    def rhs(w):
        return -d1(0.5 * w * w, h) + NU * d2(w, h)

    for _ in range(NT):
        k1 = rhs(u)
        k2 = rhs(u + 0.5 * dt * k1)
        k3 = rhs(u + 0.5 * dt * k2)
        k4 = rhs(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    np.savez("solution.npz", u=u, x=x)


if __name__ == "__main__":
    main()
