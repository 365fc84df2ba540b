"""Forced unsteady channel flow on [0, 2] x [0, 1], Re = 100, to t = 0.5 (oracle for re4/unsteady_ns).

Chorin projection on a staggered (MAC) grid of 80 x 40 cells: the predictor takes second-order
Adams-Bashforth steps of advection (central, conservative), diffusion (explicit) and forcing; a pressure Poisson
equation (factorised once; dp/dn = 0 at the inlet and walls, p given on the outlet face) makes the velocity
divergence free. The projection's pressure belongs to the middle of the step; the last two are extrapolated to
t = 0.5. Inlet: u = sin(pi y) (sin(pi t) + sin(3 pi t) + sin(5 pi t)), v = 0; walls: no slip; outlet: the
do-nothing condition 1/Re du/dn - p n = 0 as the problem states it, that is dv/dx = 0 (a mirrored ghost) and
p = 1/Re du/dx on the outlet face (one-sided second-order difference of the predicted u), the outlet's u an
unknown of the momentum equation (the ghost beyond it extrapolated linearly, d2u/dx2 = 0).
Writes u, v, p at t = 0.5 on the cell corners (x, y, u, v, p) to solution.npz and their contours to
unsteady_ns.png.
"""

import time

import matplotlib
import numpy as np
from scipy.interpolate import RegularGridInterpolator
from scipy.sparse import diags, identity, kron
from scipy.sparse.linalg import splu

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RE, LX, LY, NX, NY, T_END, DT = 100.0, 2.0, 1.0, 80, 40, 0.5, 0.0025


def inlet(y, t):
    """The inlet profile u(0, y, t)."""
    return np.sin(np.pi * y) * (np.sin(np.pi * t) + np.sin(3 * np.pi * t) + np.sin(5 * np.pi * t))


def pressure_solver(h):
    """LU factors of the cell-centred Laplacian: Neumann at x = 0 and the walls, p given on the face x = 2."""
    def second(n, dirichlet_right):
        main = -2.0 * np.ones(n)
        main[0] = -1.0
        main[-1] = -3.0 if dirichlet_right else -1.0
        return diags([np.ones(n - 1), main, np.ones(n - 1)], [-1, 0, 1]) / h**2

    lap = kron(identity(NY), second(NX, True)) + kron(second(NY, False), identity(NX))
    return splu(lap.tocsc())


def with_ghosts(u, v, t):
    """u (NX+1, NY) and v (NX, NY+1) padded with ghost values that carry the boundary conditions."""
    h = LX / NX
    yc = (np.arange(NY) + 0.5) * h
    ug = np.zeros((NX + 3, NY + 2))
    ug[1:-1, 1:-1] = u
    ug[1, 1:-1] = inlet(yc, t)
    ug[0, 1:-1] = ug[2, 1:-1]
    ug[-1, 1:-1] = 2.0 * ug[-2, 1:-1] - ug[-3, 1:-1]  # beyond the outlet: linear extrapolation
    ug[:, 0], ug[:, -1] = -ug[:, 1], -ug[:, -2]  # no slip on the walls
    vg = np.zeros((NX + 2, NY + 3))
    vg[1:-1, 1:-1] = v
    vg[1:-1, 1], vg[1:-1, -2] = 0.0, 0.0
    vg[0, :] = -vg[1, :]  # v = 0 at the inlet
    vg[-1, :] = vg[-2, :]  # outlet: dv/dx = 0
    return ug, vg


def tendencies(u, v, t):
    """Advection (conservative central) plus diffusion plus forcing, at the interior u and v faces."""
    h = LX / NX
    ug, vg = with_ghosts(u, v, t)
    # u-momentum at faces i = 1..NX (interior and outlet), cells j
    uc = ug[1:-1, 1:-1]
    ue = 0.5 * (ug[2:, 1:-1] + ug[1:-1, 1:-1])
    uw = 0.5 * (ug[:-2, 1:-1] + ug[1:-1, 1:-1])
    un = 0.5 * (ug[1:-1, 2:] + ug[1:-1, 1:-1])
    us = 0.5 * (ug[1:-1, :-2] + ug[1:-1, 1:-1])
    vcorner = 0.5 * (vg[:-1, 1:-1] + vg[1:, 1:-1])  # v at the u-face corners, (NX+1, NY+1)
    vn, vs = vcorner[:, 1:], vcorner[:, :-1]
    adv_u = (ue**2 - uw**2) / h + (un * vn - us * vs) / h
    lap_u = (ug[2:, 1:-1] + ug[:-2, 1:-1] + ug[1:-1, 2:] + ug[1:-1, :-2] - 4.0 * uc) / h**2
    fu = -adv_u + lap_u / RE
    # v-momentum at faces j = 1..NY-1, cells i
    vc = vg[1:-1, 1:-1]
    vn2 = 0.5 * (vg[1:-1, 2:] + vc)
    vs2 = 0.5 * (vg[1:-1, :-2] + vc)
    ucorner = 0.5 * (ug[1:-1, :-1] + ug[1:-1, 1:])  # u at the v-face corners, (NX+1, NY+1)
    ue2, uw2 = ucorner[1:, :], ucorner[:-1, :]
    ve2 = 0.5 * (vg[2:, 1:-1] + vc)
    vw2 = 0.5 * (vg[:-2, 1:-1] + vc)
    adv_v = (vn2**2 - vs2**2) / h + (ue2 * ve2 - uw2 * vw2) / h
    lap_v = (vg[2:, 1:-1] + vg[:-2, 1:-1] + vg[1:-1, 2:] + vg[1:-1, :-2] - 4.0 * vc) / h**2
    xc = (np.arange(NX) + 0.5) * h
    yf = np.arange(NY + 1) * h
    force = -np.outer(np.sin(np.pi * xc), np.sin(np.pi * yf)) * np.sin(np.pi * t)
    fv = -adv_v + lap_v / RE + force
    return fu, fv


