"""Second solution of cfd-code/2D_Laplace_Equation, written apart from the reference: finite volumes on
NX x NY cells (values at the cell centres), the Dirichlet sides through ghost cells and the insulated sides as
zero face fluxes, solved directly by one sparse LU solve instead of iterating from p = 0."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

NX = 80
NY = 40

LX, LY = 2.0, 1.0

dx, dy = LX / NX, LY / NY
x = (np.arange(NX) + 0.5) * dx
y = (np.arange(NY) + 0.5) * dy


def operator(n: int, h: float, dirichlet: bool) -> sp.csr_matrix:
    """Second difference over cell centres: Dirichlet ends (ghost = 2 g - u) or zero-flux ends."""
    main = -2.0 * np.ones(n)
    main[[0, -1]] = -3.0 if dirichlet else -1.0
    return sp.diags([np.ones(n - 1), main, np.ones(n - 1)], [-1, 0, 1]) / h**2


lap = sp.kron(sp.eye(NY), operator(NX, dx, True)) + sp.kron(operator(NY, dy, False), sp.eye(NX))
rhs = np.zeros((NY, NX))
rhs[:, 0] -= 2 * 0.0 / dx**2  # p = 0 at x = 0
rhs[:, -1] -= 2 * y / dx**2  # p = y at x = 2
p = spla.spsolve(lap.tocsc(), rhs.ravel()).reshape(NY, NX)

np.savez("solution.npz", p=p, x=x, y=y)
