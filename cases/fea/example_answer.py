import json

import numpy as np
from skfem import Basis, BilinearForm, ElementTriP2, LinearForm, MeshTri, condense, solve
from skfem.helpers import dot, grad

# Material and load
k = 15.0  # thermal conductivity, W/(m*K)
q = 1.0e6  # heat generation, W/m^3
side = 0.1  # plate side, m
T_edge = 300.0  # edge temperature, K

# Geometry and mesh: the square plate, 40 x 40 cells split into triangles, quadratic elements
x = np.linspace(0.0, side, 41)
mesh = MeshTri.init_tensor(x, x)
basis = Basis(mesh, ElementTriP2())


@BilinearForm
def conduction(u, v, _):
    return k * dot(grad(u), grad(v))


@LinearForm
def source(v, _):
    return q * v


# Steady heat equation -div(k grad T) = q with T = T_edge on every edge
A, b = conduction.assemble(basis), source.assemble(basis)
T = basis.zeros() + T_edge
T = solve(*condense(A, b, x=T, D=basis.get_dofs()))

# Post-processing: the temperature at the centre of the plate
value = float((basis.probes(np.array([[side / 2], [side / 2]])) @ T)[0])
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "K"}, handle)
print(value)
