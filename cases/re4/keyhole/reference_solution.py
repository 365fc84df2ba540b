"""Data-driven dimensional analysis of the keyhole data set (oracle for re4/keyhole).

Reads ./dataset_keyhole.csv, enumerates every dimensionless group of the seven quantities whose exponents
are rational (denominators up to 4 for the free exponents), normalised so that V_s has exponent 1, with every
|exponent| <= 3, fits log(e*) = c0 + c1 log(group) by least squares, keeps the group of highest R^2, and
writes its exponents to solution.json.
"""

import csv
import json
from fractions import Fraction

import numpy as np

NAMES = ["eta_P", "V_s", "r_0", "alpha", "rho", "C_p", "T_l_minus_T_0"]
COLUMNS = [2, 3, 4, 5, 6, 7, 10]  # 0-based: columns 3-8 and 11 of the file
# Exponents of (M, L, T, Theta) of each quantity: W, m/s, m, m^2/s, kg/m^3, J/(kg K), K.
DIMENSIONS = [
    [1, 0, 0, 0, 1, 0, 0],
    [2, 1, 1, 2, -3, 2, 0],
    [-3, -1, 0, -1, 0, -2, 0],
    [0, 0, 0, 0, 0, -1, 1],
]
FREE = [0, 5]  # eta_P and C_p are chosen; V_s is fixed to 1; the other four follow from D v = 0
DEPENDENT = [2, 3, 4, 6]
MAX_DENOMINATOR = 4
BOUND = 3


def read_data(path):
    """Columns of the seven quantities (as logs) and log(e*)."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = [row for row in csv.reader(handle) if row][1:]
    data = np.array([[float(row[c]) for c in COLUMNS] + [float(row[-1])] for row in rows])
    return np.log(data[:, :7]), np.log(data[:, 7])


def solve_exact(matrix, rhs):
    """Solve a square linear system exactly in rational arithmetic (Gauss-Jordan with Fractions)."""
    n = len(matrix)
    a = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        a[col] = [v / a[col][col] for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                a[r] = [v - a[r][col] * w for v, w in zip(a[r], a[col])]
    return [row[-1] for row in a]


def candidate_groups():
    """Every exponent vector in the null space of DIMENSIONS with V_s = 1 and all |exponent| <= BOUND."""
    denominators = range(1, MAX_DENOMINATOR + 1)
    values = sorted({Fraction(p, q) for q in denominators for p in range(-BOUND * q, BOUND * q + 1)})
    sub = [[row[j] for j in DEPENDENT] for row in DIMENSIONS]
    for e_eta in values:
        for e_cp in values:
            known = {0: e_eta, 1: Fraction(1), 5: e_cp}
            rhs = [-sum(row[j] * v for j, v in known.items()) for row in DIMENSIONS]
            vector = [Fraction(0)] * 7
            for j, v in known.items():
                vector[j] = v
            for j, v in zip(DEPENDENT, solve_exact(sub, rhs)):
                vector[j] = v
            if all(abs(v) <= BOUND for v in vector):
                yield vector


def r_squared(x, y):
    """Coefficient of determination of the least-squares line y = c0 + c1 x, and its slope."""
    design = np.column_stack([np.ones_like(x), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    return 1.0 - residual @ residual / np.sum((y - y.mean()) ** 2), coef[1]


def main():
    logs, log_e = read_data("dataset_keyhole.csv")
    scored = []
    for vector in candidate_groups():
        r2, slope = r_squared(logs @ np.array([float(v) for v in vector]), log_e)
        scored.append((r2, slope, vector))
    scored.sort(key=lambda item: item[0], reverse=True)
    (best_r2, slope, best), (runner_up, _, _) = scored[0], scored[1]
    print(f"rows: {len(log_e)}, candidate groups: {len(scored)}")
    print("best group: " + " * ".join(f"{n}^({v})" for n, v in zip(NAMES, best)))
    print(f"R^2 = {best_r2:.6f} (runner-up {runner_up:.6f}), fitted slope = {slope:.4f}")
    with open("solution.json", "w", encoding="utf-8") as handle:
        json.dump({n: float(v) for n, v in zip(NAMES, best)}, handle, indent=2)


if __name__ == "__main__":
    main()
