"""Second solution for comsol_75611: the simply supported Timoshenko beam in closed form.

For simple supports the modes are w = W sin(k x), psi = Psi cos(k x) with k = n pi / L, and the Timoshenko
equations give the 2 x 2 frequency determinant
(kappa G A k^2 - rho A w^2)(E I k^2 + kappa G A - rho I w^2) - (kappa G A k)^2 = 0,
a quadratic in w^2 whose smaller root for n = 1 is the lowest flexural frequency (shear and rotary inertia
included). The axial and torsional modes of this bar lie far higher.
"""

import json

import numpy as np

L, SIDE = 10.0, 2.0
E, NU, RHO = 200e9, 0.3, 8000.0
G = E / (2.0 * (1.0 + NU))
KAPPA = 10.0 * (1.0 + NU) / (12.0 + 11.0 * NU)
AREA, INERTIA = SIDE**2, SIDE**4 / 12.0

k = np.pi / L
shear = KAPPA * G * AREA
# a w^4 + b w^2 + c = 0 in w^2
a = RHO * AREA * RHO * INERTIA
b = -(shear * k**2 * RHO * INERTIA + RHO * AREA * (E * INERTIA * k**2 + shear))
c = shear * k**2 * (E * INERTIA * k**2 + shear) - (shear * k) ** 2
omega2 = min(np.roots([a, b, c]).real)
value = float(np.sqrt(omega2) / (2.0 * np.pi))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "Hz"}, handle)
print(value)
