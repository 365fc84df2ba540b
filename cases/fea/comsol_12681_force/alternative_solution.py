"""Second solution for comsol_12681_force: plane-strain elasticity with biquadratic quadrilaterals on a mapped mesh.

The trapezoid is meshed by mapping a structured grid of the unit square, (s, t) -> (4 s, s + t (4 - 2 s)),
so that D = (0, 2) is a node, and the displacement is approximated with Q2 quadrilaterals (scikit-fem). The stress
sigma_xx is recovered by an L2 projection of the element stresses onto the same Q2 space and read at D.
Units: metres and pascals; the edge load is the traction 100 MPa = 10 MN/m over 0.1 m.
"""

import json

import numpy as np
import skfem
from skfem.helpers import ddot, eye, sym_grad, trace
from skfem.models.elasticity import lame_parameters

E, NU = 210e9, 0.3
TRACTION = 10e6 / 0.1  # Pa
N = 48

unit = skfem.MeshQuad.init_tensor(np.linspace(0.0, 1.0, N + 1), np.linspace(0.0, 1.0, N + 1))
s, t = unit.p
mesh = skfem.MeshQuad(np.array([4.0 * s, s + t * (4.0 - 2.0 * s)]), unit.t)
element = skfem.ElementVector(skfem.ElementQuad2())
basis = skfem.Basis(mesh, element, intorder=5)
lam, mu = lame_parameters(E, NU)  # plane strain: the 3-D Lame constants


def stress(strain):
    return 2.0 * mu * strain + lam * eye(trace(strain), 2)


@skfem.BilinearForm
def stiffness(u, v, _):
    return ddot(stress(sym_grad(u)), sym_grad(v))


right = skfem.FacetBasis(mesh, element, facets=mesh.facets_satisfying(lambda x: np.isclose(x[0], 4.0)), intorder=5)


@skfem.LinearForm
def load(v, _):
    return TRACTION * v[0]


rollers = basis.get_dofs(lambda x: np.isclose(x[0], 0.0)).all("u^1")
point_d = basis.get_dofs(lambda x: np.isclose(x[0], 0.0) & np.isclose(x[1], 2.0)).nodal["u^2"]
fixed = np.concatenate([rollers, point_d])
u = skfem.solve(*skfem.condense(stiffness.assemble(basis), load.assemble(right), D=fixed))

scalar = basis.with_element(skfem.ElementQuad2())
strain = sym_grad(basis.interpolate(u))
sxx = scalar.project(stress(strain)[0, 0])
value = float((scalar.probes(np.array([[0.0], [2.0]])) @ sxx)[0] / 1e6)
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "MPa"}, handle)
print(value)
