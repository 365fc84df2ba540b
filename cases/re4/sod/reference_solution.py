"""Sod shock tube to t = 0.2 with a MUSCL-Hancock finite-volume scheme and the HLLC flux (oracle for re4/sod).

800 cells on [0, 1], minmod-limited slopes of the primitive variables, CFL 0.5, transmissive boundaries
(the waves stay inside the tube until t = 0.2). Writes the cell centres and rho, u, p to solution.npz.
"""

import time

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

GAMMA = 1.4
CELLS = 800
CFL = 0.5
T_END = 0.2


def to_conserved(rho, u, p):
    return np.array([rho, rho * u, p / (GAMMA - 1.0) + 0.5 * rho * u * u])


def to_primitive(q):
    rho = q[0]
    u = q[1] / rho
    return rho, u, (GAMMA - 1.0) * (q[2] - 0.5 * rho * u * u)


def physical_flux(q):
    rho, u, p = to_primitive(q)
    return np.array([q[1], q[1] * u + p, (q[2] + p) * u])


def hllc_flux(ql, qr):
    """HLLC flux between conserved states ql and qr (arrays of shape (3, n)), Davis wave-speed estimates."""
    rl, ul, pl = to_primitive(ql)
    rr, ur, pr = to_primitive(qr)
    cl, cr = np.sqrt(GAMMA * pl / rl), np.sqrt(GAMMA * pr / rr)
    sl = np.minimum(ul - cl, ur - cr)
    sr = np.maximum(ul + cl, ur + cr)
    ml, mr = rl * (sl - ul), rr * (sr - ur)
    s_star = (pr - pl + ul * ml - ur * mr) / (ml - mr)
    fl, fr = physical_flux(ql), physical_flux(qr)

    def star_flux(q, f, rho, u, p, s, m):
        factor = m / (s - s_star)
        q_star = factor * np.array([np.ones_like(rho), s_star, q[2] / rho + (s_star - u) * (s_star + p / m)])
        return f + s * (q_star - q)

    return np.where(
        sl >= 0.0, fl,
        np.where(s_star >= 0.0, star_flux(ql, fl, rl, ul, pl, sl, ml),
                 np.where(sr > 0.0, star_flux(qr, fr, rr, ur, pr, sr, mr), fr)),
    )


def minmod(a, b):
    return np.where(a * b > 0.0, np.sign(a) * np.minimum(np.abs(a), np.abs(b)), 0.0)


def muscl_hancock_step(q, dt, dx):
    """One step: limited primitive slopes, half-step evolution of the face values, HLLC fluxes, update."""
    padded = np.concatenate([q[:, :1], q, q[:, -1:]], axis=1)  # transmissive ghost cells
    w = np.array(to_primitive(padded))
    slope = minmod(w[:, 1:-1] - w[:, :-2], w[:, 2:] - w[:, 1:-1])
    slope = np.concatenate([np.zeros((3, 1)), slope, np.zeros((3, 1))], axis=1)
    q_minus, q_plus = to_conserved(*(w - 0.5 * slope)), to_conserved(*(w + 0.5 * slope))
    change = 0.5 * dt / dx * (physical_flux(q_minus) - physical_flux(q_plus))
    q_minus, q_plus = q_minus + change, q_plus + change
    flux = hllc_flux(q_plus[:, :-1], q_minus[:, 1:])  # faces 0 .. CELLS
    return q - dt / dx * (flux[:, 1:] - flux[:, :-1])


def main():
    start = time.perf_counter()
    dx = 1.0 / CELLS
    x = (np.arange(CELLS) + 0.5) * dx
    left = x <= 0.5
    q = to_conserved(np.where(left, 1.0, 0.125), np.zeros(CELLS), np.where(left, 1.0, 0.1))
    t, steps = 0.0, 0
    while t < T_END:
        rho, u, p = to_primitive(q)
        dt = min(CFL * dx / np.max(np.abs(u) + np.sqrt(GAMMA * p / rho)), T_END - t)
        q = muscl_hancock_step(q, dt, dx)
        t += dt
        steps += 1
    rho, u, p = to_primitive(q)
    print(f"cells: {CELLS}, steps: {steps}, t = {t:.6f}, wall time {time.perf_counter() - start:.2f} s")
    print(f"min density {rho.min():.4f}, max velocity {u.max():.4f}, "
          f"plateau pressure p(x = 0.7) = {np.interp(0.7, x, p):.5f}")
    np.savez("solution.npz", x=x, rho=rho, u=u, p=p)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    for axis, values, name in zip(axes, (rho, u, p), ("density", "velocity", "pressure")):
        axis.plot(x, values)
        axis.set_title(f"{name} at t = {T_END}")
        axis.set_xlabel("x")
    fig.tight_layout()
    fig.savefig("sod.png", dpi=100)


if __name__ == "__main__":
    main()
