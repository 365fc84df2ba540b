"""The Lorenz family (``comsol_16635``): what a drawn system states about itself, and when a draw is admissible.

The published text does not only give the coefficients: it says how fast a perturbation grows (``exp(0.9 t)``,
the classical system's largest Lyapunov exponent, 0.906), when the separation reaches the attractor's size
("by t of about 25") and how large the answer is ("of order 1e-5"). A fresh draw (new coefficients in the
chaotic regime, a new perturbation, a new time) restates each of them from its own system: the largest
Lyapunov exponent by Benettin's method (the tangent-linear system integrated along a long trajectory,
renormalised every :data:`CHUNK` time units), the separation by the tangent-linear system along the reference
trajectory, and the horizon by extrapolating that separation at the exponent's rate to :data:`ATTRACTOR_SCALE`.

A draw is admissible (:func:`screen`) when the answer measures what the text says it does: the separation is
still deep in the linear regime at the target time, the answer's u component is not near a zero of the
separation's rotation (where a correct program's integration error would be large relative to it), and the
rounding of the start plus the perturbation in double precision, which every program that integrates the two
trajectories incurs, moves the answer by far less than the pass band.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.integrate import solve_ivp

START = np.array([-10.0, -4.45, 35.1])
"""The published start of the reference trajectory (kept: the text states it in several places)."""
CHUNK = 5.0
"""Time between renormalisations of the tangent vector in Benettin's method."""
LYAPUNOV_SPAN = (20.0, 320.0)
"""Transient skipped and end of the averaging window of the Lyapunov exponent (integrated at rtol 1e-6: 0.9051
for the classical system, 0.9067 at 1e-8, 0.9056 published; the text states it to one decimal)."""
ATTRACTOR_SCALE = 1.0
"""The separation at which the text's horizon ("no integration can predict it any more") is placed: the
published case's solvers part by more than 1 % between t = 17 and 26 (cases/fea/comsol_16635/README.md), and
the published separation reaches 1 at t = 25.6."""
LINEAR_LIMIT = 1e-3
"""Largest admissible norm of the separation at the target time (the attractor spans about 40 in w)."""
U_SHARE = 0.2
"""Least admissible ratio of the answer |d_u| to the separation's norm."""
ROUNDING_LIMIT = 1e-3
"""Largest admissible relative change of the answer from rounding start + perturbation (a tenth of the band)."""


def _with_tangent(coefficients: tuple[float, float, float]):
    sigma, beta, rho = coefficients

    def rhs(_t: float, z: np.ndarray) -> list[float]:
        u, v, w, du, dv, dw = z
        return [
            sigma * (v - u),
            u * (rho - w) - v,
            u * v - beta * w,
            sigma * (dv - du),
            du * (rho - w) - u * dw - dv,
            du * v + u * dv - beta * dw,
        ]

    return rhs


def tangent_at(
    coefficients: tuple[float, float, float], start: np.ndarray, d0: np.ndarray, t_end: float, rtol: float = 1e-11
) -> np.ndarray:
    """The state (first 3) and the tangent-linear separation (last 3) at ``t_end``, from ``start`` and ``d0``."""
    scale = float(np.linalg.norm(d0))
    atol = np.concatenate([np.full(3, rtol), np.full(3, rtol * scale)])
    z0 = np.concatenate([start, d0])
    return solve_ivp(_with_tangent(coefficients), (0.0, t_end), z0, method="DOP853", rtol=rtol, atol=atol).y[:, -1]


@lru_cache(maxsize=64)
def lyapunov_exponent(sigma: float, beta: float, rho: float) -> float:
    """The largest Lyapunov exponent of the Lorenz system by Benettin's method, from the published start."""
    skip, end = LYAPUNOV_SPAN
    z = np.concatenate([START, np.ones(3) / math.sqrt(3.0)])
    total, t = 0.0, 0.0
    while t < end - 1e-9:
        z = tangent_at((sigma, beta, rho), z[:3], z[3:], CHUNK, rtol=1e-6)
        t += CHUNK
        norm = float(np.linalg.norm(z[3:]))
        if t > skip:
            total += math.log(norm)
        z[3:] /= norm
    return total / (end - skip)


@lru_cache(maxsize=64)
def separation(sigma: float, beta: float, rho: float, perturbation: float, t_end: float) -> np.ndarray:
    """The tangent-linear separation at ``t_end`` of the perturbation (p, p, p) added to the published start."""
    return tangent_at((sigma, beta, rho), START, np.full(3, perturbation), t_end)[3:]


def horizon(sigma: float, beta: float, rho: float, perturbation: float, t_end: float) -> float:
    """When the separation reaches :data:`ATTRACTOR_SCALE`, growing from its size at ``t_end`` at the Lyapunov
    exponent's rate."""
    size = float(np.linalg.norm(separation(sigma, beta, rho, perturbation, t_end)))
    return t_end + math.log(ATTRACTOR_SCALE / size) / lyapunov_exponent(sigma, beta, rho)


def screen(values: dict[str, float]) -> str | None:
    """Why a drawn Lorenz case does not measure what its text says (None: admissible)."""
    sigma, beta, rho = values["sigma"], values["beta"], values["rho"]
    p, t_end = values["perturbation"], values["t_end"]
    d = separation(sigma, beta, rho, p, t_end)
    size = float(np.linalg.norm(d))
    if size > LINEAR_LIMIT:
        return f"the separation {size:.3g} at t = {t_end:g} is past the linear regime ({LINEAR_LIMIT:g})"
    if abs(d[0]) < U_SHARE * size:
        return f"|d_u| = {abs(d[0]):.3g} is under {U_SHARE:g} of the separation's norm {size:.3g}"
    rounded = (START + p) - START  # the perturbation a program adding p to the start in double precision has
    shifted = tangent_at((sigma, beta, rho), START, rounded, t_end)[3]
    change = abs(shifted / d[0] - 1.0)
    if change > ROUNDING_LIMIT:
        return f"rounding start + perturbation moves the answer by {change:.3g} (limit {ROUNDING_LIMIT:g})"
    return None


def phrases(values: dict[str, float]) -> list[tuple[str, str]]:
    """The published statements about the system restated for the drawn one: the growth rate (its Lyapunov
    exponent, one decimal), the horizon (to the nearest 5), the answer's order of magnitude, and the regime."""
    sigma, beta, rho = values["sigma"], values["beta"], values["rho"]
    p, t_end = values["perturbation"], values["t_end"]
    rate = lyapunov_exponent(sigma, beta, rho)
    answer = abs(float(separation(sigma, beta, rho, p, t_end)[0]))
    return [
        ("exp(0.9 t)", f"exp({rate:.1f} t)"),
        ("by t of about 25", f"by t of about {5 * round(horizon(sigma, beta, rho, p, t_end) / 5)}"),
        ("(of order 1e-5)", f"(of order 1e{round(math.log10(answer))})"),
        ("(the classical chaotic regime)", "(a chaotic regime)"),
    ]
