"""Second solution for comsol_266: the radiating bar from its exact solution, no mesh.

Without a source the steady temperature is linear in x, so the flux through the bar, k (T0 - T_L) / L, equals
the radiated flux eps sigma (T_L^4 - T_amb^4): a quartic in T_L whose one real root between T_amb and T0 is
the answer (numpy's companion-matrix roots, polished by Newton steps).
"""

import json

import numpy as np

K, LENGTH, T0, T_AMB = 55.563, 0.1, 1000.0, 300.0
EPS, SIGMA = 0.98, 5.670374419e-8

a = EPS * SIGMA
coefficients = [a, 0.0, 0.0, K / LENGTH, -(K / LENGTH) * T0 - a * T_AMB**4]
roots = np.roots(coefficients)
t = float(next(r.real for r in roots if abs(r.imag) < 1e-6 and T_AMB < r.real < T0))
for _ in range(5):
    t -= np.polyval(coefficients, t) / np.polyval(np.polyder(coefficients), t)
with open("result.json", "w") as handle:
    json.dump({"value": t, "units": "K"}, handle)
print(t)
