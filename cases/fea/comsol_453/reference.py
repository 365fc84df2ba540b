"""Reference for comsol_453: axisymmetric steady heat conduction in a thick hollow cylinder (NAFEMS type).

Cross-section 0.02 <= r <= 0.1 m, 0 <= z <= 0.14 m, k = 52 W/(m K). A heat flux of 5e5 W/m^2 enters through
the inner surface r = 0.02 m for 0.04 <= z <= 0.1 m; the rest of the inner surface is insulated; the outer
surface, the top and the bottom are held at 273.15 K. The weak form carries the axisymmetric weight r.
Quadratic Lagrange triangles (scikit-fem) on a uniform grid with nodes at z = 0.04, 0.1 and at the probe
point (r, z) = (0.04, 0.04) m; the temperature there is written to result.json in K.
Usage: python reference.py [--level N]  (level 1 is the default; each level halves the element size).
"""

import argparse
import json

import numpy as np
import skfem
from skfem.helpers import dot, grad

R_IN, R_OUT, HEIGHT = 0.02, 0.1, 0.14
Z_FLUX = (0.04, 0.1)
K_COND, Q_IN, T_FIXED = 52.0, 5e5, 273.15
PROBE = (0.04, 0.04)


def solve(level: int) -> float:
    """Temperature (K) at the probe point on a mesh with element size 0.01 m / 2**level."""
    n = 2**level
    mesh = skfem.MeshTri.init_tensor(
        np.linspace(R_IN, R_OUT, 8 * n + 1), np.linspace(0.0, HEIGHT, 14 * n + 1)
    ).with_boundaries(
        {
            "fixed": lambda x: np.isclose(x[0], R_OUT) | np.isclose(x[1], 0.0) | np.isclose(x[1], HEIGHT),
            "heated": lambda x: np.isclose(x[0], R_IN) & (x[1] > Z_FLUX[0] - 1e-12) & (x[1] < Z_FLUX[1] + 1e-12),
        }
    )
    element = skfem.ElementTriP2()
    basis = skfem.Basis(mesh, element)
    fbasis = skfem.FacetBasis(mesh, element, facets=mesh.boundaries["heated"])

    @skfem.BilinearForm
    def conduction(u, v, w):
        return K_COND * dot(grad(u), grad(v)) * w.x[0]

    @skfem.LinearForm
    def inflow(v, w):
        return Q_IN * v * w.x[0]

    a = conduction.assemble(basis)
    b = inflow.assemble(fbasis)
    fixed = basis.get_dofs("fixed")
    t = basis.zeros()
    t[fixed] = T_FIXED
    t = skfem.solve(*skfem.condense(a, b, x=t, D=fixed))
    probe = basis.probes(np.array([[PROBE[0]], [PROBE[1]]]))
    return float((probe @ t)[0])


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "K"}, f)
    print(value)


if __name__ == "__main__":
    main()
