"""Reference for comsol_267: transient axisymmetric conduction in a cylinder heated by a step on its surface.

Finite elements (scikit-fem, P2 triangles on the (r, z) half-section, weight r) with BDF2 time stepping
(one backward-Euler start step); the level refines the mesh and the time step together. The exact
solution (product of the infinite-cylinder and slab series) is printed beside the discrete value.
"""

import argparse
import json

import numpy as np
import skfem
from scipy.sparse.linalg import splu
from scipy.special import j0, j1, jn_zeros
from skfem.helpers import dot, grad

RADIUS, HEIGHT = 0.3, 0.4  # m
K, RHO, CP = 52.0, 7850.0, 460.0  # W/(m K), kg/m^3, J/(kg K)
T_INIT, T_WALL = 0.0, 1000.0  # degC
T_END = 190.0  # s
PROBE = (0.1, 0.3)  # (r, z) in m
# level: (cells along r, cells along z, time step in s)
LEVELS = {0: (3, 4, 5.0), 1: (12, 16, 1.0), 2: (24, 32, 0.5), 3: (48, 64, 0.25)}


def closed_form(r: float, z: float, t: float, terms: int = 200) -> float:
    """Exact temperature: the dimensionless excess is the product of the cylinder and slab solutions."""
    alpha = K / (RHO * CP)
    lam = jn_zeros(0, terms)
    cyl = np.sum(2.0 / (lam * j1(lam)) * j0(lam * r / RADIUS) * np.exp(-(lam**2) * alpha * t / RADIUS**2))
    odd = 2 * np.arange(terms) + 1
    wave = odd * np.pi / HEIGHT
    slab = np.sum(4.0 / (odd * np.pi) * np.sin(wave * z) * np.exp(-(wave**2) * alpha * t))
    return float(T_WALL + (T_INIT - T_WALL) * cyl * slab)


def solve(level: int) -> float:
    """Time-march the axisymmetric heat equation; returns T(PROBE, T_END) in degC."""
    nr, nz, dt = LEVELS[level]
    mesh = skfem.MeshTri.init_tensor(np.linspace(0.0, RADIUS, nr + 1), np.linspace(0.0, HEIGHT, nz + 1))
    basis = skfem.Basis(mesh, skfem.ElementTriP2())

    @skfem.BilinearForm
    def stiffness_form(u, v, w):
        return K * dot(grad(u), grad(v)) * w.x[0]

    @skfem.BilinearForm
    def mass_form(u, v, w):
        return RHO * CP * u * v * w.x[0]

    stiffness, mass = stiffness_form.assemble(basis), mass_form.assemble(basis)
    # Heated faces: r = R, z = 0, z = H. The axis r = 0 is a symmetry line (natural condition).
    wall = basis.get_dofs(lambda x: np.isclose(x[0], RADIUS) | np.isclose(x[1], 0.0) | np.isclose(x[1], HEIGHT)).all()
    interior = basis.complement_dofs(wall)

    def stepper(lhs):
        lu = splu(lhs[interior][:, interior].tocsc())

        def step(rhs):
            t_new = np.full(basis.N, T_WALL)
            t_new[interior] = lu.solve(rhs[interior] - (lhs[interior][:, wall] @ t_new[wall]))
            return t_new

        return step

    t_old = np.full(basis.N, T_INIT)
    euler = stepper(mass + dt * stiffness)
    t_now = euler(mass @ t_old)
    bdf2 = stepper(1.5 * mass + dt * stiffness)
    for _ in range(int(round(T_END / dt)) - 1):
        t_old, t_now = t_now, bdf2(mass @ (2.0 * t_now - 0.5 * t_old))
    probe = basis.probes(np.array([[PROBE[0]], [PROBE[1]]]))
    return float((probe @ t_now)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(LEVELS))
    args = parser.parse_args()
    value = solve(args.level)
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "degC"}, fh)
    exact = closed_form(*PROBE, T_END)
    print(f"level {args.level}: T(r=0.1, z=0.3, t=190 s) = {value:.4f} degC (series {exact:.4f} degC)")


if __name__ == "__main__":
    main()
