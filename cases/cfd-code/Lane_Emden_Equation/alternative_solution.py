"""Second solution of cfd-code/Lane_Emden_Equation, written apart from the reference: Chebyshev collocation of
f'' + 2 f' / r + f^3 = 0 on the diameter [-1, 1] (an even number of Gauss-Lobatto nodes, none at the centre, so
the symmetric solution is regular there by construction), f(+-1) = 0, solved by Newton's method from the
stated initial guess 5 (1 - r^2)^2; the NR nodes with r > 0 are saved."""

import numpy as np

NR = 32

INDEX = 3.0
N = 2 * NR - 1  # polynomial degree: N + 1 = 2 NR nodes


def chebyshev(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Lobatto nodes (decreasing) and the differentiation matrix (Trefethen, Spectral Methods in MATLAB)."""
    nodes = np.cos(np.pi * np.arange(n + 1) / n)
    c = np.hstack([2.0, np.ones(n - 1), 2.0]) * (-1.0) ** np.arange(n + 1)
    dx = nodes[:, None] - nodes[None, :]
    d = np.outer(c, 1 / c) / (dx + np.eye(n + 1))
    return nodes, d - np.diag(d.sum(axis=1))


r, D = chebyshev(N)
operator = D @ D + np.diag(2 / r) @ D  # no node at r = 0 (N odd)
f = 5.0 * (1 - r**2) ** 2
inner = slice(1, N)
for _ in range(50):
    residual = operator @ f + f**INDEX
    jacobian = operator + np.diag(INDEX * f ** (INDEX - 1))
    jacobian[[0, N]] = 0
    jacobian[0, 0] = jacobian[N, N] = 1
    residual[[0, N]] = f[[0, N]]
    step = np.linalg.solve(jacobian, -residual)
    f += step
    if np.max(np.abs(step)) < 1e-13 * np.max(np.abs(f)):
        break

positive = r > 0
order = np.argsort(r[positive])
np.savez("solution.npz", f=f[positive][order], r=r[positive][order])
