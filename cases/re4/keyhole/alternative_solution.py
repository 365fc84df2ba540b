"""Second solution of re4/keyhole, written apart from the reference: instead of enumerating candidate groups,
the exponents are fitted. The dimension matrix (M, L, T, Theta) of the seven quantities has a three-dimensional
null space; log e* is regressed by least squares on the logarithms of the quantities projected onto it (every
dimensionless power law is a vector of that space). The fitted direction is scaled to V_s^(-1/2), each exponent
rounded to the nearest fraction with denominator at most 4 (the rounded group checked dimensionless), the group
normalised by the exponent of V_s, and the R^2 of log e* against the rounded group reported."""

import csv
import json
from fractions import Fraction

import numpy as np

NAMES = ["eta_P", "V_s", "r_0", "alpha", "rho", "C_p", "T_l_minus_T_0"]
COLUMNS = [2, 3, 4, 5, 6, 7, 10]  # columns 3, 4, 5, 6, 7, 8 and 11 (1-based)
# exponents of M, L, T, Theta of each quantity (SI)
DIMENSIONS = np.array(
    [
        [1, 2, -3, 0],  # eta P: W
        [0, 1, -1, 0],  # V_s: m/s
        [0, 1, 0, 0],  # r_0: m
        [0, 2, -1, 0],  # alpha: m^2/s
        [1, -3, 0, 0],  # rho: kg/m^3
        [0, 2, -2, -1],  # C_p: J/(kg K)
        [0, 0, 0, 1],  # T_l - T_0: K
    ],
    dtype=float,
).T

with open("dataset_keyhole.csv", newline="") as handle:
    rows = list(csv.reader(handle))[1:]
values = np.array([[float(row[c]) for c in COLUMNS] for row in rows])
target = np.array([float(row[-1]) for row in rows])

_, singular, vt = np.linalg.svd(DIMENSIONS)
null = vt[np.sum(singular > 1e-10) :].T  # 7 x 3 basis of dimensionless exponent vectors
logs = np.log(values) @ null
design = np.column_stack([np.ones(len(target)), logs])
coefficients, *_ = np.linalg.lstsq(design, np.log(target), rcond=None)
direction = null @ coefficients[1:]
direction /= -2.0 * direction[NAMES.index("V_s")]  # V_s to the power -1/2, the scale of the rounding grid
rounded = [Fraction(float(v)).limit_denominator(4) for v in direction]
assert np.allclose(DIMENSIONS @ np.array([float(v) for v in rounded]), 0.0), "the rounded group has dimensions"
group = np.exp(np.log(values) @ np.array([float(v) for v in rounded]))
slope, intercept = np.polyfit(np.log(group), np.log(target), 1)
residual = np.log(target) - (slope * np.log(group) + intercept)
r2 = 1 - np.sum(residual**2) / np.sum((np.log(target) - np.log(target).mean()) ** 2)
normalised = {name: float(v / rounded[NAMES.index("V_s")]) for name, v in zip(NAMES, rounded, strict=True)}
print("group exponents:", {n: str(v) for n, v in zip(NAMES, rounded, strict=True)}, f"R^2 (log-log) = {r2:.4f}")
with open("solution.json", "w") as handle:
    json.dump(normalised, handle, indent=1)
