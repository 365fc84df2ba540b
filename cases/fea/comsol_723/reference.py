"""Reference for comsol_723: ground-state energy of an electron in a conical InAs quantum dot (axisymmetric).

Effective-mass Schrodinger equation for l = 0 in (r, z), lengths in nm, energies in eV:
    -(1/r) d/dr(c r du/dr) - d/dz(c du/dz) + V u = E u,   c = hbar^2 / (2 m*),
with InAs (m* = 0.023 m_e, V = 0) in the wetting layer 0 <= r <= 25, -1 <= z <= 1 united with the cone
(0, 0), (12, 0), (0, 3.6), and GaAs (m* = 0.067 m_e, V = 0.697 eV) in the rest of 0 <= r <= 25, -50 <= z <= 50.
u = 0 on the bottom z = -50 and on the outer side r = 25 for -50 <= z <= -1; zero flux (c du/dn = 0) on every
other boundary (the axis, the top, the rest of r = 25). Weak form weighted by r, quadratic Lagrange
triangles (scikit-fem) on a gmsh mesh that is fine (h) around the dot and the wetting layer and 8 h far away.
The lowest eigenvalue (eV) is written to result.json.
Usage: python reference.py [--level N]  (level 1 is the default: h = 0.25 nm; each level halves h).
"""

import argparse
import json

import gmsh
import numpy as np
import scipy.sparse.linalg
import skfem
from skfem.helpers import dot, grad

HBAR_EV_S = 6.582119569e-16  # reduced Planck constant, eV s
ELECTRON_MASS_EV = 9.1093837015e-31 / 1.602176634e-19  # m_e in eV s^2 / m^2
NM2 = 1e18  # m^2 -> nm^2
C_INAS = HBAR_EV_S**2 / (2 * 0.023 * ELECTRON_MASS_EV) * NM2  # eV nm^2
C_GAAS = HBAR_EV_S**2 / (2 * 0.067 * ELECTRON_MASS_EV) * NM2
V_INAS, V_GAAS = 0.0, 0.697
WIDTH, Z_MIN, Z_MAX, LAYER = 25.0, -50.0, 50.0, 1.0
CONE = [(0.0, 0.0), (12.0, 0.0), (0.0, 3.6)]


def build_mesh(h: float) -> tuple[skfem.MeshTri, np.ndarray]:
    """gmsh triangle mesh of the section and a per-element flag: True where the element is InAs."""
    gmsh.initialize(["", "-nt", "1"])
    gmsh.option.setNumber("General.Terminal", 0)
    occ = gmsh.model.occ
    box = occ.addRectangle(0, Z_MIN, 0, WIDTH, Z_MAX - Z_MIN)
    layer = occ.addRectangle(0, -LAYER, 0, WIDTH, 2 * LAYER)
    points = [occ.addPoint(r, z, 0) for r, z in CONE]
    lines = [occ.addLine(points[i], points[(i + 1) % 3]) for i in range(3)]
    cone = occ.addPlaneSurface([occ.addCurveLoop(lines)])
    dot_region, _ = occ.fuse([(2, layer)], [(2, cone)])
    occ.fragment([(2, box)], dot_region)
    occ.synchronize()
    near = gmsh.model.mesh.field.add("Box")
    for name, value in [("VIn", h), ("VOut", 8 * h), ("XMin", 0), ("XMax", WIDTH)]:
        gmsh.model.mesh.field.setNumber(near, name, value)
    for name, value in [("YMin", -4 * LAYER), ("YMax", 6.0), ("Thickness", 10.0)]:
        gmsh.model.mesh.field.setNumber(near, name, value)
    gmsh.model.mesh.field.setAsBackgroundMesh(near)
    for option in ["MeshSizeFromPoints", "MeshSizeFromCurvature", "MeshSizeExtendFromBoundary"]:
        gmsh.option.setNumber(f"Mesh.{option}", 0)
    gmsh.model.mesh.generate(2)
    tags, coords, _ = gmsh.model.mesh.getNodes()
    index = np.zeros(int(tags.max()) + 1, dtype=np.int64)
    index[tags.astype(np.int64)] = np.arange(tags.size)
    triangles, inas = [], []
    for _, surface in gmsh.model.getEntities(2):
        _, _, nodes = gmsh.model.mesh.getElements(2, surface)
        tri = index[nodes[0].astype(np.int64)].reshape(-1, 3)
        com = gmsh.model.occ.getCenterOfMass(2, surface)
        triangles.append(tri)
        inas.append(np.full(len(tri), abs(com[1]) < 2.0))
    gmsh.finalize()
    p = coords.reshape(-1, 3)[:, :2].T
    used = np.unique(np.concatenate(triangles))
    renumber = np.full(p.shape[1], -1)
    renumber[used] = np.arange(used.size)
    points = np.ascontiguousarray(p[:, used])
    cells = np.ascontiguousarray(renumber[np.concatenate(triangles)].T)
    mesh = skfem.MeshTri(points, cells)
    return mesh, np.concatenate(inas)


def solve(level: int) -> float:
    """Lowest eigenvalue (eV) on a mesh with fine size 0.5 nm / 2**level."""
    mesh, inas = build_mesh(0.5 / 2**level)
    mesh = mesh.with_boundaries(
        {
            "zero": lambda x: np.isclose(x[1], Z_MIN) | (np.isclose(x[0], WIDTH) & (x[1] < -LAYER + 1e-9)),
        }
    )
    basis = skfem.Basis(mesh, skfem.ElementTriP2())
    c = basis.zero_w() + np.where(inas, C_INAS, C_GAAS)[:, None]
    v = basis.zero_w() + np.where(inas, V_INAS, V_GAAS)[:, None]

    @skfem.BilinearForm
    def hamiltonian(u, w_, w):
        return (w.c * dot(grad(u), grad(w_)) + w.v * u * w_) * w.x[0]

    @skfem.BilinearForm
    def mass(u, w_, w):
        return u * w_ * w.x[0]

    free = basis.complement_dofs(basis.get_dofs("zero"))
    a = hamiltonian.assemble(basis, c=c, v=v)[free][:, free]
    m = mass.assemble(basis)[free][:, free]
    energies = scipy.sparse.linalg.eigsh(a, k=1, M=m, sigma=0.0, which="LM")[0]
    return float(energies.min())


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "eV"}, f)
    print(value)


if __name__ == "__main__":
    main()
