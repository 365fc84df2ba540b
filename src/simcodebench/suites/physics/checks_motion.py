"""Physics checks of rigid motion (projectiles, slopes, rolling, collisions, toppling), on the recorded state.

Registered into :data:`.checks.CHECKS`. Like the checks there, each takes the recorded scene and the case's
declared spec (``object``: the prompt's object, matched by kind, size and, with ``near``, its starting point) and
returns a :class:`.checks.CheckResult`; a missing entity or too short a recording fails. Checks over several
objects (momentum, system energy) take ``objects``: a list of ``{object, mass}`` with the prompt's masses (kg).
Angular velocity is derived from the recorded orientations (the recorder keeps quaternions, not spin).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcodebench.suites.physics.check_common import CheckResult, first_contact, moving_entity, rotation
from simcodebench.suites.physics.state import Entity, Scene, match_entity


def _positions(entity: Entity) -> np.ndarray:
    return entity.series["pos"] if entity.rigid else entity.series["centroid"]


def _window(entity: Entity, spec: dict[str, Any]) -> np.ndarray:
    """Indices of the steps inside ``[t_from, t_to]`` (seconds; default the whole run)."""
    t = entity.t
    return np.nonzero((t >= float(spec.get("t_from", 0.0)) - 1e-9) & (t <= float(spec.get("t_to", np.inf)) + 1e-9))[0]


def _within(value: float, expected: float, spec: dict[str, Any], rtol: float, atol: float) -> bool:
    return abs(value - expected) <= float(spec.get("rtol", rtol)) * abs(expected) + float(spec.get("atol", atol))


def _rigid_entity(scene: Scene, spec: dict[str, Any], name: str) -> Entity | CheckResult:
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult) or entity.rigid:
        return entity
    return CheckResult(name, False, detail=f"entity {entity.index} is not rigid (no velocity or orientation)")


def ballistic_flight(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Projectile motion before the first contact: the horizontal velocity stays ``horizontal_velocity``
    ([vx, vy], m/s) within ``rtol`` (default 5 %) plus ``atol`` (0.05 m/s) at every step, and the fitted
    vertical acceleration is -``g`` within 5 %."""
    name = "ballistic_flight"
    entity = _rigid_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    end = max(first_contact(entity) - 1, 0)
    if end < 5:
        return CheckResult(name, False, detail=f"only {end} steps of flight recorded")
    expected = np.asarray(spec["horizontal_velocity"], dtype=float)
    velocity = entity.series["vel"][:end, :2]
    tolerance = float(spec.get("rtol", 0.05)) * np.linalg.norm(expected) + float(spec.get("atol", 0.05))
    worst = float(np.max(np.linalg.norm(velocity - expected, axis=1)))
    g = float(spec.get("g", 9.81))
    a = 2.0 * float(np.polyfit(entity.t[:end] - entity.t[0], entity.series["pos"][:end, 2], 2)[0])
    passed = worst <= tolerance and abs(a + g) <= 0.05 * g
    detail = f"horizontal velocity off by up to {worst:.3f} m/s (allowed {tolerance:.3f}); a_z {a:.3f} m/s^2"
    return CheckResult(name, passed, float(np.linalg.norm(velocity[-1])), float(np.linalg.norm(expected)), detail)


