"""Second solution for comsol_10275: the narrow-gap thermoviscous slit in closed form, no mesh.

The reference solves the cross-gap profiles and the pressure equation with finite elements. Here every piece
has an exact expression: P(z) = 1 - cos(k z) / cos(k H / 2) solves P'' + k^2 P = k^2 with P(+-H/2) = 0, its
gap mean is 1 - tan(k H / 2) / (k H / 2), and p'' + Gamma^2 p = 0 with p(0) = 1, p(L) = 0 gives
p(x) = sin(Gamma (L - x)) / sin(Gamma L). The axial velocity at the centre follows from dp/dx and P_v(0).
"""

import json

import numpy as np

F = 500.0
OMEGA = 2.0 * np.pi * F
H = 1e-3
L = 5e-3
T0, P0, M, R = 293.0, 101325.0, 0.02897, 8.314462618
GAMMA = 1.4
MU, CP, KAPPA = 1.8132e-5, 1005.42, 0.025756

rho0 = P0 * M / (R * T0)
c = np.sqrt(GAMMA * R * T0 / M)
kv = np.sqrt(-1j * OMEGA * rho0 / MU + 0j)
kth = np.sqrt(-1j * OMEGA * rho0 * CP / KAPPA + 0j)


def gap_mean(k: complex) -> complex:
    """Mean over the gap of 1 - cos(k z) / cos(k H / 2)."""
    half = k * H / 2.0
    return 1.0 - np.tan(half) / half


def centre_value(k: complex) -> complex:
    """1 - 1 / cos(k H / 2): the profile at z = 0."""
    return 1.0 - 1.0 / np.cos(k * H / 2.0)


big_gamma = np.sqrt((OMEGA / c) ** 2 * (GAMMA - (GAMMA - 1.0) * gap_mean(kth)) / gap_mean(kv))
x = L / 2.0
dpdx = -big_gamma * np.cos(big_gamma * (L - x)) / np.sin(big_gamma * L)
u = -dpdx * centre_value(kv) / (1j * OMEGA * rho0)
value = float(abs(u))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "m/s"}, handle)
print(value)
