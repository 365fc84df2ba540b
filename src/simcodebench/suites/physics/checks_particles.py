"""Physics checks of particle bodies (soft bodies, cloth, sand, liquids) on the recorded state.

Registered into :data:`.checks.CHECKS`. The recorder keeps, per step, a particle body's centroid, its extent
(lowest and highest corner) and its particle count, so these checks read shape and motion from those: how the
extent changes (an elastic body keeps its shape, a plastic one or a liquid spreads), how far the centroid rises
after the first impact (a bounce), where the body's top or bottom comes to lie (a liquid's level, a pile's
height, a cloth draped over an obstacle), and how fast a liquid's front advances (a dam break). Each takes the
recorded scene and the case's declared spec (``object``: the prompt's object, matched by kind, size and solver)
and returns a :class:`.checks.CheckResult`; a missing entity, a rigid one or too short a recording fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcodebench.suites.physics.check_common import CheckResult, first_contact, moving_entity
from simcodebench.suites.physics.state import Entity, Scene

AXES = {"x": (0,), "y": (1,), "z": (2,), "xy": (0, 1)}


def _particle_entity(scene: Scene, spec: dict[str, Any], name: str) -> Entity | CheckResult:
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    if entity.rigid:
        return CheckResult(name, False, detail=f"entity {entity.index} is rigid, not a particle body")
    return entity


def _tail(values: np.ndarray, spec: dict[str, Any]) -> np.ndarray:
    """The last ``tail`` fraction (default 0.1, at least one step) of a per-step series."""
    count = max(1, int(round(float(spec.get("tail", 0.1)) * len(values))))
    return values[-count:]


def _axes(spec: dict[str, Any], name: str) -> tuple[int, ...] | CheckResult:
    axis = str(spec.get("axis", "z"))
    if axis not in AXES:
        return CheckResult(name, False, detail=f"axis '{axis}' is not one of {sorted(AXES)}")
    return AXES[axis]


def extent_ratio(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Shape kept or lost: the body's extent along ``axis`` (``x``, ``y``, ``z``, or ``xy``: the larger
    horizontal one), averaged over the last ``tail`` fraction of the run, divided by its initial extent, lies
    in [``min``, ``max``] (an elastic cube keeps about 1 after landing; clay or a liquid column flattens in z
    and spreads in xy)."""
    name = "extent_ratio"
    entity = _particle_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    axes = _axes(spec, name)
    if isinstance(axes, CheckResult):
        return axes
    extent = np.max(entity.series["hi"][:, axes] - entity.series["lo"][:, axes], axis=1)
    if extent[0] <= 0:
        return CheckResult(name, False, detail=f"entity {entity.index} starts with no extent along {axes}")
    value = float(np.mean(_tail(extent, spec)) / extent[0])
    low, high = float(spec.get("min", 0.0)), float(spec.get("max", np.inf))
    expected = (low + high) / 2 if np.isfinite(high) else low
    return CheckResult(name, low <= value <= high, value, expected, f"ratio {value:.3f}, allowed [{low}, {high}]")


def bounce_fraction(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """A body's bounce: after its first impact the centroid falls to its lowest point, then rises again; the
    rise divided by the fall (from the start to that lowest point) lies in [``min``, ``max``] (an elastic jelly
    bounces back a good part of its drop, clay or a liquid hardly at all: a ratio above 1 gains energy)."""
    name = "bounce_fraction"
    entity = _particle_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    z = entity.series["centroid"][:, 2]
    contact = first_contact(entity)
    if contact >= len(z) - 2:
        return CheckResult(name, False, detail="the body never reached the floor")
    after = z[contact:]
    rising = np.nonzero(np.diff(after) > 0)[0]
    bottom = contact + (int(rising[0]) if len(rising) else len(after) - 1)
    fall = float(z[0] - z[bottom])
    if fall <= 0:
        return CheckResult(name, False, detail="the body never fell")
    value = float(np.max(z[bottom:]) - z[bottom]) / fall
    low, high = float(spec.get("min", 0.0)), float(spec.get("max", 1.0))
    return CheckResult(name, low <= value <= high, value, (low + high) / 2, f"rise/fall {value:.3f} in [{low}, {high}]")


def surface_height(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Where the body comes to lie: its highest (``side: hi``, default) or lowest (``side: lo``) particle's
    height, averaged over the last ``tail`` fraction of the run, is ``z`` within ``atol`` (default 2 cm): a
    liquid's level in its tank (volume over floor area), a pile's height, a cloth resting on an obstacle."""
    name = "surface_height"
    entity = _particle_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    side = str(spec.get("side", "hi"))
    if side not in ("hi", "lo"):
        return CheckResult(name, False, detail=f"side '{side}' is neither 'hi' nor 'lo'")
    value, expected = float(np.mean(_tail(entity.series[side][:, 2], spec))), float(spec["z"])
    return CheckResult(name, abs(value - expected) <= float(spec.get("atol", 0.02)), value, expected)


def front_speed(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """A dam break's surge: the mean speed at which the body's leading edge (its highest coordinate along
    ``axis``, default x) advances its first ``distance`` metres, from rest, lies between ``min`` and ``max``
    times sqrt(g H) (``height`` H of the column, the stated ``g``, not the simulated one). Shallow-water theory
    (Ritter) bounds the front's speed by 2 sqrt(g H); from rest over the first column widths it is markedly lower,
    since the column first has to accelerate (Martin and Moyce's 1952 experiments). A stronger gravity speeds the
    whole surge up as sqrt(g)."""
    name = "front_speed"
    entity = _particle_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    axes = _axes({"axis": spec.get("axis", "x")}, name)
    if isinstance(axes, CheckResult):
        return axes
    front = entity.series["hi"][:, axes[0]] - entity.series["hi"][0, axes[0]]
    distance = float(spec["distance"])
    reached = np.nonzero(front >= distance)[0]
    scale = float(np.sqrt(float(spec.get("g", 9.81)) * float(spec["height"])))
    low, high = float(spec.get("min", 0.5)), float(spec.get("max", 2.0))
    if not len(reached):
        detail = f"the front advanced {float(np.max(front)):.3f} m, never {distance} m"
        return CheckResult(name, False, 0.0, (low + high) / 2, detail)
    first = int(reached[0])
    # the crossing time, interpolated between the two steps around it
    t0, t1, f0, f1 = entity.t[first - 1], entity.t[first], front[first - 1], front[first]
    crossing = float(t0 + (distance - f0) * (t1 - t0) / (f1 - f0)) if first > 0 and f1 > f0 else float(entity.t[first])
    if crossing <= entity.t[0]:
        return CheckResult(name, False, detail="the front was already past the distance at the start")
    value = distance / (crossing - float(entity.t[0])) / scale
    return CheckResult(
        name, low <= value <= high, value, (low + high) / 2, f"{distance} m in {crossing:.3f} s: {value:.3f} sqrt(gH)"
    )


PARTICLE_CHECKS = {
    "extent_ratio": extent_ratio,
    "bounce_fraction": bounce_fraction,
    "surface_height": surface_height,
    "front_speed": front_speed,
}
