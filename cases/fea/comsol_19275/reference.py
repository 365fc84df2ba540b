"""Reference for comsol_19275: normal-incidence reflectance of a quarter-wave Bragg mirror on glass.

The stack air | H (L H)^5 | substrate is solved as a 1-D time-harmonic wave problem,
u'' + (k0 n(z))^2 u = 0, with scikit-fem (P2 elements) and exact one-way (radiation) conditions at both
faces: an incident wave of unit amplitude from the air side and an outgoing wave into the semi-infinite
substrate. R = |u(0) - 1|^2. The level sets the elements per layer. The closed form of a quarter-wave stack,
R = ((1 - Y) / (1 + Y))^2 with Y = nH^12 / (nL^10 nS), is printed as a cross-check, with R + T = 1.
"""

import argparse
import json

import numpy as np
import skfem
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import spsolve
from skfem.helpers import dot, grad

N_AIR, N_SUB, N_HIGH, N_LOW = 1.0, 1.5, 2.32, 1.38
WAVELENGTH = 550e-9  # m, vacuum
CELLS = 5
LAYERS = [N_HIGH] + [N_LOW, N_HIGH] * CELLS  # from the air side to the substrate
ELEMENTS_PER_LAYER = {0: 1, 1: 2, 2: 4, 3: 8}


def closed_form() -> float:
    """Reflectance in percent of air | H (L H)^N | substrate at the design wavelength."""
    admittance = N_HIGH ** (2 * CELLS + 2) / (N_LOW ** (2 * CELLS) * N_SUB)
    return float(100.0 * ((N_AIR - admittance) / (N_AIR + admittance)) ** 2)


def solve(level: int) -> tuple[float, float]:
    """Reflectance and transmittance in percent from the finite-element field."""
    per_layer = ELEMENTS_PER_LAYER[level]
    thickness = [WAVELENGTH / (4.0 * n) for n in LAYERS]
    interfaces = np.concatenate([[0.0], np.cumsum(thickness)])
    nodes = np.unique(
        np.concatenate([np.linspace(a, b, per_layer + 1) for a, b in zip(interfaces[:-1], interfaces[1:], strict=True)])
    )
    mesh = skfem.MeshLine(nodes)
    basis = skfem.Basis(mesh, skfem.ElementLineP2())
    k0 = 2.0 * np.pi / WAVELENGTH

    @skfem.BilinearForm
    def stiffness(u, v, _):
        return dot(grad(u), grad(v))

    @skfem.BilinearForm
    def mass(u, v, w):
        # quadrature points lie inside cells, and every cell inside one layer
        index = np.asarray(LAYERS)[np.searchsorted(interfaces, w.x[0]) - 1]
        return index**2 * u * v

    system = csr_matrix(stiffness.assemble(basis) - k0**2 * mass.assemble(basis), dtype=complex)
    front, back = np.argmin(basis.doflocs[0]), np.argmax(basis.doflocs[0])  # the air and substrate faces
    system = system.tolil()
    system[front, front] -= 1j * k0 * N_AIR  # incident + reflected wave in air
    system[back, back] -= 1j * k0 * N_SUB  # outgoing wave in the substrate
    rhs = np.zeros(basis.N, dtype=complex)
    rhs[front] = -2j * k0 * N_AIR
    field = spsolve(system.tocsr(), rhs)
    reflectance = abs(field[front] - 1.0) ** 2
    transmittance = N_SUB / N_AIR * abs(field[back]) ** 2
    return float(100.0 * reflectance), float(100.0 * transmittance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(ELEMENTS_PER_LAYER))
    args = parser.parse_args()
    reflectance, transmittance = solve(args.level)
    with open("result.json", "w") as fh:
        json.dump({"value": reflectance, "units": "percent"}, fh)
    print(
        f"level {args.level}: R = {reflectance:.6f} % (R + T = {reflectance + transmittance:.6f} %;"
        f" closed form R = {closed_form():.6f} %)"
    )


if __name__ == "__main__":
    main()
