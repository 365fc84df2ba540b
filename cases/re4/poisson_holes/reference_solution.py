"""Laplace u = 0 on [-0.5, 0.5]^2 minus four disks, u = 0 on the circles, u = 1 on the box (oracle for
re4/poisson_holes).

Finite differences on a uniform 101 x 101 grid: the five-point Laplacian, with the Shortley-Weller stencil
(unequal arms ending on the circle, where u is given) at nodes next to a hole; one sparse LU solve. Writes the
grid nodes in the domain plus 64 points on each circle (x, y, u) to solution.npz and a contour plot to
poisson.png.
"""

import time

import matplotlib
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.linalg import spsolve

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BOX = (-0.5, 0.5, -0.5, 0.5)
DISKS = [(0.3, 0.3, 0.1), (-0.3, 0.3, 0.1), (0.3, -0.3, 0.1), (-0.3, -0.3, 0.1)]
U_BOX, U_CIRCLE = 1.0, 0.0
NODES = 101


def arm_to_circle(px, py, dx, dy, h):
    """Distance from (px, py) along the unit axis (dx, dy) to the nearest circle, at most h."""
    best = h
    for cx, cy, r in DISKS:
        b = dx * (px - cx) + dy * (py - cy)
        c = (px - cx) ** 2 + (py - cy) ** 2 - r * r
        disc = b * b - c
        s = -b - np.sqrt(disc) if disc > 0.0 else -1.0
        if s > -1e-9 * h:  # ahead of the node (a circle through the node counts as 0)
            best = min(best, max(s, 1e-3 * h))
    return best


def solve(nodes):
    """The grid, the solution on it (NaN inside the holes) and the number of unknowns."""
    x = np.linspace(BOX[0], BOX[1], nodes)
    y = np.linspace(BOX[2], BOX[3], nodes)
    h = x[1] - x[0]
    gx, gy = np.meshgrid(x, y)
    in_hole = np.zeros(gx.shape, dtype=bool)
    for cx, cy, r in DISKS:
        in_hole |= (gx - cx) ** 2 + (gy - cy) ** 2 < r * r + 1e-12  # nodes on a circle are known
    edge = np.zeros(gx.shape, dtype=bool)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    unknown = ~in_hole & ~edge
    index = -np.ones(gx.shape, dtype=int)
    index[unknown] = np.arange(np.count_nonzero(unknown))
    rows, cols, vals = [], [], []
    rhs = np.zeros(np.count_nonzero(unknown))
    for j, i in zip(*np.nonzero(unknown)):
        k = index[j, i]
        px, py = gx[j, i], gy[j, i]
        diagonal = 0.0
        for axis_pairs in (((1, 0), (-1, 0)), ((0, 1), (0, -1))):
            holed = [in_hole[j + dy, i + dx] for dx, dy in axis_pairs]
            arms = [arm_to_circle(px, py, dx, dy, h) if hit else h for (dx, dy), hit in zip(axis_pairs, holed)]
            total = arms[0] + arms[1]
            for (dx, dy), arm, hit in zip(axis_pairs, arms, holed):
                weight = 2.0 / (arm * total)
                diagonal -= weight
                if hit:  # the arm ends on a circle
                    rhs[k] -= weight * U_CIRCLE
                elif edge[j + dy, i + dx]:
                    rhs[k] -= weight * U_BOX
                else:
                    rows.append(k)
                    cols.append(index[j + dy, i + dx])
                    vals.append(weight)
        rows.append(k)
        cols.append(k)
        vals.append(diagonal)
    n = len(rhs)
    matrix = coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    u = np.full(gx.shape, np.nan)
    u[edge] = U_BOX
    u[unknown] = spsolve(matrix, rhs)
    return gx, gy, u, n


def main():
    start = time.perf_counter()
    gx, gy, u, n = solve(NODES)
    keep = np.isfinite(u)
    angles = np.linspace(0.0, 2.0 * np.pi, 64, endpoint=False)
    rim_x = np.concatenate([cx + r * np.cos(angles) for cx, cy, r in DISKS])
    rim_y = np.concatenate([cy + r * np.sin(angles) for cx, cy, r in DISKS])
    x = np.concatenate([gx[keep], rim_x])
    y = np.concatenate([gy[keep], rim_y])
    values = np.concatenate([u[keep], np.full(rim_x.size, U_CIRCLE)])
    np.savez("solution.npz", x=x, y=y, u=values)
    print(f"grid {NODES} x {NODES}, {n} unknowns, u in [{np.nanmin(u):.4f}, {np.nanmax(u):.4f}], "
          f"u(0, 0) = {u[NODES // 2, NODES // 2]:.6f}, wall time {time.perf_counter() - start:.2f} s")
    fig, ax = plt.subplots(figsize=(6, 5))
    contour = ax.contourf(gx, gy, u, levels=40, cmap="viridis")
    fig.colorbar(contour, ax=ax, label="u")
    for cx, cy, r in DISKS:
        ax.add_patch(plt.Circle((cx, cy), r, fill=False, color="w", linewidth=1.5))
    ax.set_aspect("equal")
    ax.set_title("Laplace u = 0, u = 0 on the circles, u = 1 on the box")
    fig.savefig("poisson.png", dpi=100)


if __name__ == "__main__":
    main()
