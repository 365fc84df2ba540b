"""Physics checks evaluated on the recorded state (our physics score, beside PhysCodeEval, never mixed in).

A case declares its checks in ``hidden.scoring.checks``: each names a ``check`` of ``CHECKS``, the prompt's
``object`` it applies to (matched by kind and size, :func:`.state.match_entity`) and its expected values and
tolerances. Every check returns a :class:`CheckResult`; a missing entity or too short a recording fails it.
Energies are per unit mass (J/kg): the recorder knows velocities, not every entity's mass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from simcodebench.suites.physics.check_common import CheckResult, first_contact, lowest_point, moving_entity
from simcodebench.suites.physics.checks_motion import MOTION_CHECKS
from simcodebench.suites.physics.checks_particles import PARTICLE_CHECKS
from simcodebench.suites.physics.state import Scene, nonfinite_entities


def fall_acceleration(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Free fall: the vertical acceleration fitted (least squares, z = a t^2/2 + b t + c) to the trajectory
    before the first contact equals -g within ``rtol`` (default 5 %)."""
    name = "fall_acceleration"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    g, rtol = float(spec.get("g", 9.81)), float(spec.get("rtol", 0.05))
    end = max(first_contact(entity) - 1, 0)
    if end < 5:
        return CheckResult(name, False, expected=-g, detail=f"only {end} steps of free fall recorded")
    t = entity.t[:end]
    z = entity.series["pos"][:end, 2] if entity.rigid else entity.series["centroid"][:end, 2]
    a = 2.0 * float(np.polyfit(t - t[0], z, 2)[0])
    return CheckResult(name, abs(a + g) <= rtol * g, a, -g, f"fitted over {end} steps")


