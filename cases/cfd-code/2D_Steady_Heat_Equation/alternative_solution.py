"""Second solution of cfd-code/2D_Steady_Heat_Equation, written apart from the reference: the steady state
solved directly (one sparse LU solve of the five-point Laplacian, no iteration in time) on another node grid;
the corner nodes, where two boundary values meet, take their mean."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

NX = 126
NY = 101

WIDTH, HEIGHT = 5.0, 4.0
LEFT, RIGHT, TOP, BOTTOM = 10.0, 40.0, 0.0, 20.0

x = np.linspace(0.0, WIDTH, NX)
y = np.linspace(0.0, HEIGHT, NY)
dx, dy = x[1] - x[0], y[1] - y[0]
T = np.zeros((NY, NX))
T[:, 0], T[:, -1], T[-1, :], T[0, :] = LEFT, RIGHT, TOP, BOTTOM
T[0, 0], T[0, -1] = 0.5 * (BOTTOM + LEFT), 0.5 * (BOTTOM + RIGHT)
T[-1, 0], T[-1, -1] = 0.5 * (TOP + LEFT), 0.5 * (TOP + RIGHT)

nx, ny = NX - 2, NY - 2


def second_difference(n: int, h: float) -> sp.csr_matrix:
    return sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1]) / h**2


lap = sp.kron(sp.eye(ny), second_difference(nx, dx)) + sp.kron(second_difference(ny, dy), sp.eye(nx))
rhs = np.zeros((ny, nx))
rhs[:, 0] -= T[1:-1, 0] / dx**2
rhs[:, -1] -= T[1:-1, -1] / dx**2
rhs[0, :] -= T[0, 1:-1] / dy**2
rhs[-1, :] -= T[-1, 1:-1] / dy**2
T[1:-1, 1:-1] = spla.spsolve(lap.tocsc(), rhs.ravel()).reshape(ny, nx)

np.savez("solution.npz", T=T, x=x, y=y)
