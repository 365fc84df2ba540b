"""What every physics check shares: its result, the entity it looks at, orientations and the first contact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simcodebench.suites.physics.state import Entity, Scene, match_entity


@dataclass
class CheckResult:
    """One check's verdict: the measured value beside the expected one."""

    name: str
    passed: bool
    value: float | None = None
    expected: float | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "name": self.name,
            "passed": self.passed,
            "value": self.value,
            "expected": self.expected,
            "detail": self.detail,
        }


def rotation(quat: np.ndarray) -> np.ndarray:
    """Rotation matrices (n, 3, 3) of unit quaternions (n, 4) in w-x-y-z order."""
    q = quat / np.linalg.norm(quat, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], axis=-1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], axis=-1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=-1),
        ],
        axis=1,
    )


def lowest_point(entity: Entity) -> np.ndarray:
    """Height of the entity's lowest point at every step: a sphere's centre minus its radius, a cylinder's lowest
    rim point (its axis, the body's z axis, at cosine c from the vertical: h/2 |c| + r sqrt(1 - c^2) below the
    centre), a box's lowest corner (from its orientation), a particle entity's extent; otherwise the centre."""
    if not entity.rigid:
        return entity.series["lo"][:, 2]
    z = entity.series["pos"][:, 2]
    if entity.kind == "cylinder" and "radius" in entity.size and "height" in entity.size:
        c = rotation(entity.series["quat"])[:, 2, 2]
        radius, height = float(entity.size["radius"]), float(entity.size["height"])
        return z - 0.5 * height * np.abs(c) - radius * np.sqrt(np.clip(1.0 - c * c, 0.0, 1.0))
    if "radius" in entity.size and entity.kind in ("sphere", "cylinder"):
        return z - float(entity.size["radius"])
    if "size" in entity.size:
        half = 0.5 * np.asarray(entity.size["size"], dtype=float)
        matrices = rotation(entity.series["quat"])
        return z - np.abs(matrices[:, 2, :]) @ half
    return z


def moving_entity(scene: Scene, spec: dict[str, Any], name: str) -> Entity | CheckResult:
    """The moving entity the check's ``object`` names, or the failed check that says why there is none."""
    entity = match_entity(scene, spec["object"])
    if entity is None:
        return CheckResult(name, False, detail=f"no moving entity matches the object {spec['object']}")
    if len(entity.t) < 3:
        return CheckResult(name, False, detail=f"entity {entity.index}: fewer than 3 recorded steps")
    return entity


def first_contact(entity: Entity) -> int:
    """Index of the first step where a falling entity stops falling faster (its vertical velocity increases),
    or the last index when it never does."""
    vz = entity.series["vel"][:, 2] if entity.rigid else np.gradient(entity.series["centroid"][:, 2], entity.t)
    rising = np.nonzero(np.diff(vz) > 1e-9)[0]
    return int(rising[0]) if len(rising) else len(vz) - 1
