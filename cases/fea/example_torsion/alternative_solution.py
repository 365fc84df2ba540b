"""Second solution for example_torsion: Prandtl's stress function with quadratic elements on a curved mesh.

Where the reference uses linear triangles on a polygonal disk, this uses quadratic (P2) elements on a mesh
with quadratic, isoparametric edges (MeshTri2), so the boundary is the circle to high accuracy. Prandtl's
stress function solves -Laplace(phi) = 2 G theta with phi = 0 on the edge; the torque is T = 2 int phi dA.
Lengths in metres throughout.
"""

import json

import skfem
from skfem.helpers import dot, grad

G = 80e9  # Pa
RADIUS = 0.02  # m
THETA = 0.01  # rad/m

mesh = skfem.MeshTri2.init_circle(3).scaled(RADIUS)
basis = skfem.Basis(mesh, skfem.ElementTriP2())


@skfem.BilinearForm
def laplace(u, v, _):
    return dot(grad(u), grad(v))


@skfem.LinearForm
def source(v, _):
    return 2.0 * G * THETA * v


@skfem.Functional
def total(w):
    return w["phi"]


phi = skfem.solve(*skfem.condense(laplace.assemble(basis), source.assemble(basis), D=basis.get_dofs()))
value = float(2.0 * total.assemble(basis, phi=basis.interpolate(phi)))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "N*m"}, handle)
print(value)
