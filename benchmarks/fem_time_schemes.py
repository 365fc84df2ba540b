"""Two e_base differences between upstream's PDEAgent-Bench oracle and ours, from the time schemes (issue 28).

Both records' solutions are Laplacian eigenmodes times a function of time, so the fully discrete problem is one
scalar ODE per mode plus the spatial error (about 1e-6 here), and the relative L2 error of the field is the
modes' errors combined (the modes are orthogonal and of equal norm on the unit square or cube).

1. ``wave_periodic_trig``: upstream 3.5e-4, ours 3.2e-6.

The record: ``u_tt - c^2 lap u = f`` on the unit square, ``u = sin(2 pi x) sin(pi y) cos(t)``, c = 1, dt 0.005
to t = 0.2, P2 on 88^2 cells. Its exact solution is one Laplacian eigenmode (eigenvalue ``lam = 5 pi^2``)
times ``cos(t)``, so any Galerkin space that holds the mode well (P2 on 88^2: a relative error near 1e-6)
reduces the discrete problem to the scalar ODE ``u'' + lam u = (lam - 1) cos(t)``, ``u(0) = 1``, ``u'(0) = 0``,
and the relative L2 error of the field at t = 0.2 is the ODE's relative error at t = 0.2 (plus the spatial part).

Upstream's wave oracle, read in its released source, steps the theta scheme with theta = 1/4 (Newmark, average
acceleration, second order) and starts it with ``u^-1 = u^0 - dt v0``: a first-order start, whose missing
``dt^2 / 2 u_tt(0)`` acts as a velocity error of ``dt / 2 u_tt(0)`` carried to the end. This script runs that
scheme on the ODE (the closed form is ``cos(t)``) with that start and with the second-order start
``u^-1 = u^0 - dt v0 + dt^2 / 2 u_tt(0)``, at three steps.

2. ``heat_3d_nonuniform_ic``: upstream 4.86e-2, ours 8.9e-4. ``u = (p1 + 0.5 p2) exp(-3 pi^2 t)`` on the unit
cube with ``p1 = sin(pi x) sin(pi y) sin(pi z)`` (eigenvalue 3 pi^2) and ``p2 = sin(2 pi x) sin(2 pi y) sin(pi z)``
(9 pi^2), kappa 1, dt 0.0025 to t = 0.05; the record names no scheme. Upstream's heat oracle steps backward
Euler; ours, given no scheme, Crank-Nicolson. This script steps both on the two modal ODEs.

Usage: python benchmarks/fem_time_schemes.py
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


HEAT_RATE = 3 * math.pi**2
"""The decay rate of the heat record's solution."""


def heat_mode_error(eigenvalue: float, amplitude: float, dt: float, steps: int, scheme: str) -> tuple[float, float]:
    """The error and the exact value at ``steps * dt`` of one mode of the heat record,
    ``a' + eigenvalue a = amplitude (eigenvalue - HEAT_RATE) exp(-HEAT_RATE t)``, ``a(0) = amplitude``, stepped with
    backward Euler (``"BE"``) or Crank-Nicolson (``"CN"``)."""

    def forcing(t: float) -> float:
        return amplitude * (eigenvalue - HEAT_RATE) * math.exp(-HEAT_RATE * t)

    value = amplitude
    for step in range(steps):
        old, new = step * dt, (step + 1) * dt
        if scheme == "BE":
            value = (value + dt * forcing(new)) / (1 + dt * eigenvalue)
        else:
            value = (value * (1 - dt * eigenvalue / 2) + dt * (forcing(old) + forcing(new)) / 2) / (
                1 + dt * eigenvalue / 2
            )
    exact = amplitude * math.exp(-HEAT_RATE * steps * dt)
    return value - exact, exact


def heat_error(scheme: str, dt: float = 0.0025, steps: int = 20) -> float:
    """The heat record's relative L2 error at t = 0.05 from its two modes under ``scheme``."""
    (error1, exact1), (error2, exact2) = (
        heat_mode_error(eigenvalue, amplitude, dt, steps, scheme)
        for eigenvalue, amplitude in ((3 * math.pi**2, 1.0), (9 * math.pi**2, 0.5))
    )
    return math.hypot(error1, error2) / math.hypot(exact1, exact2)


def main() -> None:
    """Print the two markdown tables: the wave error with each start at dt, dt / 2, dt / 4; the heat error with
    each scheme."""
    print("| dt | upstream's start u^-1 = u^0 - dt v0 | second-order start |")
    print("|---|---|---|")
    for dt in (0.01, 0.005, 0.0025):
        print(f"| {dt} | {theta_scheme_error(dt, False):.4e} | {theta_scheme_error(dt, True):.4e} |")
    print()
    print("| heat_3d_nonuniform_ic | backward Euler (upstream) | Crank-Nicolson (ours) |")
    print("|---|---|---|")
    print(f"| relative error at t = 0.05 | {heat_error('BE'):.4e} | {heat_error('CN'):.4e} |")


if __name__ == "__main__":
    main()
