"""Second solution of cfd-code/2D_Unsteady_Heat_Equation, written apart from the reference: Crank-Nicolson in
time (implicit, any step is stable) with the five-point Laplacian, one sparse LU factorisation reused for every
step, on a finer node grid than the reference's. T_t = alpha lap T + q, alpha = 1, T = 1 on the boundary of
[-1, 1]^2, to t = 3."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

NX = 61
NY = 61
NT = 150

ALPHA, Q0, SIGMA, T_END = 1.0, 200.0, 0.1, 3.0

x = np.linspace(-1.0, 1.0, NX)
y = np.linspace(-1.0, 1.0, NY)
dx, dy = x[1] - x[0], y[1] - y[0]
dt = T_END / NT
X, Y = np.meshgrid(x, y)  # [j, i]
bump = np.exp(-(X**2 + Y**2) / (2 * SIGMA**2))
T = 1.0 + 200.0 * bump
q = Q0 * bump

nx, ny = NX - 2, NY - 2  # interior unknowns


def second_difference(n: int, h: float) -> sp.csr_matrix:
    return sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1]) / h**2


lap = sp.kron(sp.eye(ny), second_difference(nx, dx)) + sp.kron(second_difference(ny, dy), sp.eye(nx))
# the boundary value 1 enters the interior Laplacian as a constant vector
edge = np.zeros((ny, nx))
edge[:, 0] += 1 / dx**2
edge[:, -1] += 1 / dx**2
edge[0, :] += 1 / dy**2
edge[-1, :] += 1 / dy**2
forcing = ALPHA * edge.ravel() + q[1:-1, 1:-1].ravel()
identity = sp.eye(nx * ny)
implicit = spla.splu((identity - 0.5 * dt * ALPHA * lap).tocsc())
explicit = (identity + 0.5 * dt * ALPHA * lap).tocsr()
inner = T[1:-1, 1:-1].ravel()
for _ in range(NT):
    inner = implicit.solve(explicit @ inner + dt * forcing)
T[1:-1, 1:-1] = inner.reshape(ny, nx)
T[0, :] = T[-1, :] = T[:, 0] = T[:, -1] = 1.0

np.savez("solution.npz", T=T, x=x, y=y)
