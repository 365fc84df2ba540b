"""Reference for comsol_265: 2-D steady heat conduction in a 0.6 m x 1.0 m plate (NAFEMS T4 type).

Bottom edge held at 100 degC, top and right edges cool by convection (h = 750 W/(m^2 K)) to 0 degC,
left edge insulated, k = 52 W/(m K). Quadratic Lagrange triangles (scikit-fem) on a uniform grid that has
a node at P = (0.6, 0.2); the temperature at P is written to result.json in degC.
Usage: python reference.py [--level N]  (level 1 is the default; each level halves the element size).
"""

import argparse
import json

import numpy as np
import skfem
from skfem.helpers import dot, grad

WIDTH, HEIGHT = 0.6, 1.0
K_COND, H_CONV = 52.0, 750.0
T_BOTTOM, T_AMBIENT = 100.0, 0.0
POINT_P = (0.6, 0.2)


def solve(level: int) -> float:
    """Temperature (degC) at P on a mesh with element size 0.1 / 2**level."""
    n = 2**level
    mesh = skfem.MeshTri.init_tensor(
        np.linspace(0.0, WIDTH, 6 * n + 1), np.linspace(0.0, HEIGHT, 10 * n + 1)
    ).with_boundaries(
        {
            "bottom": lambda x: np.isclose(x[1], 0.0),
            "convective": lambda x: np.isclose(x[0], WIDTH) | np.isclose(x[1], HEIGHT),
        }
    )
    basis = skfem.Basis(mesh, skfem.ElementTriP2())
    fbasis = skfem.FacetBasis(mesh, skfem.ElementTriP2(), facets=mesh.boundaries["convective"])

    @skfem.BilinearForm
    def conduction(u, v, _):
        return K_COND * dot(grad(u), grad(v))

    @skfem.BilinearForm
    def robin(u, v, _):
        return H_CONV * u * v

    @skfem.LinearForm
    def robin_rhs(v, _):
        return H_CONV * T_AMBIENT * v

    a = conduction.assemble(basis) + robin.assemble(fbasis)
    b = robin_rhs.assemble(fbasis)
    dirichlet = basis.get_dofs("bottom")
    t = basis.zeros()
    t[dirichlet] = T_BOTTOM
    t = skfem.solve(*skfem.condense(a, b, x=t, D=dirichlet))
    probe = basis.probes(np.array([[POINT_P[0]], [POINT_P[1]]]))
    return float((probe @ t)[0])


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "degC"}, f)
    print(value)


if __name__ == "__main__":
    main()
