"""Second solution of cfd-code/2D_Diffusion, written apart from the reference: finite volumes on NX x NY cells
of [0, 2]^2 (values at the cell centres; the initial box [0.5, 1]^2 as exact cell averages, so no node sits on
its edge), Peaceman-Rachford ADI in time (two tridiagonal sweeps per step, unconditionally stable) with NT
steps, u = 1 on the walls through ghost cells."""

import numpy as np
from scipy.linalg import solve_banded

NX = 80
NY = 80
NT = 80

NU, LENGTH, T_END = 0.05, 2.0, 0.3777

dx, dy = LENGTH / NX, LENGTH / NY
dt = T_END / NT
fx = np.linspace(0.0, LENGTH, NX + 1)
fy = np.linspace(0.0, LENGTH, NY + 1)
x, y = 0.5 * (fx[:-1] + fx[1:]), 0.5 * (fy[:-1] + fy[1:])


def box_fraction(faces: np.ndarray, h: float) -> np.ndarray:
    return np.clip(np.minimum(faces[1:], 1.0) - np.maximum(faces[:-1], 0.5), 0.0, None) / h


u = 1.0 + np.outer(box_fraction(fy, dy), box_fraction(fx, dx))  # u[j, i]


def second_difference(v: np.ndarray, h: float, axis: int) -> np.ndarray:
    """Second difference along ``axis`` with the wall value 1 through ghost cells (ghost = 2 - v)."""
    v = np.moveaxis(v, axis, 0)
    ghost_lo, ghost_hi = 2.0 - v[:1], 2.0 - v[-1:]
    padded = np.concatenate([ghost_lo, v, ghost_hi])
    return np.moveaxis((padded[2:] - 2 * v + padded[:-2]) / h**2, 0, axis)


def implicit_sweep(rhs: np.ndarray, h: float, axis: int) -> np.ndarray:
    """Solve (1 - dt/2 nu d2) v = rhs along ``axis`` (the wall value 1 moved to the right-hand side)."""
    r = 0.5 * dt * NU / h**2
    rhs = np.moveaxis(rhs, axis, 0).copy()
    n = rhs.shape[0]
    bands = np.zeros((3, n))
    bands[0, 1:] = -r
    bands[1] = 1 + 2 * r
    bands[1, [0, -1]] = 1 + 3 * r
    bands[2, :-1] = -r
    rhs[0] += 2 * r
    rhs[-1] += 2 * r
    return np.moveaxis(solve_banded((1, 1), bands, rhs), 0, axis)


for _ in range(NT):
    half = implicit_sweep(u + 0.5 * dt * NU * second_difference(u, dy, 0), dx, 1)
    u = implicit_sweep(half + 0.5 * dt * NU * second_difference(half, dx, 1), dy, 0)

np.savez("solution.npz", u=u, x=x, y=y)
