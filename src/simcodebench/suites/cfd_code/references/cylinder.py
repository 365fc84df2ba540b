"""Flow past a circular cylinder, streamfunction-vorticity in polar coordinates (the upstream discretisation).

First order, and not converged at the refinements it can take (it diverges at 8x): no longer the case's reference
(that is :mod:`.cylinder_logpolar`, second order); kept as the released scheme with its stencil fixed, which
relates the upstream arrays to the converged flow (tests/test_cfd_code_references.py).

Grid: ``r`` in [0.5, 10] (nr nodes), ``theta`` in [0, 2 pi] with the end node repeating the first. Each step
solves ``r lap(psi) = -r omega`` (conservative radial differences, periodic in theta; ``psi = 20`` on the
cylinder, ``psi = v_inf y + 20`` on the outer circle) exactly by sparse LU, then advances the vorticity by one
explicit step: first-order upwind convection with the velocities ``u_r = psi_theta / r``, ``u_theta = -psi_r``
(one-sided differences at the theta seam and on the circles, as upstream), central diffusion, Thom's wall
vorticity ``2 (psi_0 - psi_1) / dr^2`` and ``omega = 0`` outside. Two departures from the upstream script: the
Poisson equation is solved exactly (upstream iterates SOR to an L2 change below 0.01), and the diffusion term is
``nu lap(omega)`` (upstream's stencil weights the centre node by -1 instead of -2 in each direction, which adds
a spurious growth term ``nu (1/dr^2 + 1/(r dtheta)^2) omega``).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csc_matrix, lil_matrix
from scipy.sparse.linalg import splu

from simcodebench.suites.cfd_code.references.solution import Solution


def _poisson(r: np.ndarray, dr: float, dth: float):
    """LU of the operator ``r lap`` on the nodes ``i = 1..nr-2``, ``j = 0..nth-2`` (periodic in ``j``)."""
    nr, m = r.size - 2, int(round(2.0 * np.pi / dth))
    a = lil_matrix((nr * m, nr * m))
    for i in range(1, r.size - 1):
        east, west = (r[i + 1] + r[i]) / (2 * dr**2), (r[i - 1] + r[i]) / (2 * dr**2)
        ang = 1.0 / (r[i] * dth**2)
        for j in range(m):
            k = (i - 1) * m + j
            a[k, k] = -(east + west + 2 * ang)
            if i + 1 < r.size - 1:
                a[k, i * m + j] = east
            if i - 1 > 0:
                a[k, (i - 2) * m + j] = west
            a[k, (i - 1) * m + (j + 1) % m] += ang
            a[k, (i - 1) * m + (j - 1) % m] += ang
    return splu(csc_matrix(a))


def cylinder_flow(
    nr: int = 60,
    nth: int = 40,
    r_in: float = 0.5,
    r_out: float = 10.0,
    nu: float = 0.005,
    v_inf: float = 1.0,
    dt: float = 0.05,
    steps: int = 201,
    psi_wall: float = 20.0,
    refine: int = 1,
) -> Solution:
    """psi and omega (rows along r, columns along theta) after ``steps`` steps of ``dt`` from rest, computed on a
    grid ``refine`` times finer with ``refine`` times more steps, sampled on the ``nr`` x ``nth`` nodes."""
    nr, nth = (nr - 1) * refine + 1, (nth - 1) * refine + 1
    dt, steps = dt / refine, steps * refine
    r, theta = np.linspace(r_in, r_out, nr), np.linspace(0.0, 2.0 * np.pi, nth)
    dr, dth = r[1] - r[0], theta[1] - theta[0]
    m = nth - 1
    lu = _poisson(r, dr, dth)
    rr = r[:, None]
    psi, omega = np.zeros((nr, nth)), np.zeros((nr, nth))
    psi[0, :], psi[-1, :] = psi_wall, v_inf * r_out * np.sin(theta) + psi_wall
    east = ((r[2:] + r[1:-1]) / (2 * dr**2))[:, None]
    west = ((r[:-2] + r[1:-1]) / (2 * dr**2))[:, None]
    for _ in range(steps):
        rhs = -(rr[1:-1] * omega[1:-1, :m])
        rhs[0] -= west[0, 0] * psi[0, :m]
        rhs[-1] -= east[-1, 0] * psi[-1, :m]
        psi[1:-1, :m] = lu.solve(rhs.ravel()).reshape(nr - 2, m)
        psi[:, -1] = psi[:, 0]
        u_r = np.empty_like(psi)
        u_r[:, 1:-1] = (psi[:, 2:] - psi[:, :-2]) / (2 * dth) / rr
        u_r[:, 0] = (psi[:, 1] - psi[:, 0]) / dth / r
        u_r[:, -1] = (psi[:, -1] - psi[:, -2]) / dth / r
        u_t = np.empty_like(psi)
        u_t[1:-1] = -(psi[2:] - psi[:-2]) / (2 * dr)
        u_t[0], u_t[-1] = -(psi[1] - psi[0]) / dr, -(psi[-1] - psi[-2]) / dr
        w = omega[:, :m]
        wp, wm = np.roll(w, -1, axis=1), np.roll(w, 1, axis=1)  # theta neighbours, periodic
        ri, ur, ut = rr[1:-1], u_r[1:-1, :m], u_t[1:-1, :m]
        convection = (
            np.maximum(ur, 0) * (w[1:-1] - w[:-2]) / dr
            + np.minimum(ur, 0) * (w[2:] - w[1:-1]) / dr
            + np.maximum(ut, 0) / ri * (w[1:-1] - wm[1:-1]) / dth
            + np.minimum(ut, 0) / ri * (wp[1:-1] - w[1:-1]) / dth
        )
        diffusion = nu * (
            (w[2:] - 2 * w[1:-1] + w[:-2]) / dr**2
            + (w[2:] - w[:-2]) / (2 * ri * dr)
            + (wp[1:-1] - 2 * w[1:-1] + wm[1:-1]) / (ri**2 * dth**2)
        )
        new = w[1:-1] + dt * (diffusion - convection)
        omega[1:-1, :m] = new
        omega[:, -1] = omega[:, 0]
        omega[0, :] = 2.0 * (psi[0, :] - psi[1, :]) / dr**2
        omega[-1, :] = 0.0
    return Solution(
        coords={"r": r[::refine], "theta": theta[::refine]},
        fields={"psi": psi[::refine, ::refine], "omega": omega[::refine, ::refine]},
        method=f"streamfunction-vorticity, upwind convection, {nr}x{nth} nodes, exact Poisson solves, {steps} steps",
    )
