"""Reference for comsol_75611: first natural frequency of a deep, simply supported Timoshenko beam.

The lowest mode is flexural (a double eigenvalue: the section is square, bending in y and z decouples); the
axial (fixed-free, 125 Hz) and torsional (fixed-free, about 71 Hz) modes lie higher. The reference solves the
planar Timoshenko bending eigenproblem with scikit-fem (quadratic elements for deflection and rotation), the
level refining the mesh. The exact simply-supported Timoshenko frequency (the lower root of the two-spectrum
frequency equation for one half-wave) is printed as a cross-check.
"""

import argparse
import json

import numpy as np
import skfem
from scipy.linalg import eigh

LENGTH, SIDE = 10.0, 2.0  # m
E, NU, RHO = 2.0e11, 0.3, 8000.0  # Pa, -, kg/m^3
G = E / (2.0 * (1.0 + NU))
AREA, INERTIA = SIDE**2, SIDE**4 / 12.0
KAPPA = 10.0 * (1.0 + NU) / (12.0 + 11.0 * NU)  # shear correction factor of a rectangle (Cowper)
ELEMENTS = {0: 2, 1: 8, 2: 16, 3: 32}


def closed_form() -> float:
    """Lowest frequency of a simply supported Timoshenko beam (first half-wave), in Hz."""
    k = np.pi / LENGTH
    quartic = RHO**2 * INERTIA / (KAPPA * G)
    middle = -(RHO * AREA + RHO * INERTIA * k**2 * (1.0 + E / (KAPPA * G)))
    constant = E * INERTIA * k**4
    omega2 = np.min(np.roots([quartic, middle, constant]).real)
    return float(np.sqrt(omega2) / (2.0 * np.pi))


def solve(level: int) -> float:
    """Lowest bending frequency of the discrete Timoshenko beam, in Hz."""
    mesh = skfem.MeshLine(np.linspace(0.0, LENGTH, ELEMENTS[level] + 1))
    element = skfem.ElementComposite(skfem.ElementLineP2(), skfem.ElementLineP2())
    basis = skfem.Basis(mesh, element, intorder=6)

    @skfem.BilinearForm
    def stiffness(w, theta, dw, dtheta, _):
        bending = E * INERTIA * theta.grad[0] * dtheta.grad[0]
        shear = KAPPA * G * AREA * (w.grad[0] - theta) * (dw.grad[0] - dtheta)
        return bending + shear

    @skfem.BilinearForm
    def mass(w, theta, dw, dtheta, _):
        return RHO * AREA * w * dw + RHO * INERTIA * theta * dtheta

    stiff, massm = stiffness.assemble(basis), mass.assemble(basis)
    supports = basis.get_dofs(lambda x: np.isclose(x[0], 0.0) | np.isclose(x[0], LENGTH))
    deflection_dofs = supports.nodal["u^1"]
    free = np.setdiff1d(np.arange(basis.N), deflection_dofs)
    eigenvalues = eigh(stiff[free][:, free].toarray(), massm[free][:, free].toarray(), eigvals_only=True)
    return float(np.sqrt(eigenvalues[0]) / (2.0 * np.pi))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(ELEMENTS))
    args = parser.parse_args()
    value = solve(args.level)
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "Hz"}, fh)
    print(f"level {args.level}: f1 = {value:.6f} Hz (closed form {closed_form():.6f} Hz)")


if __name__ == "__main__":
    main()
