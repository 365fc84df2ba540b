"""Flow past a circular cylinder, second order: streamfunction-vorticity on a log-polar grid (the reference).

With ``r = r_in exp(xi)`` the Laplacian is ``(psi_xixi + psi_thth) / r^2``, so square cells in ``(xi, theta)``
pack nodes at the wall where the boundary layer (thickness about ``1 / sqrt(Re)``) lives. Each stage of a
Shu-Osher SSP-RK3 step solves ``psi_xixi + psi_thth = -r^2 omega`` (the five-point operator, exactly: sine
transform in ``xi``, Fourier in ``theta``, on top of the discrete harmonic field that carries ``psi = 20`` on
the cylinder and ``v_inf y + 20`` on the outer circle), sets the wall vorticity by Thom's formula
``2 (psi_0 - psi_1) / (r_in h)^2`` (the prompt's ``2 (psi_0 - psi_1) / dr^2`` in the mapped coordinate) and
``omega = 0`` outside, and advances the interior with Arakawa's Jacobian (second order, conserving energy and
enstrophy) and central diffusion: ``r^2 omega_t = J(psi, omega) + nu (omega_xixi + omega_thth)``.

The step is the largest that the diffusion and convection limits of RK3 allow with a margin, raised to a whole
number of steps to the final time. Fields are sampled on the ``nr`` x ``nth`` output nodes (uniform ``r``,
``theta`` with the end node repeating the first): exactly in ``theta`` (``refine * (nth - 1)`` azimuthal
cells), by cubic splines along ``xi`` in ``r``.
"""

from __future__ import annotations

import numpy as np
from scipy.fft import dst, idst, irfft, rfft
from scipy.interpolate import CubicSpline

from simcodebench.suites.cfd_code.references.solution import Solution


