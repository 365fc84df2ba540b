"""Why upstream's oracle has e_base 3.5e-4 on PDEAgent-Bench's ``wave_periodic_trig`` and ours 3.2e-6 (issue 28).

The record: ``u_tt - c^2 lap u = f`` on the unit square, ``u = sin(2 pi x) sin(pi y) cos(t)``, c = 1, dt 0.005
to t = 0.2, P2 on 88^2 cells. Its exact solution is one Laplacian eigenmode (eigenvalue ``lam = 5 pi^2``)
times ``cos(t)``, so any Galerkin space that holds the mode well (P2 on 88^2: a relative error near 1e-6)
reduces the discrete problem to the scalar ODE ``u'' + lam u = (lam - 1) cos(t)``, ``u(0) = 1``, ``u'(0) = 0``,
and the relative L2 error of the field at t = 0.2 is the ODE's relative error at t = 0.2 (plus the spatial part).

Upstream's wave oracle, read in its released source, steps the theta scheme with theta = 1/4 (Newmark, average
acceleration, second order) and starts it with ``u^-1 = u^0 - dt v0``: a first-order start, whose missing
``dt^2 / 2 u_tt(0)`` acts as a velocity error of ``dt / 2 u_tt(0)`` carried to the end. This script runs that
scheme on the ODE (the closed form is ``cos(t)``) with that start and with the second-order start
``u^-1 = u^0 - dt v0 + dt^2 / 2 u_tt(0)``, at three steps. Usage: python benchmarks/fem_wave_start.py
"""

from __future__ import annotations

import math

LAM = 5 * math.pi**2
"""The eigenvalue of ``-lap`` for ``sin(2 pi x) sin(pi y)`` on the unit square (c = 1)."""
THETA = 0.25
T_END = 0.2


def theta_scheme_error(dt: float, second_order_start: bool) -> float:
    """The relative error at ``T_END`` of the theta scheme on ``u'' + LAM u = (LAM - 1) cos(t)`` from
    ``u = 1, u' = 0``, with the source at the old step as upstream's oracle takes it."""
    steps = round(T_END / dt)
    acceleration0 = -1.0  # u_tt(0) of cos(t)
    current = 1.0
    previous = current - dt * 0.0 + (0.5 * dt * dt * acceleration0 if second_order_start else 0.0)
    matrix = 1.0 / dt**2 + THETA * LAM
    for step in range(steps):
        source = (LAM - 1.0) * math.cos(step * dt)
        rhs = (2 * current - previous) / dt**2 - (1 - 2 * THETA) * LAM * current - THETA * LAM * previous + source
        previous, current = current, rhs / matrix
    exact = math.cos(steps * dt)
    return abs(current - exact) / abs(exact)


def main() -> None:
    """Print the markdown table: the error with each start at dt, dt / 2, dt / 4."""
    print("| dt | upstream's start u^-1 = u^0 - dt v0 | second-order start |")
    print("|---|---|---|")
    for dt in (0.01, 0.005, 0.0025):
        print(f"| {dt} | {theta_scheme_error(dt, False):.4e} | {theta_scheme_error(dt, True):.4e} |")


if __name__ == "__main__":
    main()
