"""2-D periodic shear flow with a passive tracer (the Dedalus ``shear_flow`` example), Fourier pseudo-spectral.

Incompressible Navier-Stokes on ``[0, 1) x [-1, 1)``, periodic both ways, ``nu = 1 / Re``, tracer diffusivity
``nu / Sc``. Two shear layers ``u = 1/2 + 1/2 (tanh((z - 1/2) / 0.1) - tanh((z + 1/2) / 0.1))``, the tracer
equal to ``u``, and a vertical kick ``w = 0.1 sin(2 pi x) (exp(-(z - 1/2)^2 / 0.01) + exp(-(z + 1/2)^2 / 0.01))``
that rolls both layers up (Kelvin-Helmholtz). The flow at ``t = 20`` is deterministic (not yet chaotic): two
resolutions and the upstream Dedalus run agree pointwise (``tests/test_cfd_code_references.py``).

Vorticity ``omega = du/dz - dw/dx`` and tracer advanced in Fourier space with the 2/3 rule, classical RK4 with
an integrating factor for diffusion, time step ``cfl * min(dx, dz) / max(|u| + |w|)``; velocity from the
streamfunction (``lap psi = omega``, ``u = dpsi/dz``, ``w = -dpsi/dx``), pressure from
``lap p = -d_i d_j (u_i u_j)`` with zero mean.
"""

from __future__ import annotations

import numpy as np
from scipy import fft

from simcodebench.suites.cfd_code.references.solution import Solution

LX, LZ = 1.0, 2.0


def initial_state(x: np.ndarray, z: np.ndarray, kick: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``u``, ``w`` and the tracer ``s`` at ``t = 0`` on the grid ``x`` (first axis) by ``z``; ``kick`` is the
    vertical velocity's amplitude (0.1 published)."""
    xx, zz = np.meshgrid(x, z, indexing="ij")
    u = 0.5 + 0.5 * (np.tanh((zz - 0.5) / 0.1) - np.tanh((zz + 0.5) / 0.1))
    w = kick * np.sin(2 * np.pi * xx / LX) * (np.exp(-((zz - 0.5) ** 2) / 0.01) + np.exp(-((zz + 0.5) ** 2) / 0.01))
    return u, w, u.copy()


class _Spectral:
    """Wavenumbers, the dealiasing mask and transforms of an ``nx`` by ``nz`` periodic grid."""

    def __init__(self, nx: int, nz: int) -> None:
        self.shape = (nx, nz)
        self.kx = 2 * np.pi * fft.fftfreq(nx, LX / nx)[:, None]
        self.kz = 2 * np.pi * fft.rfftfreq(nz, LZ / nz)[None, :]
        self.k2 = self.kx**2 + self.kz**2
        self.inverse_k2 = np.divide(1.0, self.k2, out=np.zeros_like(self.k2), where=self.k2 > 0)
        self.mask = (np.abs(self.kx) < (2 / 3) * np.pi * nx / LX) & (np.abs(self.kz) < (2 / 3) * np.pi * nz / LZ)

    def forward(self, values: np.ndarray) -> np.ndarray:
        return fft.rfft2(values)

    def backward(self, coefficients: np.ndarray) -> np.ndarray:
        return fft.irfft2(coefficients, s=self.shape)

    def velocity(self, omega: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        psi = -omega * self.inverse_k2
        return self.backward(1j * self.kz * psi), self.backward(-1j * self.kx * psi)

    def advection(self, u: np.ndarray, w: np.ndarray, field: np.ndarray) -> np.ndarray:
        """``-(u d/dx + w d/dz) field`` in Fourier space, dealiased."""
        product = u * self.backward(1j * self.kx * field) + w * self.backward(1j * self.kz * field)
        return -self.forward(product) * self.mask

    def pressure(self, u: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``p`` with ``lap p = -d_i d_j (u_i u_j)`` and zero mean."""
        uu, uw, ww = (self.forward(a * b) * self.mask for a, b in ((u, u), (u, w), (w, w)))
        return self.backward(-(self.kx**2 * uu + 2 * self.kx * self.kz * uw + self.kz**2 * ww) * self.inverse_k2)


def shear_flow(
    nx: int = 128,
    nz: int = 256,
    t_end: float = 20.0,
    reynolds: float = 5.0e4,
    schmidt: float = 1.0,
    cfl: float = 0.5,
    kick: float = 0.1,
) -> Solution:
    """``s``, ``u``, ``w`` and ``p`` at ``t_end`` on the ``nx`` by ``nz`` grid (``x`` first)."""
    x = np.arange(nx) * LX / nx
    z = -LZ / 2 + np.arange(nz) * LZ / nz
    grid = _Spectral(nx, nz)
    u0, w0, s0 = initial_state(x, z, kick)
    omega = (1j * grid.kz * grid.forward(u0) - 1j * grid.kx * grid.forward(w0)) * grid.mask
    tracer = grid.forward(s0) * grid.mask
    nu, kappa = 1.0 / reynolds, 1.0 / (reynolds * schmidt)
    spacing = min(LX / nx, LZ / nz)

    def rates(om: np.ndarray, tr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, w = grid.velocity(om)
        return grid.advection(u, w, om), grid.advection(u, w, tr)

    t, steps = 0.0, 0
    while t < t_end - 1e-12:
        u, w = grid.velocity(omega)
        dt = min(cfl * spacing / float(np.max(np.abs(u) + np.abs(w))), t_end - t)
        half_o, half_s = np.exp(-nu * grid.k2 * dt / 2), np.exp(-kappa * grid.k2 * dt / 2)
        a1, b1 = rates(omega, tracer)
        a2, b2 = rates(half_o * (omega + dt / 2 * a1), half_s * (tracer + dt / 2 * b1))
        a3, b3 = rates(half_o * omega + dt / 2 * a2, half_s * tracer + dt / 2 * b2)
        a4, b4 = rates(half_o**2 * omega + dt * half_o * a3, half_s**2 * tracer + dt * half_s * b3)
        omega = half_o**2 * omega + dt / 6 * (half_o**2 * a1 + 2 * half_o * (a2 + a3) + a4)
        tracer = half_s**2 * tracer + dt / 6 * (half_s**2 * b1 + 2 * half_s * (b2 + b3) + b4)
        t, steps = t + dt, steps + 1
    u, w = grid.velocity(omega)
    return Solution(
        coords={"x": x, "z": z},
        fields={"s": grid.backward(tracer), "u": u, "w": w, "p": grid.pressure(u, w)},
        method=f"Fourier pseudo-spectral {nx} x {nz}, 2/3 rule, integrating-factor RK4, CFL {cfl} ({steps} steps)",
        meta={"steps": float(steps)},
    )
