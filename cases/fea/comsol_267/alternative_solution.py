"""Second solution for comsol_267: the heated cylinder by separation of variables, no mesh.

With the whole surface held at T_s and a uniform start at 0, the dimensionless excess theta = (T_s - T) / T_s
of a finite cylinder is the product of the infinite cylinder's and the slab's solutions:
theta_r = sum 2 J0(l_n r / R) / (l_n J1(l_n)) exp(-l_n^2 alpha t / R^2) over the zeros l_n of J0, and
theta_z = sum 4 / ((2m + 1) pi) sin((2m + 1) pi z / H) exp(-((2m + 1) pi / H)^2 alpha t).
"""

import json

import numpy as np
from scipy.special import j0, j1, jn_zeros

K, RHO, CP = 52.0, 7850.0, 460.0
RADIUS, HEIGHT = 0.3, 0.4
T_SURFACE = 1000.0
R, Z, TIME = 0.1, 0.3, 190.0
alpha = K / (RHO * CP)

zeros = jn_zeros(0, 200)
theta_r = np.sum(2.0 * j0(zeros * R / RADIUS) / (zeros * j1(zeros)) * np.exp(-(zeros**2) * alpha * TIME / RADIUS**2))
odd = 2 * np.arange(200) + 1
theta_z = np.sum(
    4.0 / (odd * np.pi) * np.sin(odd * np.pi * Z / HEIGHT) * np.exp(-((odd * np.pi / HEIGHT) ** 2) * alpha * TIME)
)
value = float(T_SURFACE * (1.0 - theta_r * theta_z))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "degC"}, handle)
print(value)
