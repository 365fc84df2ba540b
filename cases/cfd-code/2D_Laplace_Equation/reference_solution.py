"""Laplace equation on [0, 2] x [0, 1]: p = 0 at x = 0, p = y at x = 2, dp/dy = 0 at y = 0, 1
(oracle for cfd-code/2D_Laplace_Equation).

Second-order 5-point finite differences on NX x NY nodes, Neumann rows by ghost-node reflection, solved by a
sparse LU. Writes p, x, y (p[j, i] = p(x_i, y_j)) to solution.npz.
"""

import numpy as np
from scipy.sparse import lil_matrix
from scipy.sparse.linalg import spsolve

NX = 81
NY = 41


def main():
    x, y = np.linspace(0.0, 2.0, NX), np.linspace(0.0, 1.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    n = NX * NY
    a, b = lil_matrix((n, n)), np.zeros(n)
    index = lambda j, i: j * NX + i  # noqa: E731
    for j in range(NY):
        for i in range(NX):
            k = index(j, i)
            if i == 0 or i == NX - 1:
                a[k, k], b[k] = 1.0, 0.0 if i == 0 else y[j]
                continue
            a[k, k] = -2 / dx**2 - 2 / dy**2
            a[k, index(j, i - 1)] += 1 / dx**2
            a[k, index(j, i + 1)] += 1 / dx**2
            down = j - 1 if j > 0 else 1  # ghost node reflection: p_-1 = p_1
            up = j + 1 if j < NY - 1 else NY - 2
            a[k, index(down, i)] += 1 / dy**2
            a[k, index(up, i)] += 1 / dy**2
    p = spsolve(a.tocsr(), b).reshape(NY, NX)
    np.savez("solution.npz", p=p, x=x, y=y)


if __name__ == "__main__":
    main()