def resting_height(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """At rest: the mean height of the entity's centre over the last ``tail`` fraction of the run (default
    0.1) is ``z`` within ``atol`` (default 1 cm)."""
    name = "resting_height"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    z = entity.series["pos"][:, 2] if entity.rigid else entity.series["centroid"][:, 2]
    tail = max(1, int(round(float(spec.get("tail", 0.1)) * len(z))))
    value, expected = float(np.mean(z[-tail:])), float(spec["z"])
    return CheckResult(name, abs(value - expected) <= float(spec.get("atol", 0.01)), value, expected)


def no_penetration(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """No interpenetration with the ground: the entity's lowest point never goes below ``floor`` (default 0)
    by more than ``atol`` (default 2 cm)."""
    name = "no_penetration"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    floor, atol = float(spec.get("floor", 0.0)), float(spec.get("atol", 0.02))
    low = lowest_point(entity)
    value = float(np.min(low[np.isfinite(low)])) if np.any(np.isfinite(low)) else float("nan")
    return CheckResult(name, bool(value >= floor - atol), value, floor, f"deepest point {floor - value:.4f} m below")


def rebound_height(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """A bounce consistent with the restitution: the highest point after the first contact rises to
    ``drop_height * restitution**2`` above the floor, within ``rtol`` (default 25 %) plus ``atol`` (1 cm)."""
    name = "rebound_height"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    contact = first_contact(entity)
    low = lowest_point(entity) - float(spec.get("floor", 0.0))
    if contact >= len(low) - 2:
        return CheckResult(name, False, detail="the entity never reached the floor")
    value = float(np.max(low[contact:]))
    expected = float(spec["drop_height"]) * float(spec["restitution"]) ** 2
    tolerance = float(spec.get("rtol", 0.25)) * expected + float(spec.get("atol", 0.01))
    return CheckResult(name, abs(value - expected) <= tolerance, value, expected)


def sliding_distance(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Sliding under friction: the horizontal distance travelled from the first to the last step is
    ``distance`` (e.g. v0^2 / (2 mu g)) within ``rtol`` (default 15 %) plus ``atol`` (1 cm)."""
    name = "sliding_distance"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    pos = entity.series["pos"] if entity.rigid else entity.series["centroid"]
    value, expected = float(np.linalg.norm(pos[-1, :2] - pos[0, :2])), float(spec["distance"])
    tolerance = float(spec.get("rtol", 0.15)) * expected + float(spec.get("atol", 0.01))
    return CheckResult(name, abs(value - expected) <= tolerance, value, expected)


def particles_kept(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """A particle body (fluid, MPM, PBD) keeps its volume: its particle count never changes, no particle
    becomes non-finite and every particle stays inside ``bounds`` ([[x, y, z] low, [x, y, z] high])."""
    name = "particles_kept"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    if entity.rigid:
        return CheckResult(name, False, detail=f"entity {entity.index} is rigid, not a particle body")
    count = entity.series["count"]
    problems = []
    if np.any(count != count[0]):
        problems.append(f"particle count went from {int(count[0])} to {int(count[-1])}")
    if np.any(entity.series["nonfinite"] > 0):
        problems.append(f"{int(np.max(entity.series['nonfinite']))} non-finite particle(s)")
    if "bounds" in spec:
        low, high = (np.asarray(b, dtype=float) for b in spec["bounds"])
        if np.any(entity.series["lo"] < low) or np.any(entity.series["hi"] > high):
            problems.append(f"particles left the box {low.tolist()}..{high.tolist()}")
    return CheckResult(name, not problems, float(count[-1]), float(count[0]), "; ".join(problems))


def energy_not_growing(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """A passive body gains no energy: its specific energy -g.x + |v|^2/2 (J/kg, the recorded gravity) never
    exceeds its initial value by more than ``rtol`` (default 2 %) of it plus ``atol`` (default 0.05 J/kg)."""
    name = "energy_not_growing"
    entity = moving_entity(scene, spec, name)
    if isinstance(entity, CheckResult):
        return entity
    if not entity.rigid:
        return CheckResult(name, False, detail=f"entity {entity.index} has no velocity recorded")
    pos, vel = entity.series["pos"], entity.series["vel"]
    energy = -(pos @ scene.gravity) + 0.5 * np.sum(vel * vel, axis=1)
    gain = float(np.max(energy - energy[0]))
    allowed = float(spec.get("rtol", 0.02)) * abs(float(energy[0])) + float(spec.get("atol", 0.05))
    return CheckResult(name, gain <= allowed, gain, 0.0, f"largest gain {gain:.4f} J/kg, allowed {allowed:.4f}")


def no_nan(scene: Scene, spec: dict[str, Any]) -> CheckResult:
    """Every recorded state of every entity is finite."""
    bad = nonfinite_entities(scene)
    return CheckResult("no_nan", not bad, float(len(bad)), 0.0, f"non-finite state in entities {bad}" if bad else "")


CHECKS: dict[str, Callable[[Scene, dict[str, Any]], CheckResult]] = {
    "fall_acceleration": fall_acceleration,
    "resting_height": resting_height,
    "no_penetration": no_penetration,
    "rebound_height": rebound_height,
    "sliding_distance": sliding_distance,
    "particles_kept": particles_kept,
    "energy_not_growing": energy_not_growing,
    "no_nan": no_nan,
    **MOTION_CHECKS,
    **PARTICLE_CHECKS,
}


def run_checks(scene: Scene | None, declared: list[dict[str, Any]]) -> list[CheckResult]:
    """Evaluate the declared checks on the recorded scene; with no stepped scene every check fails."""
    results = []
    for spec in declared:
        if spec["check"] not in CHECKS:
            raise KeyError(f"physics check '{spec['check']}' is unknown; known: {sorted(CHECKS)}")
        if scene is None:
            results.append(CheckResult(spec["check"], False, detail="the script never stepped a recorded scene"))
        else:
            results.append(CHECKS[spec["check"]](scene, spec))
    return results


def physics_score(results: list[CheckResult]) -> float:
    """Our physics score, 0-100: the share of checks passed."""
    return 100.0 * sum(r.passed for r in results) / len(results) if results else 0.0
