"""Lid-driven cavity flows by the streamfunction-vorticity method, with the pressure recovered afterwards.

Velocity: ``omega_t + u omega_x + v omega_y = nu lap(omega)``, ``lap(psi) = -omega``, ``u = psi_y``,
``v = -psi_x``; ``psi = 0`` on the walls and Thom's wall vorticity (``omega_w = -2 psi_1 / h^2 - 2 U_w / h``).
Central differences, SSP-RK3 in time, the streamfunction from a fast sine-transform Poisson solver. The velocity
is divergence-free by construction, so it does not depend on how the pressure is closed.

Pressure: the physical pressure at the final time, from ``lap(p) = 2 rho (u_x v_y - u_y v_x)`` with the
momentum equation's wall gradients as Neumann data, up to a constant (returned with zero mean). The problems'
own pressure closures (homogeneous Neumann, p = 0 along the lid) are not the physical ones; the scorer compares
pressure on interior nodes and modulo its mean (see the suite README).
"""

from __future__ import annotations

import numpy as np
from scipy.fft import dstn, idstn
from scipy.sparse import bmat, csc_matrix, lil_matrix
from scipy.sparse.linalg import splu

from simcodebench.suites.cfd_code.references.solution import Solution


def _poisson_symbol(m: int, h: float) -> np.ndarray:
    k = 2.0 * (np.cos(np.pi * np.arange(1, m + 1) / (m + 1)) - 1.0) / h**2
    return k[:, None] + k[None, :]


def _streamfunction(omega: np.ndarray, symbol: np.ndarray) -> np.ndarray:
    psi = np.zeros_like(omega)
    psi[1:-1, 1:-1] = idstn(dstn(-omega[1:-1, 1:-1], type=1) / symbol, type=1)
    return psi


def _wall_vorticity(omega: np.ndarray, psi: np.ndarray, h: float, lid: float) -> None:
    omega[0, :] = -2.0 * psi[1, :] / h**2
    omega[-1, :] = -2.0 * psi[-2, :] / h**2 - 2.0 * lid / h
    omega[:, 0] = -2.0 * psi[:, 1] / h**2
    omega[:, -1] = -2.0 * psi[:, -2] / h**2


def _velocity(psi: np.ndarray, h: float, lid: float) -> tuple[np.ndarray, np.ndarray]:
    u, v = np.zeros_like(psi), np.zeros_like(psi)
    u[1:-1, :] = (psi[2:, :] - psi[:-2, :]) / (2.0 * h)
    v[:, 1:-1] = -(psi[:, 2:] - psi[:, :-2]) / (2.0 * h)
    u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0.0, 0.0, 0.0, lid
    v[0, :], v[-1, :], v[:, 0], v[:, -1] = 0.0, 0.0, 0.0, 0.0
    return u, v


def _vorticity_rhs(omega: np.ndarray, psi: np.ndarray, h: float, nu: float, lid: float) -> np.ndarray:
    u, v = _velocity(psi, h, lid)
    c = omega[1:-1, 1:-1]
    out = np.zeros_like(omega)
    out[1:-1, 1:-1] = (
        -u[1:-1, 1:-1] * (omega[1:-1, 2:] - omega[1:-1, :-2]) / (2.0 * h)
        - v[1:-1, 1:-1] * (omega[2:, 1:-1] - omega[:-2, 1:-1]) / (2.0 * h)
        + nu * (omega[1:-1, 2:] + omega[1:-1, :-2] + omega[2:, 1:-1] + omega[:-2, 1:-1] - 4.0 * c) / h**2
    )
    return out


def _pressure(omega: np.ndarray, u: np.ndarray, v: np.ndarray, h: float, rho: float, nu: float) -> np.ndarray:
    """The physical pressure, of zero mean: ``lap(p) = 2 rho (u_x v_y - u_y v_x)`` with the wall values of the
    momentum equation as Neumann data (``grad p = rho nu (-omega_y, omega_x)`` on a wall at rest or sliding
    steadily), imposed through ghost nodes on every boundary node, and a zero-mean constraint (bordered system)."""
    n = u.shape[0]
    source = np.zeros_like(u)
    ux, uy = np.gradient(u, h, axis=1), np.gradient(u, h, axis=0)
    vx, vy = np.gradient(v, h, axis=1), np.gradient(v, h, axis=0)
    source[1:-1, 1:-1] = (2.0 * rho * (ux * vy - uy * vx))[1:-1, 1:-1]
    wx, wy = np.gradient(omega, h, axis=1), np.gradient(omega, h, axis=0)
    dpdx, dpdy = -rho * nu * wy, rho * nu * wx
    a = lil_matrix((n * n, n * n))
    rhs = source.ravel().copy()
    for j in range(n):
        for i in range(n):
            k = j * n + i
            a[k, k] -= 4.0 / h**2
            for dj, di in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                jj, ii = j + dj, i + di
                if 0 <= jj < n and 0 <= ii < n:
                    a[k, jj * n + ii] += 1.0 / h**2
                    continue
                # ghost node: p_ghost = p_mirror + 2 h (outward derivative)
                mirror = (j - dj) * n + (i - di)
                a[k, mirror] += 1.0 / h**2
                outward = dpdx[j, i] * di + dpdy[j, i] * dj
                rhs[k] -= 2.0 * outward / h
    ones = csc_matrix(np.ones((n * n, 1)))
    system = bmat([[csc_matrix(a), ones], [ones.T, None]])
    p = splu(csc_matrix(system)).solve(np.append(rhs, 0.0))[: n * n].reshape(n, n)
    return p - p.mean()


def lid_driven_cavity(
    points: int = 51,
    length: float = 2.0,
    nu: float = 0.1,
    t_end: float = 10.0,
    refine: int = 2,
    rho: float = 1.0,
    lid: float = 1.0,
) -> Solution:
    """u, v, p at ``t_end`` on ``points`` x ``points`` nodes of [0, length]^2, rows along y, the lid at the top,
    computed on a grid ``refine`` times finer; the time step keeps ``nu dt / h^2 <= 0.25`` (RK3 is stable to 0.31)."""
    n = (points - 1) * refine + 1
    h = length / (n - 1)
    steps = int(np.ceil(t_end / min(0.25 * h * h / nu, 0.5 * h / lid)))
    dt = t_end / steps
    symbol = _poisson_symbol(n - 2, h)
    omega = np.zeros((n, n))
    psi = np.zeros((n, n))
    _wall_vorticity(omega, psi, h, lid)

    def stage(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = _streamfunction(w, symbol)
        _wall_vorticity(w, s, h, lid)
        return s, _vorticity_rhs(w, s, h, nu, lid)

    for _ in range(steps):
        _, k1 = stage(omega)
        w1 = omega + dt * k1
        _, k2 = stage(w1)
        w2 = 0.75 * omega + 0.25 * (w1 + dt * k2)
        _, k3 = stage(w2)
        omega = omega / 3.0 + 2.0 / 3.0 * (w2 + dt * k3)
    psi = _streamfunction(omega, symbol)
    u, v = _velocity(psi, h, lid)
    p = _pressure(omega, u, v, h, rho, nu)
    x = np.linspace(0.0, length, points)
    return Solution(
        coords={"y": x, "x": x},
        fields={"u": u[::refine, ::refine], "v": v[::refine, ::refine], "p": p[::refine, ::refine]},
        method=f"streamfunction-vorticity (Thom walls), central differences, SSP-RK3, {n}x{n} nodes, {steps} steps;"
        " pressure from its Poisson equation with the momentum equation's wall gradients, zero mean",
    )