def landing_distance(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """The range of a projectile: the horizontal distance from the start to where it first touches down is
    ``distance`` within ``rtol`` (default 10 %) plus ``atol`` (2 cm)."""
    name = "landing_distance"
    entity = _rigid_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    contact = first_contact(entity)
    if contact >= len(entity.t) - 1:
        return CheckResult(name, False, detail="the entity never touched down")
    pos = entity.series["pos"]
    value, expected = float(np.linalg.norm(pos[contact, :2] - pos[0, :2])), float(spec["distance"])
    return CheckResult(
        name, _within(value, expected, spec, 0.10, 0.02), value, expected, f"touched down at step {contact}"
    )


def slope_acceleration(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Acceleration along a slope: the position projected on ``direction`` (a vector down the slope), fitted
    with s = a t^2/2 + v t + c over ``[t_from, t_to]``, gives ``acceleration`` (e.g. g (sin q - mu cos q) for a
    sliding block, 5/7 g sin q for a rolling ball, 0 for a block held by static friction) within ``rtol``
    (default 10 %) plus ``atol`` (0.05 m/s^2)."""
    name = "slope_acceleration"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    steps = _window(entity, spec)
    if len(steps) < 5:
        return CheckResult(name, False, detail=f"only {len(steps)} steps in the window")
    direction = np.asarray(spec["direction"], dtype=float)
    s = _positions(entity)[steps] @ (direction / np.linalg.norm(direction))
    a = 2.0 * float(np.polyfit(entity.t[steps] - entity.t[steps[0]], s, 2)[0])
    expected = float(spec["acceleration"])
    return CheckResult(name, _within(a, expected, spec, 0.10, 0.05), a, expected, f"fitted over {len(steps)} steps")


def angular_speed(entity: Entity) -> np.ndarray:
    """Angular speed (rad/s) between consecutive recorded orientations, one value per interval."""
    q = entity.series["quat"] / np.linalg.norm(entity.series["quat"], axis=1, keepdims=True)
    dot = np.clip(np.abs(np.sum(q[1:] * q[:-1], axis=1)), 0.0, 1.0)
    return 2.0 * np.arccos(dot) / np.diff(entity.t)


def rolling_without_slipping(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Rolling: over the steps in ``[t_from, t_to]`` where the entity moves faster than ``min_speed`` (default
    0.1 m/s), its angular speed times ``radius`` matches its speed: the median ratio is 1 within ``rtol``
    (default 10 %). A sliding body (ratio near 0) or a spinning one fails."""
    name = "rolling_without_slipping"
    entity = _rigid_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    omega = angular_speed(entity)
    speed = np.linalg.norm(0.5 * (entity.series["vel"][1:] + entity.series["vel"][:-1]), axis=1)
    steps = _window(entity, spec)
    steps = steps[steps < len(speed)]
    steps = steps[speed[steps] > float(spec.get("min_speed", 0.1))]
    if len(steps) < 3:
        return CheckResult(name, False, detail=f"only {len(steps)} steps of motion in the window")
    ratio = float(np.median(omega[steps] * float(spec["radius"]) / speed[steps]))
    return CheckResult(name, _within(ratio, 1.0, spec, 0.10, 0.0), ratio, 1.0, f"median omega r / v over {len(steps)}")


def _members(scene: Scene, spec: dict[str, Any], name: str) -> list[tuple[Entity, float]] | CheckResult:
    members = []
    for item in spec["objects"]:
        entity = match_entity(scene, item["object"])
        if entity is None or not entity.rigid:
            return CheckResult(name, False, detail=f"no moving rigid entity matches the object {item['object']}")
        members.append((entity, float(item["mass"])))
    if len({id(e) for e, _ in members}) < len(members):
        return CheckResult(name, False, detail="two declared objects matched the same entity")
    steps = {len(e.t) for e, _ in members}
    if len(steps) != 1 or steps.pop() < 3:
        return CheckResult(name, False, detail="the objects' recordings differ in length or are too short")
    return members


def momentum_conserved(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Conservation of momentum of ``objects`` (each with its ``mass``): along ``axes`` (default [0, 1], the
    horizontal ones; [0, 1, 2] in free space) the total momentum never departs from its initial value by more
    than ``rtol`` (default 5 %) of the initial magnitude plus ``atol`` (default 0.01 kg m/s)."""
    name = "momentum_conserved"
    members = _members(scene, spec, name)
    if isinstance(members, CheckResult):
        return members
    axes = list(spec.get("axes", [0, 1]))
    momentum = sum(mass * entity.series["vel"][:, axes] for entity, mass in members)
    drift = float(np.max(np.linalg.norm(momentum - momentum[0], axis=1)))
    initial = float(np.linalg.norm(momentum[0]))
    allowed = float(spec.get("rtol", 0.05)) * initial + float(spec.get("atol", 0.01))
    return CheckResult(name, drift <= allowed, drift, 0.0, f"initial |p| {initial:.4f}, allowed drift {allowed:.4f}")


def system_energy_not_growing(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Passive bodies exchanging energy create none: the total energy of ``objects`` (kinetic plus potential,
    J, the recorded gravity) never exceeds its initial value by more than ``rtol`` (default 2 %) of it plus
    ``atol`` (default 0.01 J)."""
    name = "system_energy_not_growing"
    members = _members(scene, spec, name)
    if isinstance(members, CheckResult):
        return members
    energy = sum(
        mass * (0.5 * np.sum(e.series["vel"] ** 2, axis=1) - e.series["pos"] @ scene.gravity) for e, mass in members
    )
    gain = float(np.max(energy - energy[0]))
    allowed = float(spec.get("rtol", 0.02)) * abs(float(energy[0])) + float(spec.get("atol", 0.01))
    return CheckResult(name, gain <= allowed, gain, 0.0, f"largest gain {gain:.4f} J, allowed {allowed:.4f}")


def final_velocity(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """The velocity after the events (mean over the last ``tail`` fraction, default 0.1) along ``axis``
    (default 0, x) lies in ``[min, max]`` (m/s), e.g. the bounds a collision's restitution 0..1 allows."""
    name = "final_velocity"
    entity = _rigid_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    v = entity.series["vel"][:, int(spec.get("axis", 0))]
    tail = max(1, int(round(float(spec.get("tail", 0.1)) * len(v))))
    value = float(np.mean(v[-tail:]))
    low, high = float(spec.get("min", -np.inf)), float(spec.get("max", np.inf))
    return CheckResult(name, low <= value <= high, value, 0.5 * (low + high), f"allowed [{low}, {high}] m/s")


def tilt_angle(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Toppled or upright: at the last step (or the step nearest ``t`` seconds) the angle (degrees) between the
    body's ``axis`` (default 2, its local z) and the vertical is at least ``min_deg`` and at most ``max_deg``
    (defaults 0 and 180). With ``t``, it times an event: a domino still standing at 0.3 s, fallen by 1 s. With
    ``peak: true``, the largest angle of the whole run (how far a rocking block swings)."""
    name = "tilt_angle"
    entity = _rigid_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    columns = rotation(entity.series["quat"])[:, :, int(spec.get("axis", 2))]
    angles = np.degrees(np.arccos(np.clip(np.abs(columns[:, 2]), 0.0, 1.0)))
    if spec.get("peak"):
        value = float(np.max(angles))
    else:
        value = float(angles[int(np.argmin(np.abs(entity.t - float(spec["t"])))) if "t" in spec else -1])
    low, high = float(spec.get("min_deg", 0.0)), float(spec.get("max_deg", 180.0))
    return CheckResult(name, low <= value <= high, value, 0.5 * (low + high), f"allowed [{low}, {high}] degrees")


def displacement(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """How far the body's centre ends from where it started (m): at least ``min`` and at most ``max``
    (defaults 0 and infinity); a resting tower moves less than ``max``, a struck one more than ``min``."""
    name = "displacement"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    pos = _positions(entity)
    value = float(np.linalg.norm(pos[-1] - pos[0]))
    low, high = float(spec.get("min", 0.0)), float(spec.get("max", np.inf))
    return CheckResult(name, low <= value <= high, value, None, f"allowed [{low}, {high}] m")


MOTION_CHECKS = {
    "ballistic_flight": ballistic_flight,
    "landing_distance": landing_distance,
    "slope_acceleration": slope_acceleration,
    "rolling_without_slipping": rolling_without_slipping,
    "momentum_conserved": momentum_conserved,
    "system_energy_not_growing": system_energy_not_growing,
    "final_velocity": final_velocity,
    "tilt_angle": tilt_angle,
    "displacement": displacement,
}
