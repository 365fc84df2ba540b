"""The lid-driven cavity's semi-discrete problem (:mod:`.cavity`) integrated with implicit viscous terms.

The same spatial discretisation as :func:`.cavity.lid_driven_cavity` (central differences, Thom's wall
vorticity ``omega_w = -2 psi_1 / h^2 - 2 U_w / h``, the streamfunction from the 5-point Poisson equation, the
pressure from :func:`.cavity._pressure`), but time-stepped by SBDF2 (backward differences of second order for
the viscous term, the convective term extrapolated; the first step backward and forward Euler): the time step is
no longer bound by the explicit diffusion limit ``nu dt / h^2 <= 0.25``, which makes grids 4 and 8 times finer
than the output grid affordable (the refinement check of the fresh cavities, :mod:`..fresh_checks`).

The viscous operator on the interior vorticity ``W`` includes the wall values that Thom's condition ties to the
streamfunction: with ``A`` the Dirichlet 5-point Laplacian and ``P`` the selection of the interior nodes next to
the walls, ``L W = nu (A W + 2 / h^4 P^T P A^{-1} W)`` (plus the lid's constant term). ``alpha - nu A`` is
diagonal in the sine basis; the low-rank wall coupling is solved by the Sherman-Morrison-Woodbury identity with a
dense capacitance matrix of the ``4 (n - 2)`` near-wall nodes, factorised once per step coefficient.
"""

from __future__ import annotations

import numpy as np
from scipy.fft import dstn
from scipy.linalg import lu_factor, lu_solve

from simcodebench.suites.cfd_code.references.cavity import _poisson_symbol, _pressure, _velocity, _wall_vorticity
from simcodebench.suites.cfd_code.references.solution import Solution


def _sine(x: np.ndarray) -> np.ndarray:
    """The orthonormal 2-D sine transform (its own inverse) over the last two axes."""
    return dstn(x, type=1, norm="ortho", axes=(-2, -1))


def _basis(m: int) -> np.ndarray:
    """The orthonormal sine basis ``phi[k, j]`` of ``m`` interior nodes (symmetric, its own inverse)."""
    k = np.arange(1, m + 1)
    return np.sqrt(2.0 / (m + 1)) * np.sin(np.pi * np.outer(k, k) / (m + 1))


def _near_wall(x: np.ndarray) -> np.ndarray:
    """``P x``: the values of an interior field at the nodes next to the bottom, top, left and right walls."""
    return np.concatenate([x[0, :], x[-1, :], x[:, 0], x[:, -1]])


def _scatter(z: np.ndarray, m: int) -> np.ndarray:
    """``P^T z``: near-wall values added into an interior field (a corner node takes two)."""
    out = np.zeros((m, m))
    out[0, :] += z[:m]
    out[-1, :] += z[m : 2 * m]
    out[:, 0] += z[2 * m : 3 * m]
    out[:, -1] += z[3 * m :]
    return out


def capacitance(spectrum: np.ndarray) -> np.ndarray:
    """``P S^T diag(spectrum) S P^T``: the operator with eigenvalues ``spectrum`` in the sine basis ``S``,
    restricted to the near-wall nodes (rows and columns ordered as :func:`_near_wall`), block by block from the
    basis' separable form ``phi[k, r] phi[l, c]``."""
    m = spectrum.shape[0]
    phi = _basis(m)
    ends = (0, m - 1)
    blocks = [[np.empty((m, m)) for _ in range(4)] for _ in range(4)]
    for a in range(4):
        for b in range(4):
            ra, rb = ends[a % 2], ends[b % 2]
            if a < 2 and b < 2:  # two rows: the fixed row indices weight the y modes
                w = (phi[:, ra] * phi[:, rb]) @ spectrum
                blocks[a][b] = phi.T @ (w[:, None] * phi)
            elif a >= 2 and b >= 2:  # two columns: the fixed column indices weight the x modes
                w = spectrum @ (phi[:, ra] * phi[:, rb])
                blocks[a][b] = phi.T @ (w[:, None] * phi)
            elif a < 2:  # a row (index along x) against a column (index along y)
                x = phi[:, rb][:, None] * spectrum.T * phi[:, ra][None, :]
                blocks[a][b] = phi.T @ x @ phi
            else:
                x = phi[:, ra][:, None] * spectrum.T * phi[:, rb][None, :]
                blocks[a][b] = (phi.T @ x @ phi).T
    return np.block(blocks)


