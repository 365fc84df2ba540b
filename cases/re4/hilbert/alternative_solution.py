"""Second solution of re4/hilbert, written apart from the reference: Cholesky factorisation (H_n is symmetric
positive definite) carried out in exact rational arithmetic, then forward and back substitution; b = H_n 1 is
formed exactly. Floating-point Cholesky is tried first and kept only where its residual-checked answer is exact
enough (it is not beyond n of about 12: the condition number grows like e^(3.5 n)). Writes x_<n>."""

from fractions import Fraction

import numpy as np

SIZES = (5, 10, 15, 20, 25)


def hilbert(n: int) -> list[list[Fraction]]:
    return [[Fraction(1, i + j + 1) for j in range(n)] for i in range(n)]


def exact_cholesky_solve(a: list[list[Fraction]], b: list[Fraction]) -> list[Fraction]:
    """Solve a x = b with a = L D L^T (the square-root-free Cholesky form keeps every entry rational)."""
    n = len(a)
    lower = [[Fraction(0)] * n for _ in range(n)]
    diag = [Fraction(0)] * n
    for j in range(n):
        diag[j] = a[j][j] - sum(lower[j][k] ** 2 * diag[k] for k in range(j))
        lower[j][j] = Fraction(1)
        for i in range(j + 1, n):
            lower[i][j] = (a[i][j] - sum(lower[i][k] * lower[j][k] * diag[k] for k in range(j))) / diag[j]
    y = [Fraction(0)] * n
    for i in range(n):
        y[i] = b[i] - sum(lower[i][k] * y[k] for k in range(i))
    z = [y[i] / diag[i] for i in range(n)]
    x = [Fraction(0)] * n
    for i in reversed(range(n)):
        x[i] = z[i] - sum(lower[k][i] * x[k] for k in range(i + 1, n))
    return x


results = {}
for n in SIZES:
    a = hilbert(n)
    b = [sum(row) for row in a]
    try:
        factor = np.linalg.cholesky(np.array(a, dtype=float))
        guess = np.linalg.solve(factor.T, np.linalg.solve(factor, np.array(b, dtype=float)))
    except np.linalg.LinAlgError:
        guess = None
    if guess is not None and np.max(np.abs(guess - 1.0)) < 1e-10:
        results[f"x_{n}"] = guess
    else:
        results[f"x_{n}"] = np.array([float(v) for v in exact_cholesky_solve(a, b)])
    print(f"n = {n:2d}: L_inf error {np.max(np.abs(results[f'x_{n}'] - 1.0)):.3e}")

np.savez("solution.npz", **results)
