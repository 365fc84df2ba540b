"""Second solution of re4/helmholtz_holes, written apart from the reference: u = u_p + w. The particular solution
u_p of -lap u + k^2 u = f comes from a sine series on the larger box [-L, L]^2 (L = 1.5) for f times a smooth
cut-off that is 1 on [-1.05, 1.05]^2 and vanishes near the larger box's edges (so the series converges fast and
u_p solves the equation exactly on the domain); the homogeneous part w (-lap w + k^2 w = 0) is a sum of the
fundamental solutions K0(k |x - s_j|) of sources outside the domain (around the square and inside each hole),
fitted by least squares to the boundary values minus u_p (the method of fundamental solutions). The largest
boundary residual is printed. Writes u on a 201 x 201 grid (inside a hole: 1, its edge value) and a plot."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.special import k0  # noqa: E402

N = 201  # output grid points per side
MODES = 160  # sine modes per direction of the particular solution
PER_SIDE, PER_CIRCLE = 200, 120
K, A, MU = 8.0, 10.0, (1.0, 4.0)
U_BOX, U_CIRCLES = 0.2, 1.0
DISKS = [(0.5, 0.5, 0.2), (0.4, -0.4, 0.4), (-0.2, -0.7, 0.1), (-0.6, 0.5, 0.3)]
L = 1.5


def source(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return A * (MU[0] ** 2 + MU[1] ** 2 + x**2 + y**2) * np.sin(MU[0] * np.pi * x) * np.sin(MU[1] * np.pi * y)


def cutoff(s: np.ndarray) -> np.ndarray:
    """1 for |s| <= 1.05, 0 for |s| >= 1.4, smooth (C-infinity) between."""
    t = np.clip((np.abs(s) - 1.05) / 0.35, 0.0, 1.0)
    bump = lambda z: np.where(z > 0, np.exp(-1.0 / np.maximum(z, 1e-300)), 0.0)  # noqa: E731
    return bump(1 - t) / (bump(1 - t) + bump(t))


# particular solution: sine coefficients of the cut-off source on [-L, L]^2 by a discrete sine transform
m = np.arange(1, MODES + 1)
nodes = -L + 2 * L * np.arange(1, 2 * MODES) / (2 * MODES)  # interior nodes of a 2 MODES grid
S = np.sin(np.outer(nodes + L, m) * np.pi / (2 * L))  # nodes x modes
Xn, Yn = np.meshgrid(nodes, nodes, indexing="ij")
g = source(Xn, Yn) * cutoff(Xn) * cutoff(Yn)
coefficients = (2 / (2 * MODES)) ** 2 * S.T @ g @ S  # quadrature of the sine coefficients
wavenumber = m * np.pi / (2 * L)
coefficients /= wavenumber[:, None] ** 2 + wavenumber[None, :] ** 2 + K**2


def particular(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    sx = np.sin(np.outer(x + L, m) * np.pi / (2 * L))
    sy = np.sin(np.outer(y + L, m) * np.pi / (2 * L))
    return np.einsum("pi,ij,pj->p", sx, coefficients, sy)


s = np.linspace(-1.0, 1.0, PER_SIDE, endpoint=False)
one = np.ones_like(s)
square = np.concatenate(
    [np.column_stack([s, -one]), np.column_stack([one, s]), np.column_stack([-s, one]), np.column_stack([-one, -s])]
)
angles = np.linspace(0, 2 * np.pi, PER_CIRCLE, endpoint=False)
circles = np.concatenate([np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)]) for cx, cy, r in DISKS])
points = np.concatenate([square, circles])
values = np.concatenate([np.full(len(square), U_BOX), np.full(len(circles), U_CIRCLES)])
values = values - particular(points[:, 0], points[:, 1])

outer = np.concatenate(
    [
        np.column_stack([1.12 * s, -1.12 * one]),
        np.column_stack([1.12 * one, 1.12 * s]),
        np.column_stack([-1.12 * s, 1.12 * one]),
        np.column_stack([-1.12 * one, -1.12 * s]),
    ]
)[::2]
inner_angles = np.linspace(0, 2 * np.pi, 60, endpoint=False)
sources = np.concatenate(
    [outer]
    + [
        np.column_stack([cx + 0.7 * r * np.cos(inner_angles), cy + 0.7 * r * np.sin(inner_angles)])
        for cx, cy, r in DISKS
    ]
)


def basis(at: np.ndarray) -> np.ndarray:
    return k0(K * np.hypot(at[:, None, 0] - sources[None, :, 0], at[:, None, 1] - sources[None, :, 1]))


weights, *_ = np.linalg.lstsq(basis(points), values, rcond=None)
check_angles = np.linspace(0, 2 * np.pi, 1009)
edge = np.concatenate(
    [np.column_stack([cx + r * np.cos(check_angles), cy + r * np.sin(check_angles)]) for cx, cy, r in DISKS]
    + [np.column_stack([np.linspace(-1, 1, 997), np.full(997, 1.0)])]
)
target = np.concatenate([np.full(4 * len(check_angles), U_CIRCLES), np.full(997, U_BOX)])
residual = basis(edge) @ weights + particular(edge[:, 0], edge[:, 1]) - target
print(f"largest boundary residual {np.max(np.abs(residual)):.2e}")

x = np.linspace(-1.0, 1.0, N)
X, Y = np.meshgrid(x, x)
grid = np.column_stack([X.ravel(), Y.ravel()])
in_hole = np.zeros(len(grid), bool)
for cx, cy, r in DISKS:
    in_hole |= np.hypot(grid[:, 0] - cx, grid[:, 1] - cy) < r
u = np.full(len(grid), U_CIRCLES)
keep = ~in_hole
u[keep] = basis(grid[keep]) @ weights + particular(grid[keep, 0], grid[keep, 1])
U = u.reshape(X.shape)
np.savez("solution.npz", x=X, y=Y, u=U)
fig, ax = plt.subplots(figsize=(5, 5))
ax.contourf(X, Y, np.where(in_hole.reshape(X.shape), np.nan, U), 30)
for cx, cy, r in DISKS:
    ax.add_patch(plt.Circle((cx, cy), r, fill=False, color="k"))
fig.savefig("helmholtz.png", dpi=80)
