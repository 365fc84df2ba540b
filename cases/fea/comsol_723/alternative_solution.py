"""Second solution for comsol_723: the quantum-dot ground state on a gmsh mesh that follows the interfaces.

gmsh (OpenCASCADE kernel) fragments the rectangle 0 <= r <= 25, -50 <= z <= 50 (nm) by the wetting layer and
the cone's triangle, so element edges lie on every InAs/GaAs interface, with 0.5 nm elements around the dot
growing to 5 nm far away. scikit-fem then solves the axisymmetric generalised eigenproblem
int r (c grad u . grad v + V u v) = E int r u v with cubic (P3) triangles, the material read at each
quadrature point (inside an element, so on one side of every interface), u = 0 on the bottom edge and on the
outer edge below the wetting layer. The lowest eigenvalue comes from shift-invert Lanczos at 0. Lengths in nm,
energies in eV, c in eV nm^2.
"""

import json

import gmsh
import numpy as np
import skfem
from scipy.sparse.linalg import eigsh
from skfem.helpers import dot, grad

C_INAS, C_GAAS = 1.6565, 0.56865  # eV nm^2 (hbar^2 / 2 m*)
V_GAAS = 0.697  # eV

gmsh.initialize()
gmsh.option.setNumber("General.Terminal", 0)
occ = gmsh.model.occ
box = occ.addRectangle(0.0, -50.0, 0.0, 25.0, 100.0)
layer = occ.addRectangle(0.0, -1.0, 0.0, 25.0, 2.0)
corners = [occ.addPoint(*p, 0.0) for p in ((0.0, 0.0), (12.0, 0.0), (0.0, 3.6))]
edges = [occ.addLine(corners[i], corners[(i + 1) % 3]) for i in range(3)]
cone = occ.addPlaneSurface([occ.addCurveLoop(edges)])
occ.fragment([(2, box)], [(2, layer), (2, cone)])
occ.synchronize()
field = gmsh.model.mesh.field
near = field.add("Box")
for name, value in (("VIn", 0.5), ("VOut", 5.0), ("XMin", 0.0), ("XMax", 16.0), ("YMin", -4.0), ("YMax", 7.0)):
    field.setNumber(near, name, value)
field.setNumber(near, "Thickness", 15.0)
field.setAsBackgroundMesh(near)
gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
gmsh.model.mesh.generate(2)
tags, coords, _ = gmsh.model.mesh.getNodes()
_, node_tags = gmsh.model.mesh.getElementsByType(2)
gmsh.finalize()
index = {tag: i for i, tag in enumerate(tags)}
points = coords.reshape(-1, 3)[:, :2].T
triangles = np.vectorize(index.get)(node_tags.reshape(-1, 3)).T
used = np.unique(triangles)
renumber = np.zeros(points.shape[1], dtype=int)
renumber[used] = np.arange(used.size)
mesh = skfem.MeshTri(points[:, used], renumber[triangles])
basis = skfem.Basis(mesh, skfem.ElementTriP3(), intorder=6)


def in_dot(r, z):
    return (np.abs(z) <= 1.0) | ((z >= 0.0) & (z <= 3.6 * (1.0 - r / 12.0)))


@skfem.BilinearForm
def hamiltonian(u, v, w):
    r, z = w.x
    inside = in_dot(r, z)
    c = np.where(inside, C_INAS, C_GAAS)
    potential = np.where(inside, 0.0, V_GAAS)
    return r * (c * dot(grad(u), grad(v)) + potential * u * v)


@skfem.BilinearForm
def mass(u, v, w):
    return w.x[0] * u * v


dirichlet = basis.get_dofs(lambda x: np.isclose(x[1], -50.0) | (np.isclose(x[0], 25.0) & (x[1] <= -1.0 + 1e-9)))
stiffness, weights = hamiltonian.assemble(basis), mass.assemble(basis)
free = basis.complement_dofs(dirichlet)
energies = eigsh(stiffness[free][:, free], k=3, M=weights[free][:, free], sigma=0.0, which="LM")[0]
value = float(np.min(energies))
with open("result.json", "w") as handle:
    json.dump({"value": value, "units": "eV"}, handle)
print(value, mesh.t.shape[1], "triangles")
