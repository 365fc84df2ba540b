"""Second solution of re4/unsteady_ns, written apart from the reference and the oracle: a staggered (MAC) grid of
100 x 50 cells, the third-order strong-stability-preserving Runge-Kutta method (SSP-RK3) with a projection after
every stage (advection in conservative central form and diffusion both explicit), and the outlet's do-nothing
condition 1/Re du/dn - p n = 0 as the problem states it: dv/dx = 0 through ghost values, the outlet's u a free
unknown of the momentum equation (its outer ghost extrapolated linearly), and the pressure on the outlet face
set to 1/Re du/dx there (a Dirichlet value of the projection's Poisson equation, Neumann elsewhere). The
pressure at t = 0.5 is that of the final velocity: the projection of one tiny explicit step from it (the limit
of the pressure Poisson equation, with the inlet's acceleration), not a stage's pressure, whose time error is
first order (0.08 between time steps of 1e-3 and 5e-4: the inlet's u_tt is about -170 at t = 0.5). u, v and p
are interpolated linearly to the (101 x 51) cell corners, boundaries included, and saved with contour plots."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as spla  # noqa: E402
from scipy.interpolate import RegularGridInterpolator  # noqa: E402

NX, NY = 100, 50
LX, LY = 2.0, 1.0
RE = 100.0
NU = 1.0 / RE
T_END = 0.5
DT = 1.0e-3

h = LX / NX
xf = np.linspace(0.0, LX, NX + 1)  # x of the u faces
yf = np.linspace(0.0, LY, NY + 1)  # y of the v faces
xc = 0.5 * (xf[:-1] + xf[1:])
yc = 0.5 * (yf[:-1] + yf[1:])


def inlet(t: float) -> np.ndarray:
    """u at x = 0 on the cell centres' y."""
    return np.sin(np.pi * yc) * (np.sin(np.pi * t) + np.sin(3 * np.pi * t) + np.sin(5 * np.pi * t))


def laplacian_1d(n: int, first: float, last: float) -> sp.csr_matrix:
    """Second difference of n cell values (times h^2): ``first``/``last`` are the end diagonals (-1 for a zero
    normal derivative, -3 for a value fixed on the face through a ghost)."""
    main = -2.0 * np.ones(n)
    main[0], main[-1] = first, last
    return sp.diags([np.ones(n - 1), main, np.ones(n - 1)], [-1, 0, 1], format="csr")


# Poisson operator on the cells, x fastest: dp/dx = 0 at the inlet, p given on the outlet face, dp/dy = 0 at walls
poisson = (
    sp.kron(sp.identity(NY), laplacian_1d(NX, -1.0, -3.0)) + sp.kron(laplacian_1d(NY, -1.0, -1.0), sp.identity(NX))
) / h**2
poisson_lu = spla.splu(poisson.tocsc())


def tendencies(u: np.ndarray, v: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray]:
    """Right-hand sides without the pressure: for u on the faces i = 1..NX (the outlet included), for v on the
    interior faces j = 1..NY-1."""
    ghost_out = 2.0 * u[-1] - u[-2]  # u beyond the outlet: linear extrapolation
    ue = np.vstack([u, ghost_out])  # (NX + 2, NY)
    ue = np.hstack([-ue[:, :1], ue, -ue[:, -1:]])  # no slip on the walls through ghosts: (NX + 2, NY + 2)
    ve = np.vstack([-v[:1], v, v[-1:]])  # v = 0 at the inlet, dv/dx = 0 at the outlet: (NX + 2, NY + 1)

    # u momentum on the faces i = 1..NX
    uc = 0.5 * (ue[:-1, 1:-1] + ue[1:, 1:-1])  # u at the cell centres 0..NX (the last is the ghost cell)
    duu = (uc[1:] ** 2 - uc[:-1] ** 2) / h
    u_corner = 0.5 * (ue[1:-1, :-1] + ue[1:-1, 1:])  # at (x_i, y_j), i = 1..NX, j = 0..NY
    v_corner = 0.5 * (ve[1:-1] + ve[2:])  # v at the same corners (ve[k + 1] is v at xc[k])
    duv = (u_corner[:, 1:] * v_corner[:, 1:] - u_corner[:, :-1] * v_corner[:, :-1]) / h
    lap_u = (ue[2:, 1:-1] - 2 * ue[1:-1, 1:-1] + ue[:-2, 1:-1]) / h**2
    lap_u += (ue[1:-1, 2:] - 2 * ue[1:-1, 1:-1] + ue[1:-1, :-2]) / h**2
    fu = -duu - duv + NU * lap_u

    # v momentum on the faces j = 1..NY-1
    vc = 0.5 * (v[:, :-1] + v[:, 1:])  # v at the cell centres
    dvv = (vc[:, 1:] ** 2 - vc[:, :-1] ** 2) / h
    uu_c = 0.5 * (ue[:-1, 1:-2] + ue[:-1, 2:-1])  # u at (x_i, y_j), i = 0..NX, j = 1..NY-1 (no wall ghosts)
    vv_c = 0.5 * (ve[:-1, 1:-1] + ve[1:, 1:-1])
    duv_v = (uu_c[1:] * vv_c[1:] - uu_c[:-1] * vv_c[:-1]) / h
    lap_v = (ve[2:, 1:-1] - 2 * ve[1:-1, 1:-1] + ve[:-2, 1:-1]) / h**2
    lap_v += (v[:, 2:] - 2 * v[:, 1:-1] + v[:, :-2]) / h**2
    forcing = -np.sin(np.pi * xc)[:, None] * np.sin(np.pi * yf[1:-1])[None, :] * np.sin(np.pi * t)
    fv = -dvv - duv_v + NU * lap_v + forcing
    return fu, fv


