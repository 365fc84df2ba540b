"""Steady lid-driven cavity, Re = 100, lid (alpha x (1 - x), 0) with alpha = 2 (oracle for re4/lid_driven).

Taken on the unit square: the lid profile vanishes at both top corners there. Stream function-vorticity form,
u = psi_y, v = -psi_x, omega = -Laplace psi, on a uniform 101 x 101 grid with second-order central differences,
Thom's wall vorticity, and Newton's method on the coupled system (psi, omega) with an exact sparse Jacobian
(the first step from zero is the Stokes solution). Writes the grid (x, y, u, v) to solution.npz and the speed
with streamlines and the Newton residual history to lid_driven.png.
"""

import time

import matplotlib
import numpy as np
from scipy.sparse import bmat, coo_matrix, diags, identity, kron
from scipy.sparse.linalg import spsolve

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RE, ALPHA, NODES = 100.0, 2.0, 101


def operators(n, h):
    """First and second central differences in x and y on the (n x n) grid, x fastest; boundary rows zero."""
    inner = np.ones(n)
    inner[[0, -1]] = 0.0
    d1 = diags([-inner[1:] * 0.5 / h, inner[:-1] * 0.5 / h], [-1, 1], shape=(n, n))
    d2 = diags([inner[1:] / h**2, -2.0 * inner / h**2, inner[:-1] / h**2], [-1, 0, 1], shape=(n, n))
    eye = identity(n)
    return kron(eye, d1), kron(d1, eye), kron(eye, d2) + kron(d2, eye)


def solve(n):
    """Newton on (psi, omega); returns the grid, u, v and the residual history."""
    x = np.linspace(0.0, 1.0, n)
    h = x[1] - x[0]
    gx, gy = np.meshgrid(x, x)
    dx, dy, lap = operators(n, h)
    interior = np.zeros((n, n), dtype=bool)
    interior[1:-1, 1:-1] = True
    interior = interior.ravel()
    wall = ~interior
    lid = np.zeros(n * n)
    lid[(n - 1) * n:] = ALPHA * x * (1.0 - x)
    # Thom: omega_wall = -2 (psi_next + h U) / h^2, psi_next the node one step inside the wall.
    rows, cols = [], []
    for j in range(n):
        for i in range(n):
            if 0 < i < n - 1 and 0 < j < n - 1 or (i in (0, n - 1) and j in (0, n - 1)):
                continue
            ni = 1 if i == 0 else n - 2 if i == n - 1 else i
            nj = 1 if j == 0 else n - 2 if j == n - 1 else j
            rows.append(j * n + i)
            cols.append(nj * n + ni)
    thom = coo_matrix((np.full(len(rows), -2.0 / h**2), (rows, cols)), shape=(n * n, n * n)).tocsr()
    thom_rhs = -2.0 * lid / h
    p_int, p_wall = diags(interior.astype(float)), diags(wall.astype(float))
    psi, omega = np.zeros(n * n), np.zeros(n * n)
    history = []
    for _ in range(20):
        psi_x, psi_y, om_x, om_y = dx @ psi, dy @ psi, dx @ omega, dy @ omega
        r1 = np.where(interior, lap @ psi + omega, psi)
        r2 = np.where(interior, lap @ omega / RE - (psi_y * om_x - psi_x * om_y), omega - thom @ psi - thom_rhs)
        residual = np.concatenate([r1, r2])
        history.append(np.abs(residual).max())
        if history[-1] < 1e-9:
            break
        j11 = p_int @ lap + p_wall
        j12 = p_int
        j21 = p_int @ (-diags(om_x) @ dy + diags(om_y) @ dx) - p_wall @ thom
        j22 = p_int @ (lap / RE - diags(psi_y) @ dx + diags(psi_x) @ dy) + p_wall
        step = spsolve(bmat([[j11, j12], [j21, j22]], format="csc"), -residual)
        psi += step[: n * n]
        omega += step[n * n:]
    u = np.where(interior, dy @ psi, lid).reshape(n, n)
    v = np.where(interior, -(dx @ psi), 0.0).reshape(n, n)
    return gx, gy, u, v, history


def main():
    start = time.perf_counter()
    gx, gy, u, v, history = solve(NODES)
    np.savez("solution.npz", x=gx, y=gy, u=u, v=v)
    speed = np.hypot(u, v)
    print(f"grid {NODES} x {NODES}, Newton iterations {len(history) - 1}, final residual {history[-1]:.2e}, "
          f"max speed {speed.max():.4f}, min u on x = 0.5: {u[:, NODES // 2].min():.5f}, "
          f"wall time {time.perf_counter() - start:.2f} s")
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    contour = left.contourf(gx, gy, speed, levels=40, cmap="viridis")
    fig.colorbar(contour, ax=left, label="|u|")
    left.streamplot(gx, gy, u, v, color="w", density=1.2, linewidth=0.6)
    left.set_aspect("equal")
    left.set_title("velocity magnitude and streamlines")
    right.semilogy(history, "o-")
    right.set_xlabel("Newton iteration")
    right.set_ylabel("max residual")
    right.set_title("convergence history")
    fig.tight_layout()
    fig.savefig("lid_driven.png", dpi=100)


if __name__ == "__main__":
    main()
