"""Second solution of re4/poisson_holes, written apart from the reference: the method of fundamental solutions
(meshless). u is a constant plus a sum of logarithmic potentials log|x - s_j| of sources placed outside the
domain, on a circle around the square and on a smaller concentric circle inside each hole; their strengths fit
the boundary values (u = 1 on the square, 0 on the circles) at collocation points by least squares. Every such
sum is harmonic in the domain, so only the boundary fit carries error: its largest residual is printed. Writes u
on a 201 x 201 grid (points inside a hole get 0, the value on its edge) and a contour plot."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

N = 201  # output grid points per side
PER_SIDE, PER_CIRCLE = 160, 96  # collocation points
OUTER_SOURCES, INNER_SOURCES = 200, 48

HALF = 0.5
DISKS = [(0.3, 0.3, 0.1), (-0.3, 0.3, 0.1), (0.3, -0.3, 0.1), (-0.3, -0.3, 0.1)]

s = np.linspace(-HALF, HALF, PER_SIDE, endpoint=False)
square = np.concatenate(
    [
        np.column_stack([s, -HALF + 0 * s]),
        np.column_stack([HALF + 0 * s, s]),
        np.column_stack([-s, HALF + 0 * s]),
        np.column_stack([-HALF + 0 * s, -s]),
    ]
)
angles = np.linspace(0, 2 * np.pi, PER_CIRCLE, endpoint=False)
circles = np.concatenate([np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)]) for cx, cy, r in DISKS])
points = np.concatenate([square, circles])
values = np.concatenate([np.ones(len(square)), np.zeros(len(circles))])

outer = np.linspace(0, 2 * np.pi, OUTER_SOURCES, endpoint=False)
inner = np.linspace(0, 2 * np.pi, INNER_SOURCES, endpoint=False)
sources = np.concatenate(
    [np.column_stack([1.2 * np.cos(outer), 1.2 * np.sin(outer)])]
    + [np.column_stack([cx + 0.5 * r * np.cos(inner), cy + 0.5 * r * np.sin(inner)]) for cx, cy, r in DISKS]
)


def basis(at: np.ndarray) -> np.ndarray:
    distance = np.hypot(at[:, None, 0] - sources[None, :, 0], at[:, None, 1] - sources[None, :, 1])
    return np.column_stack([np.ones(len(at)), np.log(distance)])


weights, *_ = np.linalg.lstsq(basis(points), values, rcond=None)
check = np.linspace(0, 1, 7919) * 2 * np.pi  # other boundary points than the collocated ones
edge = np.concatenate(
    [np.column_stack([cx + r * np.cos(check), cy + r * np.sin(check)]) for cx, cy, r in DISKS]
    + [np.column_stack([np.linspace(-HALF, HALF, 997), np.full(997, HALF)])]
)
target = np.concatenate([np.zeros(4 * len(check)), np.ones(997)])
print(f"largest boundary residual {np.max(np.abs(basis(edge) @ weights - target)):.2e}")

x = np.linspace(-HALF, HALF, N)
X, Y = np.meshgrid(x, x)
grid = np.column_stack([X.ravel(), Y.ravel()])
in_hole = np.zeros(len(grid), bool)
for cx, cy, r in DISKS:
    in_hole |= np.hypot(grid[:, 0] - cx, grid[:, 1] - cy) < r
u = np.zeros(len(grid))
u[~in_hole] = basis(grid[~in_hole]) @ weights
U = u.reshape(X.shape)
np.savez("solution.npz", x=X, y=Y, u=U)
fig, ax = plt.subplots(figsize=(5, 5))
ax.contourf(X, Y, np.where(in_hole.reshape(X.shape), np.nan, U), 30)
for cx, cy, r in DISKS:
    ax.add_patch(plt.Circle((cx, cy), r, fill=False, color="k"))
fig.savefig("poisson.png", dpi=80)
