"""Least-damped eigenvalue of pipe flow at Re = 1e4, k = 1, m = 1 (oracle for cfd-code/Pipe_Flow_Disk_EVP).

Chebyshev collocation in r on the positive half of an odd Chebyshev grid of [-1, 1] (no node on the axis), each
unknown extended to r < 0 by its parity ((-1)^m for u_z and p, (-1)^(m+1) for u_r and u_theta), no slip in the
wall rows; the dense generalized eigenproblem A q = lambda B q is solved and its finite eigenvalues kept. The
eigenvalue with the largest real part that a grid of NR + 16 nodes reproduces is written to solution.npz as
growth_rate (real part) and frequency (imaginary part).
"""

import numpy as np
import scipy.linalg

NR = 40

RE, M, K = 1.0e4, 1, 1.0


def cheb(n):
    x = np.cos(np.pi * np.arange(n + 1) / n)
    c = np.hstack([2.0, np.ones(n - 1), 2.0]) * (-1.0) ** np.arange(n + 1)
    d = np.outer(c, 1.0 / c) / (x[:, None] - x[None, :] + np.eye(n + 1))
    return x, d - np.diag(d.sum(axis=1))


def eigenvalues(points):
    x, d = cheb(2 * points - 1)
    d2 = d @ d
    r = x[:points]

    def fold(mat, s):
        return mat[:points, :points] + s * mat[:points, -1:-points - 1:-1]

    ev, od = (-1) ** M, (-1) ** (M + 1)
    i, z = np.eye(points), np.zeros((points, points))
    ir, ir2 = np.diag(1 / r), np.diag(1 / r**2)
    adv = -1j * K * np.diag(1 - r**2)

    def lap(s):
        return fold(d2, s) + ir @ fold(d, s) - (M**2 * ir2 + K**2 * i)

    a = np.block([
        [adv + (lap(od) - ir2) / RE, -2j * M * ir2 / RE, z, -fold(d, ev)],
        [2j * M * ir2 / RE, adv + (lap(od) - ir2) / RE, z, -1j * M * ir],
        [-np.diag(-2 * r), z, adv + lap(ev) / RE, -1j * K * i],
        [fold(d, od) + ir, 1j * M * ir, 1j * K * i, z],
    ]).astype(complex)
    b = np.block([[i, z, z, z], [z, i, z, z], [z, z, i, z], [z, z, z, z]]).astype(complex)
    for row in (0, points, 2 * points):
        a[row], b[row] = 0, 0
        a[row, row] = 1
    lam = scipy.linalg.eigvals(a, b)
    return lam[np.isfinite(lam) & (np.abs(lam) < 1e6)]


def main():
    coarse, fine = eigenvalues(NR), eigenvalues(NR + 16)
    for lam in coarse[np.argsort(-coarse.real)]:
        if np.min(np.abs(fine - lam)) < 1e-6:
            best = fine[np.argmin(np.abs(fine - lam))]
            break
    np.savez("solution.npz", growth_rate=np.float64(best.real), frequency=np.float64(best.imag))


if __name__ == "__main__":
    main()
