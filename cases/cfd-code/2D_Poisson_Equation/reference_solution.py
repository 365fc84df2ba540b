"""Poisson equation p_xx + p_yy = b on [0, 2] x [0, 1], p = 0 on the boundary, b = +100 at the grid node nearest
(Lx/4, Ly/4) and -100 at the node nearest (3Lx/4, 3Ly/4) (oracle for cfd-code/2D_Poisson_Equation).

The sources are single grid values, so the answer belongs to the grid: NX x NY = 50 x 50 nodes, the sources at
nodes (NY // 4, NX // 4) and (3 NY // 4, 3 NX // 4); the 5-point system is solved exactly (sparse LU).
Writes p, x, y (p[j, i] = p(x_i, y_j)) to solution.npz.
"""

import numpy as np
from scipy.sparse import diags, identity, kron
from scipy.sparse.linalg import spsolve

NX = 50
NY = 50


def main():
    x, y = np.linspace(0.0, 2.0, NX), np.linspace(0.0, 1.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    b = np.zeros((NY, NX))
    b[int(NY / 4), int(NX / 4)] = 100.0
    b[int(3 * NY / 4), int(3 * NX / 4)] = -100.0
    mx, my = NX - 2, NY - 2
    lx = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(mx, mx)) / dx**2
    ly = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(my, my)) / dy**2
    laplacian = kron(identity(my), lx) + kron(ly, identity(mx))
    p = np.zeros((NY, NX))
    p[1:-1, 1:-1] = spsolve(laplacian.tocsc(), b[1:-1, 1:-1].ravel()).reshape(my, mx)
    np.savez("solution.npz", p=p, x=x, y=y)


if __name__ == "__main__":
    main()
