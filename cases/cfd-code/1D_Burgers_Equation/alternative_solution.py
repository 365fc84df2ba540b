"""Second solution of cfd-code/1D_Burgers_Equation, written apart from the reference: Fourier pseudo-spectral on
NX periodic points of [0, 2 pi) (2/3 dealiasing of u^2 / 2), diffusion exact through an integrating factor,
SSP-RK3 with at least NT steps (more where the advective limit needs them), to t = 0.14 pi."""

import numpy as np

NX = 256
NT = 500

NU, LENGTH = 0.07, 2 * np.pi
T_END = 0.14 * np.pi

x = np.arange(NX) * LENGTH / NX
phi = np.exp(-(x**2) / (4 * NU)) + np.exp(-((x - LENGTH) ** 2) / (4 * NU))
dphi = -x / (2 * NU) * np.exp(-(x**2) / (4 * NU)) - (x - LENGTH) / (2 * NU) * np.exp(-((x - LENGTH) ** 2) / (4 * NU))
u0 = -2 * NU * dphi / phi + 4.0

k = np.fft.rfftfreq(NX, 1.0 / NX) * 2 * np.pi / LENGTH
keep = np.abs(k) <= (2 / 3) * np.abs(k).max()
steps = max(NT, int(np.ceil(T_END * 2 * np.abs(u0).max() * k.max() / 1.5)))
dt = T_END / steps
full, half = np.exp(-NU * k**2 * dt), np.exp(-NU * k**2 * dt / 2)


def advection(uh: np.ndarray) -> np.ndarray:
    u = np.fft.irfft(keep * uh, n=NX)
    return -1j * k * keep * np.fft.rfft(0.5 * u * u)


uh = np.fft.rfft(u0)
for _ in range(steps):
    first = full * (uh + dt * advection(uh))
    second = 0.75 * half * uh + 0.25 / half * (first + dt * advection(first))
    uh = full * uh / 3 + (2 / 3) * half * (second + dt * advection(second))
u = np.fft.irfft(uh, n=NX)
np.savez("solution.npz", u=u, x=x)
