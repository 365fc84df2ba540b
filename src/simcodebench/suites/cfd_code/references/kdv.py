"""KdV-Burgers equation ``u_t + u u_x = a u_xx + b u_xxx``, periodic on [0, 10), by a Fourier pseudo-spectral
method with exponential time differencing (ETDRK4, Kassam and Trefethen 2005) and 3/2-rule dealiasing."""

from __future__ import annotations

import numpy as np

from simcodebench.suites.cfd_code.references.solution import Solution


def _etd_coefficients(lin: np.ndarray, dt: float, contour: int = 64) -> tuple[np.ndarray, ...]:
    """ETDRK4 weights for the diagonal linear operator ``lin``, by contour integrals (no cancellation)."""
    e, e2 = np.exp(dt * lin), np.exp(dt * lin / 2.0)
    roots = np.exp(2j * np.pi * (np.arange(1, contour + 1) - 0.5) / contour)  # full circle: lin is complex
    lr = dt * lin[:, None] + roots[None, :]
    q = dt * np.mean((np.exp(lr / 2.0) - 1.0) / lr, axis=1)
    f1 = dt * np.mean((-4.0 - lr + np.exp(lr) * (4.0 - 3.0 * lr + lr**2)) / lr**3, axis=1)
    f2 = dt * np.mean((2.0 + lr + np.exp(lr) * (-2.0 + lr)) / lr**3, axis=1)
    f3 = dt * np.mean((-4.0 - 3.0 * lr - lr**2 + np.exp(lr) * (4.0 - lr)) / lr**3, axis=1)
    return e, e2, q, f1, f2, f3


def kdv_burgers(
    points: int = 1024,
    length: float = 10.0,
    a: float = 1e-4,
    b: float = 2e-4,
    t_end: float = 10.0,
    dt: float = 1e-3,
    steepness: float = 20.0,
) -> Solution:
    """u at ``t_end`` on ``points`` equispaced nodes ``x_j = j L / points`` (the periodic end excluded), from
    ``u(x, 0) = log(1 + cosh(n)^2 / cosh(n (x - 0.2 L))^2) / (2 n)``."""
    x = length * np.arange(points) / points
    u0 = np.log(1.0 + np.cosh(steepness) ** 2 / np.cosh(steepness * (x - 0.2 * length)) ** 2) / (2.0 * steepness)
    k = 2.0 * np.pi * np.fft.rfftfreq(points, d=length / points)
    lin = -a * k**2 - 1j * b * k**3
    fine = 3 * points // 2

    def nonlinear(v: np.ndarray) -> np.ndarray:
        padded = np.zeros(fine // 2 + 1, dtype=complex)
        padded[: v.size] = v
        w = np.fft.irfft(padded, n=fine) * (fine / points)
        product = np.fft.rfft(w * w)[: v.size] * (points / fine)
        return -0.5j * k * product

    steps = int(round(t_end / dt))
    e, e2, q, f1, f2, f3 = _etd_coefficients(lin, t_end / steps)
    v = np.fft.rfft(u0)
    for _ in range(steps):
        nv = nonlinear(v)
        a_ = e2 * v + q * nv
        na = nonlinear(a_)
        b_ = e2 * v + q * na
        nb = nonlinear(b_)
        c_ = e2 * a_ + q * (2.0 * nb - nv)
        nc = nonlinear(c_)
        v = e * v + f1 * nv + 2.0 * f2 * (na + nb) + f3 * nc
    return Solution(
        coords={"x": x},
        fields={"u": np.fft.irfft(v, n=points)},
        method=f"Fourier pseudo-spectral ({points} modes, 3/2 dealiasing), ETDRK4 with {steps} steps",
    )
