"""Reference for comsol_266: steady 1-D conduction in a bar with surface-to-ambient radiation at one end.

Finite elements (scikit-fem, P1 on a uniform line mesh) with Newton iterations on the radiative boundary
term; the level sets the number of elements. The closed form (a quartic in the end temperature) is printed
beside the discrete value as a cross-check.
"""

import argparse
import json

import numpy as np
import skfem
from scipy.optimize import brentq
from skfem.helpers import dot, grad

LENGTH = 0.1  # m
T_LEFT = 1000.0  # K
T_AMB = 300.0  # K
EMISSIVITY = 0.98
CONDUCTIVITY = 55.563  # W/(m K)
SIGMA = 5.670374419e-8  # Stefan-Boltzmann constant, W/(m^2 K^4)
ELEMENTS = {0: 4, 1: 16, 2: 64, 3: 256}


def closed_form() -> float:
    """End temperature from the flux balance k (T_left - T) / L = eps sigma (T^4 - T_amb^4)."""

    def balance(t: float) -> float:
        return CONDUCTIVITY * (T_LEFT - t) / LENGTH - EMISSIVITY * SIGMA * (t**4 - T_AMB**4)

    return brentq(balance, T_AMB, T_LEFT, xtol=1e-12)


def solve(level: int) -> float:
    """Newton solve of the weak form; returns the temperature at x = L."""
    mesh = skfem.MeshLine(np.linspace(0.0, LENGTH, ELEMENTS[level] + 1))
    basis = skfem.Basis(mesh, skfem.ElementLineP1())
    right = mesh.facets_satisfying(lambda x: np.isclose(x[0], LENGTH))
    fbasis = skfem.FacetBasis(mesh, basis.elem, facets=right)
    left = basis.get_dofs(lambda x: np.isclose(x[0], 0.0))

    @skfem.BilinearForm
    def conduction(u, v, _):
        return CONDUCTIVITY * dot(grad(u), grad(v))

    @skfem.BilinearForm
    def radiation_jacobian(u, v, w):
        return 4.0 * EMISSIVITY * SIGMA * w["t"] ** 3 * u * v

    @skfem.LinearForm
    def radiation_residual(v, w):
        return EMISSIVITY * SIGMA * (w["t"] ** 4 - T_AMB**4) * v

    stiffness = conduction.assemble(basis)
    temperature = np.full(basis.N, T_LEFT)
    for _ in range(50):
        t_face = fbasis.interpolate(temperature)
        residual = stiffness @ temperature + radiation_residual.assemble(fbasis, t=t_face)
        jacobian = stiffness + radiation_jacobian.assemble(fbasis, t=t_face)
        step = skfem.solve(*skfem.condense(jacobian, -residual, D=left, x=np.zeros(basis.N)))
        temperature += step
        if np.max(np.abs(step)) < 1e-10 * T_LEFT:
            break
    return float(temperature[basis.get_dofs(lambda x: np.isclose(x[0], LENGTH)).all()[0]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(ELEMENTS))
    args = parser.parse_args()
    value = solve(args.level)
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "K"}, fh)
    print(f"level {args.level}: T(x=L) = {value:.6f} K (closed form {closed_form():.6f} K)")


if __name__ == "__main__":
    main()
