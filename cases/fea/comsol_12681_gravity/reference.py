"""Reference for comsol_12681_gravity: tapered cantilever plate under its own weight, shear stress at D.

Plane strain, linear elasticity (E = 210 GPa, nu = 0.3, rho = 7000 kg/m^3, g = 9.80665 m/s^2) on the
trapezoid (0, 0), (4, 1), (4, 3), (0, 4) m; the edge x = 0 is clamped, gravity acts in -y. The thickness
(0.1 m) does not change the stresses. Cubic Lagrange triangles (scikit-fem) on a mapped grid of n x n cells
(n = 8 * 2**level) with a node at D = (0, 2); sigma_xy at D is the mean over the elements meeting at D of
the element stress evaluated at D. The value is written to result.json in MPa.
Usage: python reference.py [--level N]  (level 1 is the default; each level halves the element size).
"""

import argparse
import json

import numpy as np
import skfem
from skfem.helpers import ddot, eye, sym_grad, trace

YOUNG, POISSON, DENSITY, GRAVITY = 210e9, 0.3, 7000.0, 9.80665
LENGTH, ROOT_HEIGHT, TIP_HEIGHT = 4.0, 4.0, 2.0
POINT_D = (0.0, 2.0)
MU = YOUNG / (2 * (1 + POISSON))
LAMBDA = YOUNG * POISSON / ((1 + POISSON) * (1 - 2 * POISSON))  # plane strain


def stress(eps):
    """Plane-strain in-plane stress tensor of a strain tensor."""
    return 2 * MU * eps + LAMBDA * eye(trace(eps), 2)


def trapezoid_mesh(n: int) -> skfem.MeshTri:
    """Mapped n x n triangle mesh of the trapezoid; grid line n/2 passes through D."""
    square = skfem.MeshTri.init_tensor(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1))
    x = LENGTH * square.p[0]
    taper = (ROOT_HEIGHT - TIP_HEIGHT) / 2 * x / LENGTH
    y = taper + square.p[1] * (ROOT_HEIGHT - 2 * taper)
    return skfem.MeshTri(np.vstack([x, y]), square.t)


def stress_at_node(mesh, element, u, node):
    """Element stresses at a mesh vertex, one per element that has the vertex."""
    reference_vertices = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    values = []
    for local in range(3):
        elements = np.nonzero(mesh.t[local] == node)[0]
        if elements.size:
            quadrature = (reference_vertices[:, [local]], np.array([1.0]))
            basis = skfem.Basis(mesh, element, elements=elements, quadrature=quadrature)
            values.append(stress(sym_grad(basis.interpolate(u))))
    return values


def solve(level: int) -> float:
    """sigma_xy (MPa) at D on the mapped mesh with n = 8 * 2**level cells per side."""
    mesh = trapezoid_mesh(8 * 2**level).with_boundaries({"root": lambda x: np.isclose(x[0], 0.0)})
    element = skfem.ElementVector(skfem.ElementTriP3())
    basis = skfem.Basis(mesh, element)

    @skfem.BilinearForm
    def elasticity(u, v, _):
        return ddot(stress(sym_grad(u)), sym_grad(v))

    @skfem.LinearForm
    def weight(v, _):
        return -DENSITY * GRAVITY * v[1]

    clamped = basis.get_dofs("root").all()
    u = skfem.solve(*skfem.condense(elasticity.assemble(basis), weight.assemble(basis), D=clamped))
    node = int(np.argmin((mesh.p[0] - POINT_D[0]) ** 2 + (mesh.p[1] - POINT_D[1]) ** 2))
    values = np.concatenate([s[0, 1].ravel() for s in stress_at_node(mesh, element, u, node)])
    return float(values.mean() / 1e6)


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "MPa"}, f)
    print(value)


if __name__ == "__main__":
    main()
