"""Reference for comsol_12677: periodic steady state of a periodically driven Riccati-type ODE.

Shooting: the periodic state is the fixed point u0 = P(u0) of the one-period map P, found with Brent's
method; P is integrated with the classical fourth-order Runge-Kutta method on a fixed step whose size the
level sets. An adaptive high-order integration (scipy DOP853, rtol 1e-12) is printed as a cross-check.
"""

import argparse
import json

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

A, B, C = 0.25, 0.05, 0.015
FREQ = 1.0  # Hz
OMEGA = 2.0 * np.pi * FREQ
PERIOD = 1.0 / FREQ
STEPS = {0: 2, 1: 40, 2: 160, 3: 640}  # RK4 steps per period


def rate(t: float, u: float) -> float:
    """du/dt = f (a sin^2(omega t) - b u - c u^2)."""
    return FREQ * (A * np.sin(OMEGA * t) ** 2 - B * u - C * u**2)


def period_map_rk4(u0: float, steps: int) -> float:
    """u(T) from u(0) = u0 with fixed-step classical Runge-Kutta."""
    h, u = PERIOD / steps, u0
    for i in range(steps):
        t = i * h
        k1 = rate(t, u)
        k2 = rate(t + h / 2, u + h / 2 * k1)
        k3 = rate(t + h / 2, u + h / 2 * k2)
        k4 = rate(t + h, u + h * k3)
        u += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return u


def period_map_adaptive(u0: float) -> float:
    """u(T) from u(0) = u0 with an adaptive eighth-order integrator."""
    sol = solve_ivp(rate, (0.0, PERIOD), [u0], method="DOP853", rtol=1e-12, atol=1e-14)
    return float(sol.y[0, -1])


def periodic_state(period_map) -> float:
    """Fixed point of the period map in [0, 5] (the map is a contraction there)."""
    return brentq(lambda u0: period_map(u0) - u0, 0.0, 5.0, xtol=1e-14, rtol=1e-14)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(STEPS))
    args = parser.parse_args()
    value = periodic_state(lambda u0: period_map_rk4(u0, STEPS[args.level]))
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "dimensionless"}, fh)
    check = periodic_state(period_map_adaptive)
    print(f"level {args.level}: periodic u(t=1 s) = {value:.10f} (DOP853 rtol 1e-12: {check:.10f})")


if __name__ == "__main__":
    main()