class _ViscousSolver:
    """Solves ``(alpha - L) W = R`` for the interior vorticity (module docstring)."""

    def __init__(self, alpha: float, symbol: np.ndarray, h: float, nu: float) -> None:
        self.kappa = alpha - nu * symbol
        self.coupling = 2.0 * nu / h**4
        self.symbol = symbol
        m = symbol.shape[0]
        self.phi = _basis(m)
        g = capacitance(1.0 / (symbol * self.kappa))
        self.lu = lu_factor(np.eye(4 * m) - self.coupling * g)

    def near_wall_of(self, spectral: np.ndarray) -> np.ndarray:
        """``P`` of the field whose sine coefficients are ``spectral``, without the full transform."""
        phi = self.phi
        return np.concatenate(
            [
                phi[0] @ spectral @ phi,
                phi[-1] @ spectral @ phi,
                phi @ (spectral @ phi[:, 0]),
                phi @ (spectral @ phi[:, -1]),
            ]
        )

    def solve(self, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The interior vorticity and its sine coefficients."""
        m = rhs.shape[0]
        r_hat = _sine(rhs)
        z = lu_solve(self.lu, self.near_wall_of(r_hat / (self.symbol * self.kappa)))
        w_hat = (r_hat + self.coupling * _sine(_scatter(z, m))) / self.kappa
        return _sine(w_hat), w_hat


def lid_driven_cavity_implicit(
    points: int = 51,
    length: float = 2.0,
    nu: float = 0.1,
    t_end: float = 10.0,
    refine: int = 4,
    steps: int = 2000,
    rho: float = 1.0,
    lid: float = 1.0,
) -> Solution:
    """u, v, p at ``t_end`` on ``points`` x ``points`` nodes of [0, length]^2 (rows along y, the lid at the
    top), computed on a grid ``refine`` times finer with ``steps`` SBDF2 steps."""
    n = (points - 1) * refine + 1
    m = n - 2
    h = length / (n - 1)
    dt = t_end / steps
    symbol = _poisson_symbol(m, h)
    omega, psi = np.zeros((n, n)), np.zeros((n, n))
    lid_term = np.zeros((m, m))
    lid_term[-1, :] = nu / h**2 * (-2.0 * lid / h)  # the lid's constant part of Thom's wall vorticity

    def convection(w_hat: np.ndarray) -> np.ndarray:
        omega[1:-1, 1:-1] = _sine(w_hat)
        psi[1:-1, 1:-1] = _sine(-w_hat / symbol)
        _wall_vorticity(omega, psi, h, lid)
        u, v = _velocity(psi, h, lid)
        return (
            -u[1:-1, 1:-1] * (omega[1:-1, 2:] - omega[1:-1, :-2]) - v[1:-1, 1:-1] * (omega[2:, 1:-1] - omega[:-2, 1:-1])
        ) / (2.0 * h)

    first = _ViscousSolver(1.0 / dt, symbol, h, nu)
    w_old, w_hat = np.zeros((m, m)), np.zeros((m, m))
    n_old = convection(w_hat)
    w, w_hat = first.solve(w_old / dt + n_old + lid_term)
    later = _ViscousSolver(1.5 / dt, symbol, h, nu) if steps > 1 else first
    for _ in range(steps - 1):
        n_new = convection(w_hat)
        rhs = (4.0 * w - w_old) / (2.0 * dt) + 2.0 * n_new - n_old + lid_term
        w_old, n_old = w, n_new
        w, w_hat = later.solve(rhs)
    omega[1:-1, 1:-1] = w
    psi[1:-1, 1:-1] = _sine(-w_hat / symbol)
    _wall_vorticity(omega, psi, h, lid)
    u, v = _velocity(psi, h, lid)
    p = _pressure(omega, u, v, h, rho, nu)
    x = np.linspace(0.0, length, points)
    return Solution(
        coords={"y": x, "x": x},
        fields={"u": u[::refine, ::refine], "v": v[::refine, ::refine], "p": p[::refine, ::refine]},
        method=f"streamfunction-vorticity (Thom walls), central differences, SBDF2 with implicit viscous terms, "
        f"{n}x{n} nodes, {steps} steps; pressure as the reference's",
    )
