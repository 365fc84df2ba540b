"""Exact solution of the Riemann problem for the 1-D Euler equations of an ideal gas (Toro, ch. 4).

The star pressure solves ``f_L(p) + f_R(p) + u_R - u_L = 0`` by Newton's method; each side is then a shock
(``p* > p_K``) or a rarefaction (``p* <= p_K``), and the solution is sampled at ``S = (x - x0) / t``.
"""

from __future__ import annotations

import numpy as np

State = tuple[float, float, float]  # (rho, u, p)


def _sound_speed(state: State, gamma: float) -> float:
    rho, _, p = state
    return float(np.sqrt(gamma * p / rho))


def _wave_function(p: float, state: State, gamma: float) -> tuple[float, float]:
    """Toro's ``f_K(p)`` and its derivative: the velocity change across the wave facing side ``K``."""
    rho, _, p_k = state
    c_k = _sound_speed(state, gamma)
    if p > p_k:  # shock
        a_k = 2.0 / ((gamma + 1.0) * rho)
        b_k = (gamma - 1.0) / (gamma + 1.0) * p_k
        root = np.sqrt(a_k / (p + b_k))
        return (p - p_k) * root, root * (1.0 - 0.5 * (p - p_k) / (p + b_k))
    z = (gamma - 1.0) / (2.0 * gamma)  # rarefaction
    ratio = p / p_k
    slope = ratio ** (-(gamma + 1.0) / (2.0 * gamma)) / (rho * c_k)
    return 2.0 * c_k / (gamma - 1.0) * (ratio**z - 1.0), slope


def star_state(left: State, right: State, gamma: float = 1.4, tol: float = 1e-14) -> tuple[float, float]:
    """Pressure and velocity ``(p*, u*)`` between the two nonlinear waves.

    Raises ``ValueError`` when the data generate a vacuum (the pressure positivity condition fails).
    """
    c_l, c_r = _sound_speed(left, gamma), _sound_speed(right, gamma)
    du = right[1] - left[1]
    if 2.0 * (c_l + c_r) / (gamma - 1.0) <= du:
        raise ValueError("the initial data generate a vacuum; this solver does not handle it")
    z = (gamma - 1.0) / (2.0 * gamma)
    # Two-rarefaction approximation as the starting guess: exact when both waves are rarefactions.
    p = ((c_l + c_r - 0.5 * (gamma - 1.0) * du) / (c_l / left[2] ** z + c_r / right[2] ** z)) ** (1.0 / z)
    for _ in range(100):
        f_l, df_l = _wave_function(p, left, gamma)
        f_r, df_r = _wave_function(p, right, gamma)
        p_new = max(p - (f_l + f_r + du) / (df_l + df_r), tol * p)
        converged = abs(p_new - p) <= tol * 0.5 * (p_new + p)
        p = p_new
        if converged:
            break
    else:
        raise RuntimeError("Newton iteration for the star pressure did not converge")
    f_l, _ = _wave_function(p, left, gamma)
    f_r, _ = _wave_function(p, right, gamma)
    return p, 0.5 * (left[1] + right[1]) + 0.5 * (f_r - f_l)


def _sample_left(s: np.ndarray, state: State, p_star: float, u_star: float, gamma: float) -> np.ndarray:
    """``(rho, u, p)`` left of the contact (``s <= u*``), as a (3, len(s)) array."""
    rho, u, p = state
    c = _sound_speed(state, gamma)
    ratio = p_star / p
    out = np.empty((3, s.size))
    out[:] = np.array([[rho], [u], [p]])
    if p_star > p:  # shock
        g6 = (gamma - 1.0) / (gamma + 1.0)
        speed = u - c * np.sqrt((gamma + 1.0) / (2.0 * gamma) * ratio + (gamma - 1.0) / (2.0 * gamma))
        star = s > speed
        out[:, star] = np.array([[rho * (ratio + g6) / (g6 * ratio + 1.0)], [u_star], [p_star]])
        return out
    c_star = c * ratio ** ((gamma - 1.0) / (2.0 * gamma))  # rarefaction
    head, tail = u - c, u_star - c_star
    star = s > tail
    out[:, star] = np.array([[rho * ratio ** (1.0 / gamma)], [u_star], [p_star]])
    fan = (s > head) & ~star
    c_fan = 2.0 / (gamma + 1.0) * (c + 0.5 * (gamma - 1.0) * (u - s[fan]))
    out[0, fan] = rho * (c_fan / c) ** (2.0 / (gamma - 1.0))
    out[1, fan] = 2.0 / (gamma + 1.0) * (c + 0.5 * (gamma - 1.0) * u + s[fan])
    out[2, fan] = p * (c_fan / c) ** (2.0 * gamma / (gamma - 1.0))
    return out


def sod_exact(
    x: np.ndarray,
    t: float,
    gamma: float = 1.4,
    x0: float = 0.5,
    left: State = (1.0, 0.0, 1.0),
    right: State = (0.125, 0.0, 0.1),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Density, velocity and pressure at points ``x`` and time ``t`` of the Riemann problem at ``x0``.

    ``left`` and ``right`` are the initial states ``(rho, u, p)``; the defaults are Sod's shock tube. Any
    combination of shocks and rarefactions is handled (not a vacuum). At ``t = 0`` the initial data are
    returned (the left state at ``x <= x0``).
    """
    x = np.asarray(x, dtype=float)
    if t <= 0.0:
        at_left = x <= x0
        return tuple(np.where(at_left, a, b) for a, b in zip(left, right, strict=True))  # type: ignore[return-value]
    p_star, u_star = star_state(left, right, gamma)
    s = ((x - x0) / t).ravel()
    # The right side is the left side seen in a mirror (x -> -x, u -> -u).
    mirrored = (right[0], -right[1], right[2])
    on_left = s <= u_star
    out = np.empty((3, s.size))
    out[:, on_left] = _sample_left(s[on_left], left, p_star, u_star, gamma)
    flip = np.array([[1.0], [-1.0], [1.0]])
    out[:, ~on_left] = _sample_left(-s[~on_left], mirrored, p_star, -u_star, gamma) * flip
    rho, u, p = (row.reshape(x.shape) for row in out)
    return rho, u, p
