"""Reference for comsol_82: European put option, Black-Scholes equation on a truncated price interval.

In time to maturity tau = 12 - t the option value u(x, tau) obeys
    u_tau = 1/2 sigma^2 x^2 u_xx + r x u_x - r u,   0 < x < 80,
with u(x, 0) = max(40 - x, 0), u(80, tau) = 0 and no condition at x = 0 (the diffusion vanishes there; the
natural condition of the weak form is used). Space: quadratic Lagrange elements (scikit-fem) in the
divergence form (c u_x)_x with c = sigma^2 x^2 / 2 plus the convection (sigma^2 - r) x u_x that it implies.
Time: the semi-discrete system M u' = -A u is integrated exactly with a matrix exponential, so the only
discretisation error is the mesh. The value u(40, tau = 12) (today's price) is written to result.json.
Usage: python reference.py [--level N]  (level 1 is the default: element size 2; each level halves it).
"""

import argparse
import json

import numpy as np
import scipy.linalg
import skfem

RATE, SIGMA = 0.12, 0.3
STRIKE, MATURITY, X_MAX = 40.0, 12.0, 80.0


def solve(level: int, x_max: float = X_MAX) -> float:
    """Option value at x = STRIKE, tau = MATURITY with element size 4 / 2**level on [0, x_max]."""
    n_elements = int(round(x_max / 4.0)) * 2**level
    mesh = skfem.MeshLine(np.linspace(0.0, x_max, n_elements + 1)).with_boundaries(
        {"far": lambda x: np.isclose(x[0], x_max)}
    )
    basis = skfem.Basis(mesh, skfem.ElementLineP2())

    @skfem.BilinearForm
    def operator(u, v, w):
        x = w.x[0]
        return 0.5 * SIGMA**2 * x**2 * u.grad[0] * v.grad[0] + (SIGMA**2 - RATE) * x * u.grad[0] * v + RATE * u * v

    @skfem.BilinearForm
    def mass(u, v, _):
        return u * v

    free = basis.complement_dofs(basis.get_dofs("far"))
    a = operator.assemble(basis)[free][:, free].toarray()
    m = mass.assemble(basis)[free][:, free].toarray()
    payoff = np.maximum(STRIKE - basis.doflocs[0], 0.0)
    u = basis.zeros()
    u[free] = scipy.linalg.expm(-MATURITY * np.linalg.solve(m, a)) @ payoff[free]
    return float((basis.probes(np.array([[STRIKE]])) @ u)[0])


def main() -> None:
    """Parse --level, solve, write result.json and print the value."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1)
    value = solve(parser.parse_args().level)
    with open("result.json", "w") as f:
        json.dump({"value": value, "units": "dimensionless"}, f)
    print(value)


if __name__ == "__main__":
    main()
