"""Second solution of cfd-code/1D_KdV_Burgers_Equation, written apart from the reference: Fourier pseudo-spectral
on NX periodic points of [0, 10) (the right end left out), the linear part a u_xx + b u_xxx removed by an
integrating factor and the rest advanced by the classical fourth-order Runge-Kutta method (Lawson's IF-RK4),
2/3 dealiasing of u^2 / 2, NT steps to t = 10."""

import numpy as np

NX = 768
NT = 4000

A, B, LENGTH, T_END, N_SHAPE = 1e-4, 2e-4, 10.0, 10.0, 20.0

x = np.arange(NX) * LENGTH / NX
u0 = np.log(1 + np.cosh(N_SHAPE) ** 2 / np.cosh(N_SHAPE * (x - 0.2 * LENGTH)) ** 2) / (2 * N_SHAPE)
k = 2 * np.pi * np.fft.rfftfreq(NX, LENGTH / NX)
keep = k <= (2 / 3) * k.max()
linear = -A * k**2 - 1j * B * k**3  # d/dx -> i k: a (ik)^2 + b (ik)^3
h = T_END / NT
half, full = np.exp(linear * h / 2), np.exp(linear * h)


def nonlinear(vh: np.ndarray) -> np.ndarray:
    v = np.fft.irfft(keep * vh, n=NX)
    return -0.5j * k * keep * np.fft.rfft(v * v)


vh = np.fft.rfft(u0)
for _ in range(NT):
    k1 = nonlinear(vh)
    k2 = nonlinear(half * (vh + 0.5 * h * k1))
    k3 = nonlinear(half * vh + 0.5 * h * k2)
    k4 = nonlinear(full * vh + h * half * k3)
    vh = full * vh + h / 6 * (full * k1 + 2 * half * (k2 + k3) + k4)
u = np.fft.irfft(vh, n=NX)
np.savez("solution.npz", u=u, x=x)
