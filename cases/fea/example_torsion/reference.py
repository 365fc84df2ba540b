"""Saint-Venant torsion of a solid circular shaft with scikit-fem: the torque at a given rate of twist.

Prandtl's stress function phi solves -Laplace(phi) = 2 G theta on the cross-section with phi = 0 on its
boundary, and the torque is T = 2 * integral of phi over the section. We solve on the unit disk with P1
elements (phi = G theta R^2 psi, psi the unit-disk solution, so T = 2 G theta R^4 * integral of psi) and
refine the mesh with the level. Usage: python reference.py [--level N] writes result.json.
"""

import argparse
import json

from skfem import Basis, BilinearForm, ElementTriP1, Functional, LinearForm, MeshTri, condense, solve
from skfem.helpers import dot, grad

SHEAR_MODULUS = 80e9  # Pa
RADIUS = 0.02  # m
TWIST_RATE = 0.01  # rad/m


@BilinearForm
def stiffness(u, v, _):
    return dot(grad(u), grad(v))


@LinearForm
def load(v, _):
    return 2.0 * v


@Functional
def integral(w):
    return w["psi"]


def torque(level: int) -> float:
    """The torque in N*m on a disk mesh refined level + 2 times."""
    mesh = MeshTri.init_circle(level + 2)
    basis = Basis(mesh, ElementTriP1())
    psi = solve(*condense(stiffness.assemble(basis), load.assemble(basis), D=basis.get_dofs()))
    return 2.0 * SHEAR_MODULUS * TWIST_RATE * RADIUS**4 * integral.assemble(basis, psi=basis.interpolate(psi))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", type=int, default=1)
    value = torque(parser.parse_args().level)
    with open("result.json", "w") as handle:
        json.dump({"value": value, "units": "N*m"}, handle)
    print(value)


if __name__ == "__main__":
    main()
