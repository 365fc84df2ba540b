"""1-D linear convection-diffusion u_t + u_x = eps u_xx (damped case, eps = 5e-4), periodic on [-5, 5), to t = 10
(oracle for cfd-code/1D_Linear_Convection).

Fourth-order central differences on NX periodic nodes, classical RK4 with NT steps. Writes u, x to solution.npz.
"""

import numpy as np

NX = 400
NT = 2000

C = 1.0
EPS = 5e-4
T_END = 10.0


def main():
    x = -5.0 + 10.0 * np.arange(NX) / NX
    h = x[1] - x[0]
    dt = T_END / NT

    def rhs(f):
        fx = (-np.roll(f, -2) + 8 * np.roll(f, -1) - 8 * np.roll(f, 1) + np.roll(f, 2)) / (12 * h)
        fxx = (-np.roll(f, -2) + 16 * np.roll(f, -1) - 30 * f + 16 * np.roll(f, 1) - np.roll(f, 2)) / (12 * h * h)
        return -C * fx + EPS * fxx

    u = np.exp(-(x**2))
    for _ in range(NT):
        k1 = rhs(u)
        k2 = rhs(u + 0.5 * dt * k1)
        k3 = rhs(u + 0.5 * dt * k2)
        k4 = rhs(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    np.savez("solution.npz", u=u, x=x)


if __name__ == "__main__":
    main()
