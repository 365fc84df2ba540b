"""2-D Rayleigh-Benard convection (the Dedalus ``rayleigh_benard`` example), Fourier x Chebyshev.

Boussinesq equations in free-fall units on ``[0, Lx) x [0, Lz]``, periodic in ``x``, no-slip walls, buoyancy
``b = Lz`` at the bottom and ``0`` at the top, ``nu = (Ra / Pr)^(-1/2)``, ``kappa = (Ra Pr)^(-1/2)``. The fluid
starts at rest with ``b = Lz - z`` plus Gaussian noise of standard deviation ``noise`` damped at the walls by
``z (Lz - z)``; the noise is seeded, so each seed is one member of the ensemble that the problem defines.

Written as streamfunction and vorticity (``u = dpsi/dz``, ``w = -dpsi/dx``, ``omega = du/dz - dw/dx = lap psi``)
with ``b = Lz - z + theta``. Fourier modes in ``x`` (products on the 3/2-padded grid), Chebyshev-Gauss-Lobatto
collocation in ``z``; SBDF2 (backward Euler for the first step after each time-step change) with diffusion
implicit and advection and buoyancy explicit. Each Fourier mode solves one coupled collocation system for
``(omega, psi)``: the vorticity equation on the interior nodes, ``lap psi = omega`` on the interior nodes, and the
four no-slip conditions ``psi = dpsi/dz = 0`` at both walls (conditioned like a second-order operator, unlike
``lap^2 psi``). The step halves whenever the advective CFL number would exceed ``cfl`` and doubles back once
it has stayed well below it. The pressure at the end solves ``lap p = db/dz - d_i u_j d_j u_i`` with
``dp/dz = b + nu d2w/dz2`` on the walls and zero mean.

The members run one after the other in one process. Each step streams every mode's precomputed inverses (12.6 MB
at 256 x 65), so a member is memory-bound; two members at once in two processes took two to six times as long as
one after the other on the 2-core machine of benchmarks/results/cfd-code.md ("Rayleigh-Benard members at once").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import fft

from simcodebench.suites.cfd_code import convection_statistics
from simcodebench.suites.cfd_code.references.solution import Solution

FINEST = 10  # the smallest step is max_dt / 2^FINEST
STEADY = 50  # steps at one size before the step may double again


def chebyshev(points: int, length: float) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Lobatto nodes on ``[0, length]`` (increasing) and the differentiation matrix on them."""
    n = points - 1
    t = np.cos(np.pi * np.arange(points) / n)
    c = np.ones(points)
    c[0] = c[-1] = 2.0
    c *= (-1.0) ** np.arange(points)
    difference = t[:, None] - t[None, :] + np.eye(points)
    matrix = np.outer(c, 1.0 / c) / difference
    matrix -= np.diag(matrix.sum(axis=1))
    # z = (1 - t) length / 2, so d/dz = -(2 / length) d/dt.
    return (1.0 - t) * length / 2.0, -(2.0 / length) * matrix


