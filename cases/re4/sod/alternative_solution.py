"""Second solution of re4/sod, written apart from the reference: finite volumes on N cells of [0, 1] (values at
the cell centres, the diaphragm at x = 0.5 on a cell face), the HLL approximate Riemann solver, van Leer-limited
reconstruction of the conservative variables, SSP-RK3 at CFL 0.5, transmissive ends (the waves stay inside
until t = 0.2). Writes x, rho, u, p and a figure."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

N = 1000
GAMMA, T_END = 1.4, 0.2

dx = 1.0 / N
x = (np.arange(N) + 0.5) * dx
q = np.stack([np.where(x < 0.5, 1.0, 0.125), np.zeros(N), np.where(x < 0.5, 1.0, 0.1) / (GAMMA - 1)])


def primitives(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rho = q[0]
    u = q[1] / rho
    return rho, u, (GAMMA - 1) * (q[2] - 0.5 * rho * u**2)


def flux(q: np.ndarray) -> np.ndarray:
    rho, u, p = primitives(q)
    return np.stack([rho * u, rho * u**2 + p, u * (q[2] + p)])


def rate(q: np.ndarray) -> np.ndarray:
    padded = np.concatenate([q[:, :1], q[:, :1], q, q[:, -1:], q[:, -1:]], axis=1)  # transmissive ghosts
    back, fwd = padded[:, 1:-1] - padded[:, :-2], padded[:, 2:] - padded[:, 1:-1]
    total = np.where(back + fwd == 0, 1.0, back + fwd)
    slope = np.where(back * fwd > 0, 2 * back * fwd / total, 0.0)
    centre = padded[:, 1:-1]
    left, right = (centre + 0.5 * slope)[:, :-1], (centre - 0.5 * slope)[:, 1:]
    rl, ul, pl = primitives(left)
    rr, ur, pr = primitives(right)
    cl, cr = np.sqrt(GAMMA * pl / rl), np.sqrt(GAMMA * pr / rr)
    sl, sr = np.minimum(ul - cl, ur - cr), np.maximum(ul + cl, ur + cr)
    fl, fr = flux(left), flux(right)
    hll = (sr * fl - sl * fr + sl * sr * (right - left)) / (sr - sl)
    face = np.where(sl >= 0, fl, np.where(sr <= 0, fr, hll))
    return -(face[:, 1:] - face[:, :-1]) / dx


t = 0.0
while t < T_END - 1e-12:
    rho, u, p = primitives(q)
    dt = min(0.5 * dx / np.max(np.abs(u) + np.sqrt(GAMMA * p / rho)), T_END - t)
    one = q + dt * rate(q)
    two = 0.75 * q + 0.25 * (one + dt * rate(one))
    q = q / 3 + (2 / 3) * (two + dt * rate(two))
    t += dt

rho, u, p = primitives(q)
np.savez("solution.npz", x=x, rho=rho, u=u, p=p)
fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
for ax, field, name in zip(axes, (rho, u, p), ("density", "velocity", "pressure"), strict=True):
    ax.plot(x, field)
    ax.set_title(f"{name} at t = {T_END}")
fig.tight_layout()
fig.savefig("sod.png", dpi=80)
