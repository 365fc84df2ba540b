"""Second solution of cfd-code/1D_Linear_Convection, written apart from the reference: Fourier pseudo-spectral
in space on NX periodic points of [-5, 5) (the right end left out), classical RK4 in time with at least NT
steps (more where the RK4 stability limit of the largest wavenumber needs them); the damped case eps = 5e-4."""

import numpy as np

NX = 128
NT = 1000

C, EPS, LENGTH, T_END = 1.0, 5e-4, 10.0, 10.0

x = -5.0 + np.arange(NX) * LENGTH / NX
k = 2 * np.pi * np.fft.rfftfreq(NX, LENGTH / NX)
symbol = -1j * C * k - EPS * k**2  # u_t = symbol * u in Fourier space
steps = max(NT, int(np.ceil(T_END * np.abs(symbol).max() / 2.5)))
dt = T_END / steps
uh = np.fft.rfft(np.exp(-(x**2)))
for _ in range(steps):
    k1 = symbol * uh
    k2 = symbol * (uh + 0.5 * dt * k1)
    k3 = symbol * (uh + 0.5 * dt * k2)
    k4 = symbol * (uh + dt * k3)
    uh = uh + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
u = np.fft.irfft(uh, n=NX)
np.savez("solution.npz", u=u, x=x)
