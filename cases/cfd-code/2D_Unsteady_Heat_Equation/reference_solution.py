"""Heat equation T_t = alpha (T_xx + T_yy) + q on [-1, 1]^2 with a Gaussian source, T = 1 on the boundary, to
t = 3 (oracle for cfd-code/2D_Unsteady_Heat_Equation).

The problem does not state alpha; alpha = 1 (the upstream setup). 5-point finite differences on NX x NY nodes,
backward Euler with NT steps (sparse LU factorised once). Writes T, x, y (T[j, i] = T(x_i, y_j)).
"""

import numpy as np
from scipy.sparse import diags, identity, kron
from scipy.sparse.linalg import splu

NX = 81
NY = 81
NT = 300

ALPHA = 1.0
Q0 = 200.0
SIGMA = 0.1
T_END = 3.0


def main():
    x, y = np.linspace(-1.0, 1.0, NX), np.linspace(-1.0, 1.0, NY)
    dx, dy = x[1] - x[0], y[1] - y[0]
    xx, yy = np.meshgrid(x, y)
    q = Q0 * np.exp(-(xx**2 + yy**2) / (2 * SIGMA**2))
    dt = T_END / NT
    mx, my = NX - 2, NY - 2
    lx = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(mx, mx)) / dx**2
    ly = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(my, my)) / dy**2
    laplacian = kron(identity(my), lx) + kron(ly, identity(mx))
    step = splu((identity(mx * my) - dt * ALPHA * laplacian).tocsc())
    w = q[1:-1, 1:-1].ravel().copy()  # excess over the boundary value 1 (initial excess = the source shape)
    source = q[1:-1, 1:-1].ravel()
    for _ in range(NT):
        w = step.solve(w + dt * source)
    t = np.ones((NY, NX))
    t[1:-1, 1:-1] += w.reshape(my, mx)
    np.savez("solution.npz", T=t, x=x, y=y)


if __name__ == "__main__":
    main()
