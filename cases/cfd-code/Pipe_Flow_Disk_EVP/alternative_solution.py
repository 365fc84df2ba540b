"""Second solution of cfd-code/Pipe_Flow_Disk_EVP, written apart from the reference: the linearised equations
for (u_r, u_theta, u_z, p) collocated on the whole diameter r in [-1, 1] (Chebyshev Gauss-Lobatto, an even
number of nodes so that none falls on the axis, both ends walls), no slip in place of the momentum rows at the
walls, and the generalised eigenproblem A x = lambda B x solved densely. The infinite eigenvalues of the
pressure rows are dropped, and so is every finite one that a second, finer collocation does not reproduce
(spurious modes); of the rest the one with the largest real part is saved."""

import numpy as np
from scipy.linalg import eig

NR = 32  # nodes on the radius; the diameter carries 2 NR

RE, KZ, M = 1.0e4, 1.0, 1


def chebyshev(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Lobatto nodes (decreasing) and the differentiation matrix (Trefethen)."""
    nodes = np.cos(np.pi * np.arange(n + 1) / n)
    c = np.hstack([2.0, np.ones(n - 1), 2.0]) * (-1.0) ** np.arange(n + 1)
    d = np.outer(c, 1 / c) / (nodes[:, None] - nodes[None, :] + np.eye(n + 1))
    return nodes, d - np.diag(d.sum(axis=1))


def eigenvalues(nodes_on_radius: int) -> np.ndarray:
    r, D = chebyshev(2 * nodes_on_radius - 1)
    n = r.size
    D2 = D @ D
    inv_r, inv_r2 = np.diag(1 / r), np.diag(1 / r**2)
    W, dW = np.diag(1 - r**2), np.diag(-2 * r)
    eye, zero = np.eye(n), np.zeros((n, n))
    lap = D2 + inv_r @ D - (M**2) * inv_r2 - KZ**2 * eye
    advect = -1j * KZ * W
    A = np.block(
        [
            [advect + (lap - inv_r2) / RE, -2j * M * inv_r2 / RE, zero, -D],
            [2j * M * inv_r2 / RE, advect + (lap - inv_r2) / RE, zero, -1j * M * inv_r],
            [-dW, zero, advect + lap / RE, -1j * KZ * eye],
            [D + inv_r, 1j * M * inv_r, 1j * KZ * eye, zero],
        ]
    )
    B = np.block([[eye, zero, zero, zero], [zero, eye, zero, zero], [zero, zero, eye, zero], [zero] * 4])
    for block in range(3):  # no slip at r = 1 and r = -1
        for wall in (0, n - 1):
            row = block * n + wall
            A[row, :] = 0.0
            B[row, :] = 0.0
            A[row, row] = 1.0
    values = eig(A, B, right=False)
    return values[np.isfinite(values) & (np.abs(values) < 1e3)]


coarse, fine = eigenvalues(NR), eigenvalues(NR + 8)
kept = [v for v in fine if np.min(np.abs(coarse - v)) < 1e-5 * max(1.0, abs(v))]
best = max(kept, key=lambda v: v.real)
print(f"lambda = {best.real:.10f} {best.imag:+.10f} i ({len(kept)} of {len(fine)} eigenvalues confirmed)")
np.savez("solution.npz", growth_rate=np.array(best.real), frequency=np.array(best.imag))
