"""Second solution of cfd-code/1D_Euler_Shock_Tube, written apart from the reference: finite volumes on NX cells
of [-1, 1] (values at the cell centres), the HLL approximate Riemann solver, van Leer-limited reconstruction of
the conservative variables, SSP-RK3 with at least NT steps (more where CFL 0.5 needs them), reflective ends by
mirrored ghost cells."""

import numpy as np

NX = 400
NT = 250

GAMMA, T_END = 1.4, 0.25

dx = 2.0 / NX
x = -1.0 + (np.arange(NX) + 0.5) * dx
rho = np.where(x < 0, 1.0, 0.125)
p = np.where(x < 0, 1.0, 0.1)
q = np.stack([rho, np.zeros(NX), p / (GAMMA - 1)])  # rho, rho u, rho E


def primitives(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rho = q[0]
    u = q[1] / rho
    p = (GAMMA - 1) * (q[2] - 0.5 * rho * u**2)
    return rho, u, p


def flux(q: np.ndarray) -> np.ndarray:
    rho, u, p = primitives(q)
    return np.stack([rho * u, rho * u**2 + p, u * (q[2] + p)])


def limited(q: np.ndarray) -> np.ndarray:
    """Van Leer-limited slopes of each conservative variable (ghost cells included in ``q``)."""
    back, fwd = q[:, 1:-1] - q[:, :-2], q[:, 2:] - q[:, 1:-1]
    return np.where(back * fwd > 0, 2 * back * fwd / np.where(back + fwd == 0, 1.0, back + fwd), 0.0)


def rate(q: np.ndarray) -> np.ndarray:
    mirrored = np.array([1.0, -1.0, 1.0])[:, None]
    padded = np.concatenate([mirrored * q[:, 1::-1], q, mirrored * q[:, :-3:-1]], axis=1)  # two ghosts a side
    slope = limited(padded)  # for cells -1 .. NX
    centre = padded[:, 1:-1]
    left = (centre + 0.5 * slope)[:, :-1]  # left state of faces -1/2 .. NX - 1/2
    right = (centre - 0.5 * slope)[:, 1:]
    rl, ul, pl = primitives(left)
    rr, ur, pr = primitives(right)
    cl, cr = np.sqrt(GAMMA * pl / rl), np.sqrt(GAMMA * pr / rr)
    sl = np.minimum(ul - cl, ur - cr)
    sr = np.maximum(ul + cl, ur + cr)
    fl, fr = flux(left), flux(right)
    hll = (sr * fl - sl * fr + sl * sr * (right - left)) / (sr - sl)
    face = np.where(sl >= 0, fl, np.where(sr <= 0, fr, hll))
    return -(face[:, 1:] - face[:, :-1]) / dx


t = 0.0
while t < T_END - 1e-12:
    rho, u, p = primitives(q)
    speed = np.max(np.abs(u) + np.sqrt(GAMMA * p / rho))
    dt = min(0.5 * dx / speed, T_END / NT, T_END - t)
    one = q + dt * rate(q)
    two = 0.75 * q + 0.25 * (one + dt * rate(one))
    q = q / 3 + (2 / 3) * (two + dt * rate(two))
    t += dt

rho, u, p = primitives(q)
E = q[2] / rho
np.savez("solution.npz", E=E, rho=rho, u=u, x=x)