class Convection:
    """The discretisation of one box: grids, operators, and the SBDF step for one step size."""

    def __init__(self, nx: int, nz: int, lx: float, lz: float, rayleigh: float, prandtl: float) -> None:
        self.nx, self.lx, self.lz = nx, lx, lz
        self.x = np.arange(nx) * lx / nx
        self.z, self.d1 = chebyshev(nz, lz)
        self.d2 = self.d1 @ self.d1
        self.k = 2 * np.pi * fft.rfftfreq(nx, lx / nx)
        self.padded = 3 * nx // 2
        self.nu = (rayleigh / prandtl) ** -0.5
        self.kappa = (rayleigh * prandtl) ** -0.5
        self.dt = 0.0
        self._systems: dict[tuple[float, int], tuple[np.ndarray, np.ndarray]] = {}

    # --- transforms between Fourier modes and the padded physical grid --------------------------------------
    # Internally ``z`` is the first axis and ``x`` (or the Fourier mode) the second, contiguous one.
    def to_grid(self, modes: np.ndarray) -> np.ndarray:
        """Values on the 3/2-padded ``x`` grid of ``modes`` (shape ``(nz, nx // 2 + 1)``, or a stack of them)."""
        return fft.irfft(modes, n=self.padded, axis=-1) * (self.padded / self.nx)

    def to_modes(self, values: np.ndarray) -> np.ndarray:
        """The first ``nx // 2 + 1`` modes of values on the padded grid (the rest dropped: dealiasing)."""
        modes = fft.rfft(values, axis=-1)[..., : self.k.size] * (self.nx / self.padded)
        modes[..., -1] = 0.0  # the Nyquist mode of the nx grid is kept at zero
        return modes

    def dz(self, modes: np.ndarray) -> np.ndarray:
        return self.d1 @ modes

    def dx(self, modes: np.ndarray) -> np.ndarray:
        return 1j * self.k * modes

    # --- implicit systems ---------------------------------------------------------------------------------
    def _build(self, order: int) -> tuple[np.ndarray, np.ndarray]:
        """Inverses of the per-mode systems: ``(omega, psi)`` (``2 nz`` unknowns) and ``theta``."""
        nz = self.z.size
        a = 1.0 / self.dt if order == 1 else 1.5 / self.dt
        eye = np.eye(nz)
        flow, heat = [], []
        for k in self.k:
            laplacian = self.d2 - k**2 * eye
            system = np.zeros((2 * nz, 2 * nz))
            system[:nz, :nz] = a * eye - self.nu * laplacian  # vorticity equation (interior rows kept)
            system[nz:, :nz] = -eye  # lap psi - omega = 0
            system[nz:, nz:] = laplacian
            walls = [0, nz - 1]
            system[walls, :] = 0.0  # no equation for omega on the walls: the no-slip rows go there
            system[walls, nz:] = self.d1[walls]  # dpsi/dz = 0
            system[[nz, 2 * nz - 1], :] = 0.0
            system[nz, nz] = system[2 * nz - 1, 2 * nz - 1] = 1.0  # psi = 0
            flow.append(np.linalg.inv(system)[:, 1 : nz - 1])
            diffusion = a * eye - self.kappa * laplacian
            diffusion[walls, :] = 0.0
            diffusion[0, 0] = diffusion[-1, -1] = 1.0  # theta = 0
            heat.append(np.linalg.inv(diffusion)[:, 1 : nz - 1])
        return np.array(flow), np.array(heat)

    def systems(self, order: int) -> tuple[np.ndarray, np.ndarray]:
        """The inverses for the current step and ``order`` (1: backward Euler, 2: SBDF2), built once each."""
        key = (self.dt, order)
        if key not in self._systems:
            self._systems[key] = self._build(order)
        return self._systems[key]

    def set_step(self, dt: float) -> None:
        """Use step ``dt`` from now on (its systems are built when first needed and kept)."""
        self.dt = dt

    # --- explicit terms -----------------------------------------------------------------------------------
    def velocity(self, psi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``u = dpsi/dz`` and ``w = -dpsi/dx`` as modes."""
        return self.dz(psi), -self.dx(psi)

    def explicit(self, omega: np.ndarray, psi: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """The explicit rates of ``omega`` and ``theta`` and the largest advective CFL number per unit step."""
        u_modes, w_modes = self.velocity(psi)
        stack = [u_modes, w_modes, self.dx(omega), self.dz(omega), self.dx(theta), self.dz(theta)]
        u, w, omega_x, omega_z, theta_x, theta_z = self.to_grid(np.array(stack))
        rates = -self.to_modes(np.array([u * omega_x + w * omega_z, u * theta_x + w * theta_z]))
        omega_rate = rates[0] - self.dx(theta)  # the buoyancy torque: -db/dx
        theta_rate = rates[1] + w_modes  # -w d(Lz - z)/dz
        spacing = np.gradient(self.z)
        rate = max(np.max(np.abs(u)) / (self.lx / self.nx), np.max(np.abs(w) / spacing[:, None]))
        return omega_rate, theta_rate, float(rate)

    def solve(self, order: int, omega_rhs: np.ndarray, theta_rhs: np.ndarray) -> tuple[np.ndarray, ...]:
        """``omega``, ``psi`` and ``theta`` at the new step from the right-hand sides (nodes by modes)."""
        flow, heat = self.systems(order)
        nz = self.z.size
        unknowns = _apply(flow, omega_rhs[1:-1])  # only the interior vorticity rows have a right-hand side
        return unknowns[:nz], unknowns[nz:], _apply(heat, theta_rhs[1:-1])

    # --- diagnostics --------------------------------------------------------------------------------------
    def physical(self, modes: np.ndarray) -> np.ndarray:
        """Values on the ``nx`` grid, ``x`` first."""
        return fft.irfft(modes, n=self.nx, axis=-1).T

    def pressure(self, psi: np.ndarray, theta: np.ndarray) -> np.ndarray:
        """The pressure (modes) with zero mean over the box."""
        u_modes, w_modes = self.velocity(psi)
        grads = [self.to_grid(f) for f in (self.dx(u_modes), self.dz(u_modes), self.dx(w_modes), self.dz(w_modes))]
        ux, uz, wx, wz = grads
        buoyancy = theta.copy()
        buoyancy[:, 0] += self.nx * (self.lz - self.z)  # the mean mode of an unnormalised rfft: nx times the mean
        source = self.dz(buoyancy) - self.to_modes(ux * ux + 2 * uz * wx + wz * wz)
        wall_flux = buoyancy + self.nu * (self.d2 @ w_modes)
        nz = self.z.size
        result = np.zeros_like(source)
        weights = mean_weights(nz)
        for index, k in enumerate(self.k):
            system = self.d2 - k**2 * np.eye(nz)
            rhs = source[:, index].copy()
            system[[0, -1]] = self.d1[[0, -1]]
            rhs[[0, -1]] = wall_flux[[0, -1], index]
            if index == 0:  # Neumann problem: least squares with the zero-mean row added
                system = np.vstack([system, weights])
                rhs = np.append(rhs, 0.0)
                result[:, index] = np.linalg.lstsq(system, rhs, rcond=None)[0]
            else:
                result[:, index] = np.linalg.solve(system, rhs)
        return result


def _apply(inverses: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """``inverses[k] @ rhs[:, k]`` for every mode ``k`` (real matrices, complex right-hand sides, nodes first)."""
    stacked = np.stack([rhs.real.T, rhs.imag.T], axis=-1)
    out = np.matmul(inverses, stacked)
    return (out[..., 0] + 1j * out[..., 1]).T


def mean_weights(points: int) -> np.ndarray:
    """Clenshaw-Curtis weights on the Gauss-Lobatto nodes, divided by the length: ``w @ f`` is the mean of ``f``
    over the interval, exact for polynomials of degree below ``points``."""
    n = points - 1
    theta = np.pi * np.arange(points) / n
    weights = np.zeros(points)
    inner = np.ones(n - 1)
    for k in range(1, n // 2 + 1):
        factor = 1.0 if 2 * k == n else 2.0
        inner -= factor * np.cos(2 * k * theta[1:-1]) / (4 * k * k - 1)
    weights[1:-1] = 2 * inner / n
    weights[0] = weights[-1] = 1.0 / (n * n - 1) if n % 2 == 0 else 1.0 / (n * n)
    return weights / 2


@dataclass(frozen=True)
class Setup:
    """The problem and its discretisation (``hidden.reference.params`` of the case, less ``seeds``)."""

    nx: int = 256
    nz: int = 65
    lx: float = 4.0
    lz: float = 1.0
    rayleigh: float = 2.0e6
    prandtl: float = 1.0
    t_end: float = 50.0
    max_dt: float = 0.0125
    cfl: float = 0.4
    noise: float = 1.0e-3


def simulate(setup: Setup, seed: int = 0) -> dict[str, np.ndarray]:
    """One member of the ensemble: ``b``, ``u``, ``w``, ``p`` at ``t_end`` (``x`` first) and the grid ``x``, ``z``.

    Raises ``ArithmeticError`` when the state stops being finite.
    """
    nx, nz, lz, max_dt, cfl = setup.nx, setup.nz, setup.lz, setup.max_dt, setup.cfl
    box = Convection(nx, nz, setup.lx, lz, setup.rayleigh, setup.prandtl)
    rng = np.random.default_rng(seed)
    theta0 = setup.noise * rng.standard_normal((nz, nx)) * (box.z * (lz - box.z))[:, None]
    theta = fft.rfft(theta0, axis=-1)
    theta[:, -1] = 0.0
    psi = np.zeros_like(theta)
    omega = np.zeros_like(theta)
    # Time in ticks of max_dt / 2^FINEST; a step of level m is max_dt / 2^m. The level goes up (the step halves)
    # when the CFL number would pass ``cfl`` and down again after STEADY steps at which twice the step would stay
    # below cfl / 2; each change restarts SBDF2 with a backward Euler step.
    end, now, level, steady = round(setup.t_end / max_dt) << FINEST, 0, 0, 0
    previous = None  # omega, theta and their explicit rates one step back, at the current step size
    while now < end:
        box.set_step(max_dt / 2**level)
        omega_rate, theta_rate, rate = box.explicit(omega, psi, theta)
        if not np.isfinite(rate):
            raise ArithmeticError(f"Rayleigh-Benard run (seed {seed}) blew up at t = {now * max_dt / 2**FINEST:.3f}")
        if rate * box.dt > cfl:
            if level == FINEST:
                raise ArithmeticError(f"Rayleigh-Benard run (seed {seed}): the step fell below max_dt / 2^{FINEST}")
            level, steady, previous = level + 1, 0, None
            continue
        coarser = FINEST - level + 1
        if level and steady >= STEADY and 2 * rate * box.dt < cfl / 2 and now % (1 << coarser) == 0:
            level, steady, previous = level - 1, 0, None
            continue
        if previous is None:
            new = box.solve(1, omega / box.dt + omega_rate, theta / box.dt + theta_rate)
        else:
            old_omega, old_theta, old_omega_rate, old_theta_rate = previous
            omega_rhs = (4 * omega - old_omega) / (2 * box.dt) + 2 * omega_rate - old_omega_rate
            theta_rhs = (4 * theta - old_theta) / (2 * box.dt) + 2 * theta_rate - old_theta_rate
            new = box.solve(2, omega_rhs, theta_rhs)
        previous = (omega, theta, omega_rate, theta_rate)
        omega, psi, theta = new
        now += 1 << (FINEST - level)
        steady += 1
    u_modes, w_modes = box.velocity(psi)
    return {
        "x": box.x,
        "z": box.z,
        "b": box.physical(theta) + (lz - box.z)[None, :],
        "u": box.physical(u_modes),
        "w": box.physical(w_modes),
        "p": box.physical(box.pressure(psi, theta)),
    }


def rayleigh_benard(seeds: int = 6, **params: float) -> Solution:
    """The ensemble of ``seeds`` runs, one after the other: the snapshot of seed 0 (``b``, ``u``, ``w``, ``p``),
    each member's statistics (``<name>_members``, see :mod:`..convection_statistics`) and their mean
    (``theta_mean`` as a field, the numbers in ``meta`` with ``kappa``, ``lz`` and the worst leave-one-out
    error)."""
    setup = Setup(**params)
    kappa = (setup.rayleigh * setup.prandtl) ** -0.5
    runs = [simulate(setup, seed) for seed in range(seeds)]  # serial: see the module docstring
    members = [convection_statistics.snapshot_statistics(run, run["z"], kappa, setup.lz) for run in runs]
    first = runs[0]
    mean = convection_statistics.ensemble_mean(members)
    fields = {name: first[name] for name in ("b", "u", "w", "p")}
    fields |= {f"{name}_members": np.array([member[name] for member in members]) for name in members[0]}
    fields["theta_mean"] = mean["theta_mean"]
    return Solution(
        coords={"x": first["x"], "z": first["z"]},
        fields=fields,
        method=(
            f"Fourier x Chebyshev streamfunction-vorticity, SBDF2, {setup.nx} x {setup.nz} nodes, ensemble of {seeds} "
            f"seeds of the initial noise (fields: seed 0; statistics: ensemble mean)"
        ),
        meta={
            "kappa": kappa,
            "lz": setup.lz,
            **{name: float(mean[name]) for name in ("nusselt_wall", "u_rms", "nusselt_volume")},
            "leave_one_out_worst": max(convection_statistics.leave_one_out(members)),
        },
    )
