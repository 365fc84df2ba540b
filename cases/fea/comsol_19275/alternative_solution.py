"""Second solution for comsol_19275: the Bragg mirror by the characteristic (transfer) matrix method.

Each lossless layer of index n and thickness d has the characteristic matrix [[cos g, i sin g / n],
[i n sin g, cos g]] with g = 2 pi n d / lambda; the stack's matrix M maps the substrate to the air side, and
r = (n0 B - C) / (n0 B + C) with (B, C) = M (1, n_s). Reflectance R = |r|^2, in percent.
"""

import json

import numpy as np

WAVELENGTH = 550e-9
N_AIR, N_GLASS, N_H, N_L = 1.0, 1.5, 2.32, 1.38


def layer(n: float, d: float) -> np.ndarray:
    g = 2.0 * np.pi * n * d / WAVELENGTH
    return np.array([[np.cos(g), 1j * np.sin(g) / n], [1j * n * np.sin(g), np.cos(g)]])


stack = [N_H] + [N_L, N_H] * 5
matrix = np.eye(2, dtype=complex)
for n in stack:
    matrix = matrix @ layer(n, WAVELENGTH / (4.0 * n))
b, c = matrix @ np.array([1.0, N_GLASS])
r = (N_AIR * b - c) / (N_AIR * b + c)
value = float(100.0 * abs(r) ** 2)
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "percent"}, handle)
print(value)
