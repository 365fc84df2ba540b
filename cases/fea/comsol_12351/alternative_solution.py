"""Second solution for comsol_12351: the capacitance per unit length from a 1-D radial finite-element model.

The TEM field of the coaxial line is the electrostatic potential between the conductors; with rotational
symmetry it depends on r alone. We solve (1/r) d/dr(eps r dV/dr) = 0 on [r_i, r_o] with quadratic elements on a
geometrically graded mesh (weight r in the weak form), V = 1 on the inner conductor and 0 on the outer, take the
capacitance from the field energy, C' = 2 pi eps0 eps_r int r (dV/dr)^2 dr, and Z0 = sqrt(mu0 eps0 eps_r) / C'.
"""

import json

import numpy as np
import skfem
from skfem.helpers import dot, grad

R_IN, R_OUT = 0.5e-3, 3.43e-3
EPS_R = 2.4
MU0 = 1.25663706212e-6
C0 = 299792458.0
EPS0 = 1.0 / (MU0 * C0**2)

nodes = R_IN * (R_OUT / R_IN) ** np.linspace(0.0, 1.0, 41)
mesh = skfem.MeshLine(nodes)
basis = skfem.Basis(mesh, skfem.ElementLineP2())


@skfem.BilinearForm
def radial(u, v, w):
    return w.x[0] * dot(grad(u), grad(v))


@skfem.Functional
def energy(w):
    return w.x[0] * dot(grad(w["pot"]), grad(w["pot"]))


stiffness = radial.assemble(basis)
inner = basis.get_dofs(lambda x: np.isclose(x[0], R_IN))
outer = basis.get_dofs(lambda x: np.isclose(x[0], R_OUT))
potential = np.zeros(basis.N)
potential[inner.all()] = 1.0
fixed = np.concatenate([inner.all(), outer.all()])
potential = skfem.solve(*skfem.condense(stiffness, np.zeros(basis.N), x=potential, D=fixed))
capacitance = 2.0 * np.pi * EPS0 * EPS_R * energy.assemble(basis, pot=basis.interpolate(potential))
value = float(np.sqrt(MU0 * EPS0 * EPS_R) / capacitance)
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "ohm"}, handle)
print(value)
