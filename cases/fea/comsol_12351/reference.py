"""Reference for comsol_12351: characteristic impedance of the TEM mode of a dielectric-filled coaxial line.

The TEM mode's transverse fields are those of the 2-D electrostatic problem between the conductors, so
Z0 = sqrt(mu0 eps) / C', with C' the capacitance per unit length. C' comes from the field energy of the
potential (1 V on the inner conductor, 0 on the outer) computed with scikit-fem: isoparametric P2 triangles on
a mesh of the annular cross-section whose boundary nodes lie on the exact circles; the level refines the mesh.
The closed form Z0 = eta0 ln(r_o / r_i) / (2 pi sqrt(eps_r)) is printed as a cross-check.
"""

import argparse
import json
from dataclasses import replace

import numpy as np
import skfem
from skfem.helpers import dot, grad

R_INNER, R_OUTER = 0.5e-3, 3.43e-3  # m
EPS_R = 2.4
MU0 = 1.25663706212e-6  # H/m (CODATA 2018)
C0 = 299792458.0  # m/s
EPS0 = 1.0 / (MU0 * C0**2)
# level: (rings of cells across the gap, cells around the circumference)
LEVELS = {0: (2, 6), 1: (8, 32), 2: (16, 64), 3: (32, 128)}


def closed_form() -> float:
    """Z0 of a coaxial line with a homogeneous dielectric."""
    return float(MU0 * C0 * np.log(R_OUTER / R_INNER) / (2.0 * np.pi * np.sqrt(EPS_R)))


def annulus_mesh(rings: int, sectors: int) -> skfem.MeshTri2:
    """Quadratic triangle mesh of the annulus; radii graded geometrically, curved edges on the circles."""
    radii = np.geomspace(R_INNER, R_OUTER, rings + 1)
    angles = np.linspace(0.0, 2.0 * np.pi, sectors, endpoint=False)
    rr, aa = np.meshgrid(radii, angles, indexing="ij")
    points = np.vstack([(rr * np.cos(aa)).ravel(), (rr * np.sin(aa)).ravel()])
    # Two triangles per (ring, sector) cell; the sector index wraps around the circle.
    node = np.arange(points.shape[1]).reshape(rings + 1, sectors)
    i, j = np.meshgrid(np.arange(rings), np.arange(sectors), indexing="ij")
    a, b = node[i, j], node[i, (j + 1) % sectors]
    c, d = node[i + 1, j], node[i + 1, (j + 1) % sectors]
    lower = np.vstack([a.ravel(), b.ravel(), d.ravel()])
    upper = np.vstack([a.ravel(), d.ravel(), c.ravel()])
    triangles = np.hstack([lower, upper])
    linear = skfem.MeshTri1(points, triangles)
    quadratic = skfem.MeshTri2.from_mesh(linear)
    boundary_dofs = quadratic.dofs.get_facet_dofs(quadratic.boundary_facets()).flatten()
    doflocs = quadratic.doflocs.copy()
    radius = np.linalg.norm(doflocs[:, boundary_dofs], axis=0)
    target = np.where(radius < 0.5 * (R_INNER + R_OUTER), R_INNER, R_OUTER)
    doflocs[:, boundary_dofs] *= target / radius
    return replace(quadratic, doflocs=doflocs)


def solve(level: int) -> float:
    """Z0 from the capacitance per unit length of the discrete electrostatic field."""
    mesh = annulus_mesh(*LEVELS[level])
    basis = skfem.Basis(mesh, skfem.ElementTriP2())

    @skfem.BilinearForm
    def laplace(u, v, _):
        return EPS0 * EPS_R * dot(grad(u), grad(v))

    matrix = laplace.assemble(basis)
    inner = basis.get_dofs(lambda x: np.hypot(x[0], x[1]) < 0.5 * (R_INNER + R_OUTER))
    boundary = basis.get_dofs()
    potential = np.zeros(basis.N)
    potential[inner.all()] = 1.0
    potential = skfem.solve(*skfem.condense(matrix, np.zeros(basis.N), x=potential, D=boundary))
    capacitance = potential @ matrix @ potential  # C' = 2 W / V^2 with V = 1 V
    return float(np.sqrt(MU0 * EPS0 * EPS_R) / capacitance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(LEVELS))
    args = parser.parse_args()
    value = solve(args.level)
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "ohm"}, fh)
    print(f"level {args.level}: Z0 = {value:.6f} ohm (closed form {closed_form():.6f} ohm)")


if __name__ == "__main__":
    main()
