"""Second solution for comsol_12681_gravity: plane-strain elasticity with biquadratic quadrilaterals on a graded mesh.

The trapezoid is meshed by mapping a structured grid of the unit square, (s, t) -> (4 s, s + t (4 - 2 s)),
graded towards the clamped edge (s = r^1.5) so that D = (0, 2) is a node in a fine region, and the
displacement is approximated with Q2 quadrilaterals (scikit-fem). The shear stress sigma_xy is recovered by an L2
projection of the element stresses onto the same Q2 space and read at D. Units: metres and pascals.
"""

import json

import numpy as np
import skfem
from skfem.helpers import ddot, eye, sym_grad, trace
from skfem.models.elasticity import lame_parameters

E, NU, RHO, GRAVITY = 210e9, 0.3, 7000.0, 9.80665
N = 48

unit = skfem.MeshQuad.init_tensor(np.linspace(0.0, 1.0, N + 1) ** 1.5, np.linspace(0.0, 1.0, N + 1))
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


@skfem.LinearForm
def weight(v, _):
    return -RHO * GRAVITY * v[1]


clamped = basis.get_dofs(lambda x: np.isclose(x[0], 0.0)).all()
u = skfem.solve(*skfem.condense(stiffness.assemble(basis), weight.assemble(basis), D=clamped))

scalar = basis.with_element(skfem.ElementQuad2())
sxy = scalar.project(stress(sym_grad(basis.interpolate(u)))[0, 1])
value = float((scalar.probes(np.array([[0.0], [2.0]])) @ sxy)[0] / 1e6)
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "MPa"}, handle)
print(value)
