"""Closed forms of perfect-gas shock relations, for the fresh supersonic foam cases (wedge, obliqueShock, forwardStep).

All for a calorically perfect gas of ratio of specific heats :data:`GAMMA` (the cases' normalised gas: Cp 2.5,
molWeight 11640.3, so R = 1 / 1.4, gamma 1.4 and a speed of sound of 1 m/s at 1 K). Angles in radians.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.optimize import brentq, minimize_scalar

GAMMA = 1.4


def deflection(mach: float, beta: float, gamma: float = GAMMA) -> float:
    """The flow's turning angle theta behind an oblique shock at angle ``beta`` (the theta-beta-M relation)."""
    m2 = (mach * math.sin(beta)) ** 2
    return math.atan(2.0 / math.tan(beta) * (m2 - 1.0) / (mach**2 * (gamma + math.cos(2.0 * beta)) + 2.0))


def max_deflection(mach: float, gamma: float = GAMMA) -> tuple[float, float]:
    """The largest turning angle an attached oblique shock gives at ``mach``, and its shock angle."""
    mu = math.asin(1.0 / mach)
    best = minimize_scalar(lambda b: -deflection(mach, b, gamma), bounds=(mu, math.pi / 2), method="bounded")
    return -float(best.fun), float(best.x)


def shock_angle(mach: float, theta: float, gamma: float = GAMMA) -> float:
    """The weak oblique shock's angle beta that turns a flow of ``mach`` by ``theta``.

    Raises ValueError when ``theta`` exceeds the largest attached deflection (the shock detaches).
    """
    theta_max, beta_max = max_deflection(mach, gamma)
    if not 0.0 < theta < theta_max:
        raise ValueError(f"a turn of {math.degrees(theta):.3g} deg at Mach {mach:.3g} has no attached oblique shock")
    return float(brentq(lambda b: deflection(mach, b, gamma) - theta, math.asin(1.0 / mach), beta_max, xtol=1e-14))


@dataclass(frozen=True)
class ShockState:
    """The state behind an oblique shock, relative to the state ahead (velocity in units of the upstream speed)."""

    beta: float
    theta: float
    pressure_ratio: float
    density_ratio: float
    temperature_ratio: float
    mach: float
    u: float
    v: float


def oblique_shock(mach: float, beta: float, gamma: float = GAMMA) -> ShockState:
    """Rankine-Hugoniot across a shock at angle ``beta`` to a uniform flow of ``mach`` along +x, the shock
    turning it downwards (towards -y) by theta: the normal component jumps, the tangential one is kept."""
    normal = mach * math.sin(beta)
    if normal <= 1.0:
        raise ValueError(f"a shock at {math.degrees(beta):.3g} deg is weaker than a Mach wave at Mach {mach:.3g}")
    density = (gamma + 1.0) * normal**2 / ((gamma - 1.0) * normal**2 + 2.0)
    pressure = 1.0 + 2.0 * gamma / (gamma + 1.0) * (normal**2 - 1.0)
    temperature = pressure / density
    tangential, normal_after = math.cos(beta), math.sin(beta) / density  # per unit upstream speed
    u = tangential * math.cos(beta) + normal_after * math.sin(beta)
    v = -tangential * math.sin(beta) + normal_after * math.cos(beta)
    mach_after = mach * math.hypot(u, v) / math.sqrt(temperature)
    return ShockState(beta, deflection(mach, beta, gamma), pressure, density, temperature, mach_after, u, v)


def pitot_pressure_ratio(mach: float, gamma: float = GAMMA) -> float:
    """Rayleigh's pitot formula: the stagnation pressure behind a normal shock over the static pressure ahead."""
    m2 = mach**2
    return ((gamma + 1.0) ** 2 * m2 / (4.0 * gamma * m2 - 2.0 * (gamma - 1.0))) ** (gamma / (gamma - 1.0)) * (
        (1.0 - gamma + 2.0 * gamma * m2) / (gamma + 1.0)
    )
