"""Steady heat conduction T_xx + T_yy = 0 in a 5 x 4 plate with T = 10, 40, 0, 20 on the left, right, top and
bottom sides (oracle for cfd-code/2D_Steady_Heat_Equation).

5-point finite differences on NX x NY nodes solved exactly (sparse LU). Writes T, x, y (T[j, i] = T(x_i, y_j)).
"""

import numpy as np
from scipy.sparse import diags, identity, kron
from scipy.sparse.linalg import spsolve

NX = 101
NY = 81


def main():
    x, y = np.linspace(0.0, 5.0, NX), np.linspace(0.0, 4.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    t = np.zeros((NY, NX))
    t[0, :], t[-1, :], t[:, 0], t[:, -1] = 20.0, 0.0, 10.0, 40.0
    mx, my = NX - 2, NY - 2
    lx = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(mx, mx)) / dx**2
    ly = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(my, my)) / dy**2
    laplacian = kron(identity(my), lx) + kron(ly, identity(mx))
    rhs = np.zeros((my, mx))
    rhs[:, 0] -= t[1:-1, 0] / dx**2
    rhs[:, -1] -= t[1:-1, -1] / dx**2
    rhs[0, :] -= t[0, 1:-1] / dy**2
    rhs[-1, :] -= t[-1, 1:-1] / dy**2
    t[1:-1, 1:-1] = spsolve(laplacian.tocsc(), rhs.ravel()).reshape(my, mx)
    np.savez("solution.npz", T=t, x=x, y=y)


if __name__ == "__main__":
    main()
