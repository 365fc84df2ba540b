"""Reference for comsol_10275: thermoviscous sound in a 1 mm air slit, |u| at the slit centre.

Narrow-gap (low reduced frequency) thermoviscous model, time factor exp(+i omega t). Across the gap
(walls at z = +-H/2: no slip, isothermal) the velocity and temperature follow the shape functions
    P'' + k^2 P = k^2,  P'(0) = 0,  P(H/2) = 0,   k = k_v (viscous) or k_th (thermal),
with k_v^2 = -i omega rho0 / mu and k_th^2 = -i omega rho0 Cp / kappa; u(x, z) = -(dp/dx) P_v(z) / (i omega rho0).
Along the slit the pressure obeys p'' + Gamma^2 p = 0 with
    Gamma^2 = (omega/c)^2 (gamma - (gamma - 1) <P_th>) / <P_v>,  p(0) = 1 Pa,  p(L) = 0,
where <.> is the mean over the gap. All three 1-D problems are solved with complex quadratic Lagrange
elements (scikit-fem assembles the real matrices); |u(L/2, 0)| is written to result.json in m/s.
Usage: python reference.py [--level N]  (level 1 is the default; each level halves the element sizes).
"""

import argparse
import json

import numpy as np
import scipy.sparse.linalg
import skfem

FREQUENCY, T0, P0 = 500.0, 293.0, 101325.0
GAP, LENGTH, P_IN = 1e-3, 5e-3, 1.0
GAS_CONSTANT, MOLAR_MASS, GAMMA = 8.314462618, 0.02897, 1.4
VISCOSITY = 1.8132e-5  # Pa s
HEAT_CAPACITY = 1005.42  # J/(kg K)
CONDUCTIVITY = 0.025756  # W/(m K)
DENSITY = P0 * MOLAR_MASS / (GAS_CONSTANT * T0)
SOUND_SPEED = np.sqrt(GAMMA * GAS_CONSTANT / MOLAR_MASS * T0)
OMEGA = 2 * np.pi * FREQUENCY


@skfem.BilinearForm
def stiffness(u, v, _):
    return u.grad[0] * v.grad[0]


@skfem.BilinearForm
def mass(u, v, _):
    return u * v


@skfem.LinearForm
def load(v, _):
    return v


def line_basis(length: float, n_elements: int) -> skfem.Basis:
    """P2 basis on [0, length] with boundaries 'start' and 'end'."""
    mesh = skfem.MeshLine(np.linspace(0.0, length, n_elements + 1)).with_boundaries(
        {"start": lambda x: np.isclose(x[0], 0.0), "end": lambda x: np.isclose(x[0], length)}
    )
    return skfem.Basis(mesh, skfem.ElementLineP2())


def shape_function(wavenumber_sq: complex, n_elements: int) -> tuple[complex, complex]:
    """Solve P'' + k^2 P = k^2 on [0, H/2] (P'(0) = 0, P(H/2) = 0); return P(0) and the gap mean of P."""
    basis = line_basis(GAP / 2, n_elements)
    a = (stiffness.assemble(basis) - wavenumber_sq * mass.assemble(basis)).tocsr()
    b = -wavenumber_sq * load.assemble(basis)
    wall = basis.get_dofs("end").all()
    free = basis.complement_dofs(wall)
    shape = np.zeros(basis.N, dtype=complex)
    shape[free] = scipy.sparse.linalg.spsolve(a[free][:, free].tocsc(), b[free])
    centre = complex((basis.probes(np.array([[0.0]])) @ shape)[0])
    mean = complex(load.assemble(basis) @ shape) / (GAP / 2)
    return centre, mean


def pressure_gradient(gamma_sq: complex, n_elements: int) -> complex:
    """Solve p'' + Gamma^2 p = 0 on [0, L] with p(0) = P_IN, p(L) = 0; return dp/dx at L/2."""
    basis = line_basis(LENGTH, n_elements)
    a = (stiffness.assemble(basis) - gamma_sq * mass.assemble(basis)).tocsr()
    inlet, outlet = basis.get_dofs("start").all(), basis.get_dofs("end").all()
    p = np.zeros(basis.N, dtype=complex)
    p[inlet] = P_IN
    free = basis.complement_dofs(np.concatenate([inlet, outlet]))
    p[free] = scipy.sparse.linalg.spsolve(a[free][:, free].tocsc(), -(a[free][:, inlet] @ p[inlet]))
    mid = np.array([[LENGTH / 2 - 1e-12 * LENGTH, LENGTH / 2 + 1e-12 * LENGTH]])
    slopes = []
    for side in range(2):
        cell = basis.mesh.element_finder()(mid[:, side])
        local = skfem.Basis(
            basis.mesh,
            basis.elem,
            elements=cell,
            quadrature=(basis.mesh.mapping().invF(mid[:, [side]][:, :, None], tind=cell)[:, 0], np.ones(1)),
        )
        slopes.append(local.interpolate(p.real).grad[0][0, 0] + 1j * local.interpolate(p.imag).grad[0][0, 0])
    return complex(np.mean(slopes))


def solve(level: int) -> float:
    """|u| (m/s) at the centre of the slit with 8 * 2**level gap elements and 4 * 2**level slit elements."""
    kv_sq = -1j * OMEGA * DENSITY / VISCOSITY
    kth_sq = -1j * OMEGA * DENSITY * HEAT_CAPACITY / CONDUCTIVITY
    viscous_centre, viscous_mean = shape_function(kv_sq, 8 * 2**level)
    _, thermal_mean = shape_function(kth_sq, 8 * 2**level)
    gamma_sq = (OMEGA / SOUND_SPEED) ** 2 * (GAMMA - (GAMMA - 1) * thermal_mean) / viscous_mean
    dpdx = pressure_gradient(gamma_sq, 4 * 2**level)
    return float(abs(-dpdx * viscous_centre / (1j * OMEGA * DENSITY)))


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "m/s"}, f)
    print(value)


if __name__ == "__main__":
    main()
