"""Reference for comsol_16635 (re-posed): growth of a 1e-11 perturbation of the Lorenz system at t = 15.

At t = 15 the separation of the perturbed and unperturbed trajectories is still ~3e-5, far inside the linear
regime, so it equals the tangent-linear (variational) solution to O(3e-6) relative. The reference integrates
the base trajectory together with its tangent-linear system with scipy's adaptive DOP853 (the level
tightens the relative tolerance). A cross-check integrates the two nonlinear trajectories as one system
with scipy DOP853.
"""

import argparse
import json

import numpy as np
from scipy.integrate import solve_ivp

SIGMA, BETA, RHO = 10.0, 8.0 / 3.0, 28.0
START = np.array([-10.0, -4.45, 35.1])
PERTURBATION = 1e-11
T_EVAL = 15.0
RTOL = {0: 1e-6, 1: 1e-10, 2: 1e-12, 3: 1e-13}  # relative tolerance per level


def lorenz(y: np.ndarray) -> np.ndarray:
    """Right-hand side of the Lorenz system for one state (u, v, w)."""
    u, v, w = y
    return np.array([SIGMA * (v - u), u * (RHO - w) - v, u * v - BETA * w])


def base_and_tangent(_t: float, z: np.ndarray) -> np.ndarray:
    """Lorenz state (first 3) and its tangent-linear perturbation (last 3)."""
    u, v, w, du, dv, dw = z
    tangent = [SIGMA * (dv - du), du * (RHO - w) - u * dw - dv, du * v + u * dv - BETA * dw]
    return np.concatenate([lorenz(z[:3]), tangent])


def tangent_solution(rtol: float) -> float:
    """|delta u(T_EVAL)| from the tangent-linear system integrated with the base trajectory."""
    z0 = np.concatenate([START, np.full(3, PERTURBATION)])
    atol = np.concatenate([np.full(3, rtol), np.full(3, rtol * PERTURBATION)])
    sol = solve_ivp(base_and_tangent, (0.0, T_EVAL), z0, method="DOP853", rtol=rtol, atol=atol)
    return float(abs(sol.y[3, -1]))


def nonlinear_pair() -> float:
    """|u_perturbed - u| at T_EVAL, both trajectories in one system (shared adaptive steps)."""

    def pair(_t, y):
        return np.concatenate([lorenz(y[:3]), lorenz(y[3:])])

    y0 = np.concatenate([START, START + PERTURBATION])
    sol = solve_ivp(pair, (0.0, T_EVAL), y0, method="DOP853", rtol=1e-13, atol=1e-13)
    return float(abs(sol.y[3, -1] - sol.y[0, -1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=1, choices=sorted(RTOL))
    args = parser.parse_args()
    value = tangent_solution(RTOL[args.level])
    with open("result.json", "w") as fh:
        json.dump({"value": value, "units": "dimensionless"}, fh)
    print(f"level {args.level}: |du(t=15)| = {value:.8e} (nonlinear pair, DOP853: {nonlinear_pair():.8e})")


if __name__ == "__main__":
    main()
