"""Hilbert systems H_n x = H_n 1 solved exactly (oracle for re4/hilbert).

Gaussian elimination in rational arithmetic (fractions.Fraction) is exact, so the only error left is the final
rounding of x to floating point. Writes x_5, ..., x_25 to solution.npz.
"""

from fractions import Fraction

import numpy as np

SIZES = [5, 10, 15, 20, 25]


def hilbert_system(n):
    """The exact matrix h_ij = 1/(i + j - 1) and right-hand side b = H 1, as Fractions (1-based i, j)."""
    h = [[Fraction(1, i + j - 1) for j in range(1, n + 1)] for i in range(1, n + 1)]
    return h, [sum(row) for row in h]


def solve_exact(a, b):
    """Gaussian elimination, back substitution, exact arithmetic (H is positive definite: no pivoting)."""
    n = len(b)
    a = [row[:] for row in a]
    b = b[:]
    for k in range(n):
        for i in range(k + 1, n):
            factor = a[i][k] / a[k][k]
            for j in range(k, n):
                a[i][j] -= factor * a[k][j]
            b[i] -= factor * b[k]
    x = [Fraction(0)] * n
    for i in reversed(range(n)):
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def main():
    solutions = {}
    for n in SIZES:
        x = np.array([float(v) for v in solve_exact(*hilbert_system(n))])
        solutions[f"x_{n}"] = x
        print(f"n = {n:2d}: L_inf error vs x* = 1: {np.max(np.abs(x - 1.0)):.3e}")
    np.savez("solution.npz", **solutions)


if __name__ == "__main__":
    main()
