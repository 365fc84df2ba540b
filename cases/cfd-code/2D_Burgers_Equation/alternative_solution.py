"""Second solution of cfd-code/2D_Burgers_Equation, written apart from the reference: with u = v initially and on
the walls, the symmetric equations keep u = v, which solves u_t + (u^2/2)_x + (u^2/2)_y = nu lap u; finite
volumes on NX x NY cells (cell centres; the box as exact cell averages), unsplit MUSCL (minmod) with Godunov's
flux for the advection, central differences for the diffusion (u = 1 on the walls through ghost cells =
2 - u), SSP-RK2 at CFL 0.4 including the diffusion limit, at least NT steps; v is saved equal to u."""

import numpy as np

NX = 200
NY = 200
NT = 100

T_END, NU, WAVE, CFL = 0.027, 0.01, 1.0, 0.4


def riemann(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Exact Riemann (Godunov) flux of f(u) = u^2 / 2."""
    f_left, f_right = 0.5 * left**2, 0.5 * right**2
    rarefaction = np.where((left < 0) & (right > 0), 0.0, np.minimum(f_left, f_right))
    return np.where(left > right, np.maximum(f_left, f_right), rarefaction)


LENGTH = 2.0
dx, dy = LENGTH / NX, LENGTH / NY
fx, fy = np.linspace(0.0, LENGTH, NX + 1), np.linspace(0.0, LENGTH, NY + 1)
x, y = 0.5 * (fx[:-1] + fx[1:]), 0.5 * (fy[:-1] + fy[1:])


def box_fraction(faces: np.ndarray, h: float) -> np.ndarray:
    return np.clip(np.minimum(faces[1:], 1.0) - np.maximum(faces[:-1], 0.5), 0.0, None) / h


u = 1.0 + np.outer(box_fraction(fy, dy), box_fraction(fx, dx))  # exact cell averages, u[j, i]


def minmod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(a * b > 0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def face_fluxes(row: np.ndarray) -> np.ndarray:
    """Fluxes through the faces along the last axis of ``row`` (the wall value 1 in two ghost cells a side)."""
    padded = np.pad(row, [(0, 0), (2, 2)], constant_values=1.0)
    slope = minmod(padded[:, 1:-1] - padded[:, :-2], padded[:, 2:] - padded[:, 1:-1])
    centre = padded[:, 1:-1]
    left, right = (centre + 0.5 * slope)[:, :-1], (centre - 0.5 * slope)[:, 1:]
    return riemann(left, right)


def rate(u: np.ndarray) -> np.ndarray:
    fx_ = face_fluxes(u)
    fy_ = face_fluxes(u.T).T
    change = -(fx_[:, 1:] - fx_[:, :-1]) / dx - (fy_[1:, :] - fy_[:-1, :]) / dy
    if NU:
        padded = np.pad(2.0 - u, 1)  # ghost = 2 * 1 - u at the walls
        padded[1:-1, 1:-1] = u
        padded[0, 1:-1], padded[-1, 1:-1] = 2.0 - u[0], 2.0 - u[-1]
        padded[1:-1, 0], padded[1:-1, -1] = 2.0 - u[:, 0], 2.0 - u[:, -1]
        change += NU * (
            (padded[1:-1, 2:] - 2 * u + padded[1:-1, :-2]) / dx**2
            + (padded[2:, 1:-1] - 2 * u + padded[:-2, 1:-1]) / dy**2
        )
    return change


t = 0.0
while t < T_END - 1e-12:
    speed = np.abs(u).max() * WAVE
    limit = CFL / (speed / dx + speed / dy + (4 * NU / dx**2 if NU else 0.0))
    dt = min(limit, T_END / NT, T_END - t)
    stage = u + dt * rate(u)
    u = 0.5 * (u + stage + dt * rate(stage))
    t += dt

np.savez("solution.npz", u=u, v=u.copy(), x=x, y=y)