def project(u: np.ndarray, v: np.ndarray, t: float, scale: float) -> np.ndarray:
    """Make (u, v) divergence free in place, the inlet set to its value at t; returns the pressure (the
    projection's potential over ``scale``, the stage's share of the time step)."""
    u[0] = inlet(t)
    p_out = NU * (3 * u[-1] - 4 * u[-2] + u[-3]) / (2 * h)  # the do-nothing condition: p = 1/Re du/dx
    divergence = (u[1:] - u[:-1]) / h + (v[:, 1:] - v[:, :-1]) / h
    rhs = divergence / scale
    rhs[-1] -= 2.0 * p_out / h**2  # the outlet face's value through the ghost
    p = poisson_lu.solve(rhs.T.ravel()).reshape(NY, NX).T
    u[1:-1] -= scale * (p[1:] - p[:-1]) / h
    u[-1] -= scale * (p_out - p[-1]) / (0.5 * h)
    v[:, 1:-1] -= scale * (p[:, 1:] - p[:, :-1]) / h
    return p


def step(u: np.ndarray, v: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One SSP-RK3 step with a projection after each stage."""

    def stage(u0, v0, ua, va, ta, weight, t_next):
        fu, fv = tendencies(ua, va, ta)
        un, vn = ua.copy(), va.copy()
        un[1:] += DT * fu
        vn[:, 1:-1] += DT * fv
        un = (1 - weight) * u0 + weight * un
        vn = (1 - weight) * v0 + weight * vn
        return un, vn, project(un, vn, t_next, weight * DT)

    u1, v1, _ = stage(u, v, u, v, t, 1.0, t + DT)
    u2, v2, _ = stage(u, v, u1, v1, t + DT, 0.25, t + 0.5 * DT)
    return stage(u, v, u2, v2, t + 0.5 * DT, 2.0 / 3.0, t + DT)


def pressure(u: np.ndarray, v: np.ndarray, t: float, epsilon: float = 1e-7) -> np.ndarray:
    """The pressure that belongs to the velocity (u, v) at time t."""
    fu, fv = tendencies(u, v, t)
    un, vn = u.copy(), v.copy()
    un[1:] += epsilon * fu
    vn[:, 1:-1] += epsilon * fv
    return project(un, vn, t + epsilon, epsilon)


u = np.zeros((NX + 1, NY))
v = np.zeros((NX, NY + 1))
steps = round(T_END / DT)
for n in range(steps):
    u, v, _ = step(u, v, n * DT)
p = pressure(u, v, T_END)

# to the cell corners, boundaries included
u_full = np.hstack([np.zeros((NX + 1, 1)), u, np.zeros((NX + 1, 1))])
u_nodes = RegularGridInterpolator((xf, np.concatenate([[0.0], yc, [LY]])), u_full)
v_full = np.vstack([np.zeros((1, NY + 1)), v, v[-1:]])
v_nodes = RegularGridInterpolator((np.concatenate([[0.0], xc, [LX]]), yf), v_full)
p_nodes = RegularGridInterpolator((xc, yc), p, bounds_error=False, fill_value=None)
X, Y = np.meshgrid(xf, yf, indexing="ij")
points = np.stack([X.ravel(), Y.ravel()], axis=1)
fields = {name: f(points).reshape(X.shape) for name, f in (("u", u_nodes), ("v", v_nodes), ("p", p_nodes))}
np.savez("solution.npz", x=X, y=Y, **fields)

fig, axes = plt.subplots(3, 1, figsize=(7, 9))
for ax, name in zip(axes, ("u", "v", "p"), strict=True):
    contour = ax.contourf(X, Y, fields[name], levels=30)
    fig.colorbar(contour, ax=ax)
    ax.set_title(f"{name} at t = {T_END}")
    ax.set_aspect("equal")
fig.tight_layout()
fig.savefig("unsteady_ns.png", dpi=80)