class LogPolarFlow:
    """The discrete problem on ``(nxi + 1) x nth`` nodes: ``xi_i = i h``, ``theta_j = 2 pi j / nth``."""

    def __init__(self, nth: int, r_in: float, r_out: float, nu: float, v_inf: float, psi_wall: float) -> None:
        self.nth, self.nu = nth, nu
        self.h = 2.0 * np.pi / nth
        self.nxi = max(2, round(np.log(r_out / r_in) / self.h))
        self.dxi = np.log(r_out / r_in) / self.nxi  # within a few per cent of h: cells nearly square
        self.r = r_in * np.exp(self.dxi * np.arange(self.nxi + 1))
        self.theta = self.h * np.arange(nth)
        self.r2 = (self.r**2)[1:-1, None]
        m = np.arange(1, self.nxi)
        k = np.arange(nth // 2 + 1)
        lam_xi = (2.0 - 2.0 * np.cos(np.pi * m / self.nxi)) / self.dxi**2
        lam_th = (2.0 - 2.0 * np.cos(self.h * k)) / self.h**2
        self.inverse = -1.0 / (lam_xi[:, None] + lam_th[None, :])
        self.lift = self._harmonic(v_inf, psi_wall, r_in, r_out)
        self.psi_wall = psi_wall

    def _harmonic(self, v_inf: float, psi_wall: float, r_in: float, r_out: float) -> np.ndarray:
        """The five-point harmonic field with the boundary values: ``psi_wall`` plus ``f_i sin(theta)``, where
        ``f`` solves the discrete ``f'' - lam f = 0`` with ``f = 0`` at the wall and ``v_inf r_out`` outside."""
        lam = (2.0 - 2.0 * np.cos(self.h)) / self.h**2
        n = self.nxi
        a = np.zeros((n - 1, n - 1))
        idx = np.arange(n - 1)
        a[idx, idx] = -2.0 / self.dxi**2 - lam
        a[idx[:-1], idx[:-1] + 1] = a[idx[:-1] + 1, idx[:-1]] = 1.0 / self.dxi**2
        b = np.zeros(n - 1)
        b[-1] = -v_inf * r_out / self.dxi**2
        f = np.concatenate([[0.0], np.linalg.solve(a, b), [v_inf * r_out]])
        return psi_wall + f[:, None] * np.sin(self.theta)[None, :]

    def streamfunction(self, omega: np.ndarray) -> np.ndarray:
        """psi with ``lap psi = -omega`` at the interior nodes and the boundary values (Dirichlet)."""
        rhs = -self.r2 * omega[1:-1]
        hat = dst(rfft(rhs, axis=1), type=1, axis=0) * self.inverse
        psi = self.lift.copy()
        psi[1:-1] += irfft(idst(hat, type=1, axis=0), n=self.nth, axis=1)
        return psi

    def wall_vorticity(self, psi: np.ndarray) -> np.ndarray:
        """Thom's formula in the mapped coordinate: ``-psi_rr`` at the wall, where ``psi_r = 0``."""
        return 2.0 * (psi[0] - psi[1]) / (self.r[0] * self.dxi) ** 2

    def tendency(self, omega: np.ndarray) -> np.ndarray:
        """``omega_t`` at the interior nodes; ``omega``'s wall row is overwritten by Thom's formula."""
        psi = self.streamfunction(omega)
        omega[0] = self.wall_vorticity(psi)
        omega[-1] = 0.0
        return (_arakawa(psi, omega, self.dxi, self.h) + self.nu * _laplacian(omega, self.dxi, self.h)) / self.r2

    def stable_step(self, u_max: float = 2.2, margin: float = 0.85) -> float:
        """A step inside SSP-RK3's stability region (2.51 on the negative real axis, 1.73 on the imaginary one) for
        the five-point diffusion's largest eigenvalue at the wall and central convection at speed ``u_max``."""
        cell = self.r[0] * min(self.dxi, self.h)
        diffusion = 8.0 * self.nu / cell**2
        convection = np.sqrt(2.0) * u_max / cell
        return margin / (diffusion / 2.51 + convection / 1.73)

    def run(self, t_end: float, steps: int) -> tuple[np.ndarray, np.ndarray]:
        """psi and omega at ``t_end`` after ``steps`` SSP-RK3 steps from rest."""
        omega = np.zeros((self.nxi + 1, self.nth))
        dt = t_end / steps
        for _ in range(steps):
            w1 = omega.copy()
            w1[1:-1] += dt * self.tendency(omega)
            w2 = w1.copy()
            w2[1:-1] = 0.75 * omega[1:-1] + 0.25 * (w1[1:-1] + dt * self.tendency(w1))
            w3 = w2[1:-1] + dt * self.tendency(w2)
            omega[1:-1] = omega[1:-1] / 3.0 + 2.0 / 3.0 * w3
        psi = self.streamfunction(omega)
        omega[0] = self.wall_vorticity(psi)
        omega[-1] = 0.0
        return psi, omega


def _laplacian(w: np.ndarray, dxi: float, h: float) -> np.ndarray:
    """The five-point ``w_xixi + w_thth`` at the interior nodes (periodic in theta)."""
    c = w[1:-1]
    return (w[2:] - 2 * c + w[:-2]) / dxi**2 + (np.roll(c, -1, 1) - 2 * c + np.roll(c, 1, 1)) / h**2


def _arakawa(p: np.ndarray, w: np.ndarray, dxi: float, h: float) -> np.ndarray:
    """Arakawa's Jacobian ``p_xi w_th - p_th w_xi`` at the interior nodes (periodic in theta)."""
    pe, pw, we, ww, pc, wc = p[2:], p[:-2], w[2:], w[:-2], p[1:-1], w[1:-1]
    # theta + 1 (n) and theta - 1 (s) neighbours, periodic
    pen, pes, pwn, pws = np.roll(pe, -1, 1), np.roll(pe, 1, 1), np.roll(pw, -1, 1), np.roll(pw, 1, 1)
    wen, wes, wwn, wws = np.roll(we, -1, 1), np.roll(we, 1, 1), np.roll(ww, -1, 1), np.roll(ww, 1, 1)
    pcn, pcs, wcn, wcs = np.roll(pc, -1, 1), np.roll(pc, 1, 1), np.roll(wc, -1, 1), np.roll(wc, 1, 1)
    j1 = (pe - pw) * (wcn - wcs) - (pcn - pcs) * (we - ww)
    j2 = pe * (wen - wes) - pw * (wwn - wws) - pcn * (wen - wwn) + pcs * (wes - wws)
    j3 = wcn * (pen - pwn) - wcs * (pes - pws) - we * (pen - pes) + ww * (pwn - pws)
    return (j1 + j2 + j3) / (12.0 * dxi * h)


def cylinder_logpolar(
    nr: int = 60,
    nth: int = 40,
    r_in: float = 0.5,
    r_out: float = 10.0,
    nu: float = 0.005,
    v_inf: float = 1.0,
    t_end: float = 10.05,
    psi_wall: float = 20.0,
    refine: int = 6,
) -> Solution:
    """psi and omega (rows along r, columns along theta) at ``t_end`` from rest on ``refine * (nth - 1)``
    azimuthal cells, sampled on ``nr`` uniform radii by ``nth`` angles (the end angle repeating the first)."""
    flow = LogPolarFlow(refine * (nth - 1), r_in, r_out, nu, v_inf, psi_wall)
    steps = int(np.ceil(t_end / flow.stable_step()))
    psi, omega = flow.run(t_end, steps)
    r_out_nodes = np.linspace(r_in, r_out, nr)
    xi_out = np.log(r_out_nodes / r_in)
    xi = flow.dxi * np.arange(flow.nxi + 1)
    cols = np.r_[np.arange(0, flow.nth, refine), 0]
    sample = {name: CubicSpline(xi, f[:, cols], axis=0)(xi_out) for name, f in (("psi", psi), ("omega", omega))}
    return Solution(
        coords={"r": r_out_nodes, "theta": np.linspace(0.0, 2.0 * np.pi, nth)},
        fields=sample,
        method=f"streamfunction-vorticity on a log-polar grid, {flow.nxi + 1}x{flow.nth} nodes, Arakawa Jacobian, "
        f"SSP-RK3, {steps} steps, Thom's wall vorticity",
        meta={"steps": float(steps)},
    )
