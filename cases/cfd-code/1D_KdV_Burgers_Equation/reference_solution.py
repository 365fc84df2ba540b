"""KdV-Burgers u_t + u u_x = a u_xx + b u_xxx, periodic on [0, 10), to t = 10
(oracle for cfd-code/1D_KdV_Burgers_Equation).

Fourier pseudo-spectral method on NX nodes with 2/3-rule dealiasing; the stiff linear part is integrated exactly
by exponential time differencing (ETDRK4, Kassam and Trefethen 2005), NT steps. Writes u, x to solution.npz.
"""

import numpy as np

NX = 1024
NT = 5000

L = 10.0
A = 1e-4
B = 2e-4
T_END = 10.0
N_SOLITON = 20


def main():
    x = L * np.arange(NX) / NX
    u = np.log(1 + np.cosh(N_SOLITON) ** 2 / np.cosh(N_SOLITON * (x - 0.2 * L)) ** 2) / (2 * N_SOLITON)
    k = 2 * np.pi * np.fft.rfftfreq(NX, d=L / NX)
    keep = k < (2.0 / 3.0) * k.max()
    lin = -A * k**2 - 1j * B * k**3
    dt = T_END / NT
    e, e2 = np.exp(dt * lin), np.exp(dt * lin / 2)
    roots = np.exp(2j * np.pi * (np.arange(1, 65) - 0.5) / 64)
    lr = dt * lin[:, None] + roots[None, :]
    q = dt * np.mean((np.exp(lr / 2) - 1) / lr, axis=1)
    f1 = dt * np.mean((-4 - lr + np.exp(lr) * (4 - 3 * lr + lr**2)) / lr**3, axis=1)
    f2 = dt * np.mean((2 + lr + np.exp(lr) * (-2 + lr)) / lr**3, axis=1)
    f3 = dt * np.mean((-4 - 3 * lr - lr**2 + np.exp(lr) * (4 - lr)) / lr**3, axis=1)

    def nonlinear(v):
        w = np.fft.irfft(v, n=NX)
        return -0.5j * k * np.fft.rfft(w * w) * keep

    v = np.fft.rfft(u)
    for _ in range(NT):
        nv = nonlinear(v)
        a = e2 * v + q * nv
        na = nonlinear(a)
        b = e2 * v + q * na
        nb = nonlinear(b)
        c = e2 * a + q * (2 * nb - nv)
        v = e * v + f1 * nv + 2 * f2 * (na + nb) + f3 * nonlinear(c)
    np.savez("solution.npz", u=np.fft.irfft(v, n=NX), x=x)


if __name__ == "__main__":
    main()
