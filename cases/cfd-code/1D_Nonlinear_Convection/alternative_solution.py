"""Second solution of cfd-code/1D_Nonlinear_Convection, written apart from the reference: conservative finite
volumes for u_t + (u^2 / 2)_x = 0 on NX periodic cells of [0, 2 pi) (values at the cell centres, initial cell
averages exact), Godunov's exact Riemann flux with MUSCL (minmod) slopes and SSP-RK2, at least NT steps (more
where CFL 0.4 needs them). The initial data are not 2 pi-periodic, so a shock starts at x = 0 too."""

import numpy as np

NX = 400
NT = 500

LENGTH, T_END = 2 * np.pi, 5.0

dx = LENGTH / NX
faces = np.arange(NX + 1) * dx
x = 0.5 * (faces[:-1] + faces[1:])


def antiderivative(s: np.ndarray) -> np.ndarray:
    return -np.cos(s) - np.cos(0.5 * s)


u = (antiderivative(faces[1:]) - antiderivative(faces[:-1])) / dx


def godunov(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Exact Riemann flux of Burgers' equation."""
    f_left, f_right = 0.5 * left**2, 0.5 * right**2
    shock = np.maximum(f_left, f_right)
    rarefaction = np.where((left < 0) & (right > 0), 0.0, np.minimum(f_left, f_right))
    return np.where(left > right, shock, rarefaction)


def rate(u: np.ndarray) -> np.ndarray:
    forward, backward = np.roll(u, -1) - u, u - np.roll(u, 1)
    slope = np.where(forward * backward > 0, np.sign(forward) * np.minimum(abs(forward), abs(backward)), 0.0)
    left = u + 0.5 * slope  # state left of face i + 1/2
    right = np.roll(u - 0.5 * slope, -1)  # state right of it
    flux = godunov(left, right)
    return -(flux - np.roll(flux, 1)) / dx


t, steps = 0.0, 0
while t < T_END - 1e-12:
    dt = min(0.4 * dx / max(np.abs(u).max(), 1e-12), T_END / NT, T_END - t)
    stage = u + dt * rate(u)
    u = 0.5 * (u + stage + dt * rate(stage))
    t += dt
np.savez("solution.npz", u=u, x=x)