def outlet_pressure(u, h):
    """The do-nothing condition's pressure on the outlet face, p = 1/Re du/dx (one-sided, second order)."""
    return (3.0 * u[-1, :] - 4.0 * u[-2, :] + u[-3, :]) / (2.0 * h * RE)


def subtract_gradient(u, v, p, p_out, dt, h):
    """u -= dt dp/dx at the faces inside and at the outlet (p = p_out there), v -= dt dp/dy at the inner faces."""
    ghost = np.vstack([p, 2.0 * p_out[None, :] - p[-1:, :]])
    u[1:, :] -= dt * (ghost[1:, :] - ghost[:-1, :]) / h
    v[:, 1:-1] -= dt * (p[:, 1:] - p[:, :-1]) / h


def solve():
    """March to T_END; returns u (NX+1, NY), v (NX, NY+1), p (NX, NY), p on the outlet face (NY) and the number
    of steps."""
    h = LX / NX
    lu = pressure_solver(h)
    u, v, p = np.zeros((NX + 1, NY)), np.zeros((NX, NY + 1)), np.zeros((NX, NY))
    p_before, out, out_before = p, np.zeros(NY), np.zeros(NY)
    yc = (np.arange(NY) + 0.5) * h
    steps = int(round(T_END / DT))
    previous = None
    for n in range(steps):
        t = n * DT
        fu, fv = tendencies(u, v, t)
        if previous is None:
            gu, gv = fu, fv
        else:
            gu, gv = 1.5 * fu - 0.5 * previous[0], 1.5 * fv - 0.5 * previous[1]
        previous = (fu, fv)
        us, vs = u + DT * gu, v + DT * gv
        us[0, :] = inlet(yc, t + DT)
        vs[:, 0] = vs[:, -1] = 0.0
        p_out = outlet_pressure(us, h)
        div = ((us[1:, :] - us[:-1, :]) + (vs[:, 1:] - vs[:, :-1])) / h
        rhs = div / DT
        rhs[-1, :] -= 2.0 * p_out / h**2  # the outlet face's value, through the ghost
        phi = lu.solve(rhs.ravel(order="F")).reshape((NX, NY), order="F")
        subtract_gradient(us, vs, phi, p_out, DT, h)
        u, v, p, p_before, out, out_before = us, vs, phi, p, p_out, out
    # phi holds the pressure at mid-step (it absorbs the inlet's acceleration over the step): shift it to T_END.
    return u, v, 1.5 * p - 0.5 * p_before, 1.5 * out - 0.5 * out_before, steps


def on_corners(u, v, p, p_out):
    """u, v and p interpolated to the cell corners (NY+1, NX+1), boundary values included."""
    h = LX / NX
    xf, yf = np.arange(NX + 1) * h, np.arange(NY + 1) * h
    xc, yc = (np.arange(NX) + 0.5) * h, (np.arange(NY) + 0.5) * h
    u_full = np.hstack([np.zeros((NX + 1, 1)), u, np.zeros((NX + 1, 1))])
    v_full = np.vstack([np.zeros((1, NY + 1)), v, v[-1:, :]])
    p_full = np.vstack([p, p_out[None, :]])
    grid_x, grid_y = np.meshgrid(xf, yf)
    corners = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    fields = []
    for values, axes in (
        (u_full, (xf, np.concatenate([[0.0], yc, [LY]]))),
        (v_full, (np.concatenate([[0.0], xc, [LX]]), yf)),
        (p_full, (np.concatenate([xc, [LX]]), yc)),
    ):
        interp = RegularGridInterpolator(axes, values, bounds_error=False, fill_value=None)
        fields.append(interp(corners).reshape(grid_x.shape))
    return grid_x, grid_y, fields


def main():
    start = time.perf_counter()
    u, v, p, p_out, steps = solve()
    gx, gy, (uc, vc, pc) = on_corners(u, v, p, p_out)
    np.savez("solution.npz", x=gx, y=gy, u=uc, v=vc, p=pc)
    print(f"MAC grid {NX} x {NY}, dt {DT}, {steps} steps, t = {T_END}: max |u| {np.abs(uc).max():.4f}, "
          f"max |v| {np.abs(vc).max():.4f}, p in [{pc.min():.4f}, {pc.max():.4f}], "
          f"wall time {time.perf_counter() - start:.2f} s")
    fig, axes = plt.subplots(3, 1, figsize=(8, 10))
    for axis, values, name in zip(axes, (uc, vc, pc), ("u", "v", "p")):
        contour = axis.contourf(gx, gy, values, levels=40, cmap="RdBu_r")
        fig.colorbar(contour, ax=axis)
        axis.set_aspect("equal")
        axis.set_title(f"{name} at t = {T_END}")
    fig.tight_layout()
    fig.savefig("unsteady_ns.png", dpi=100)


if __name__ == "__main__":
    main()
