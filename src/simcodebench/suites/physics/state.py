"""The physics state the runner recorded while the script stepped its scene(s), as the scorer reads it.

The runner (:mod:`.runner`) writes ``STATE_FILE`` in the run directory: per scene its time step, gravity and
the number of steps taken, and per entity its kind (``sphere``, ``box``, ``cylinder``, ``plane``, ``mesh``...),
its size, its solver, and per step either the rigid state (position, orientation quaternion w-x-y-z, linear
velocity) or, for particle entities (MPM, SPH, PBD, FEM vertices), summary statistics: centroid, extent
(lowest and highest corner), count and the number of non-finite particles.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

STATE_FILE = "simcodebench_physics.json"


@dataclass
class Entity:
    """One recorded entity: what it is and its per-step state (arrays of shape (steps, ...))."""

    index: int
    kind: str
    solver: str
    size: dict[str, float]
    fixed: bool = False
    t: np.ndarray = field(default_factory=lambda: np.zeros(0))
    series: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def rigid(self) -> bool:
        """Whether the entity has a rigid state (position, orientation, velocity)."""
        return "pos" in self.series

    def extent(self) -> float:
        """A characteristic size: the radius of a sphere, half the largest side of a box (0 when unknown)."""
        if "radius" in self.size:
            return float(self.size["radius"])
        if "size" in self.size:
            return 0.5 * float(np.max(self.size["size"]))
        return 0.0


@dataclass
class Scene:
    """One recorded scene: its step, gravity and entities."""

    dt: float
    gravity: np.ndarray
    steps: int
    entities: list[Entity]


@dataclass
class Recording:
    """Everything the runner recorded: the scenes and the backend it ran on."""

    backend: str
    scenes: list[Scene]

    def main_scene(self) -> Scene | None:
        """The scene stepped the most (the one the script simulated), or None when no scene was stepped."""
        stepped = [s for s in self.scenes if s.steps > 0]
        return max(stepped, key=lambda s: s.steps) if stepped else None


def _entity(data: dict[str, Any]) -> Entity:
    series = {name: np.asarray(values, dtype=float) for name, values in data.get("series", {}).items()}
    return Entity(
        index=int(data["index"]),
        kind=str(data["kind"]),
        solver=str(data.get("solver", "")),
        size={k: v for k, v in data.get("size", {}).items()},
        fixed=bool(data.get("fixed", False)),
        t=np.asarray(data.get("t", []), dtype=float),
        series=series,
    )


def parse_recording(data: dict[str, Any]) -> Recording:
    """A :class:`Recording` from the runner's JSON document."""
    scenes = [
        Scene(
            dt=float(s["dt"]),
            gravity=np.asarray(s.get("gravity", [0.0, 0.0, -9.81]), dtype=float),
            steps=int(s["steps"]),
            entities=[_entity(e) for e in s["entities"]],
        )
        for s in data.get("scenes", [])
    ]
    return Recording(backend=str(data.get("backend", "")), scenes=scenes)


def load_recording(run_dir: Path) -> Recording | None:
    """The recording of a run, or None when the runner wrote none (the script never built a scene)."""
    path = Path(run_dir) / STATE_FILE
    if not path.is_file():
        return None
    return parse_recording(json.loads(path.read_text(encoding="utf-8")))


def nonfinite_entities(scene: Scene) -> list[int]:
    """Indices of the entities whose recorded state holds a NaN or infinity (or non-finite particles)."""
    bad = []
    for entity in scene.entities:
        values = [v for k, v in entity.series.items() if k != "nonfinite"]
        if any(not np.all(np.isfinite(v)) for v in values) or np.any(entity.series.get("nonfinite", 0) > 0):
            bad.append(entity.index)
    return bad


def match_entity(scene: Scene, spec: dict[str, Any]) -> Entity | None:
    """The moving entity that fits a prompt's object: same ``kind`` (and ``solver`` when given), and the size
    closest to the declared ``radius`` or ``size`` within ``size_rtol`` (default 25 %); with ``near`` ([x, y,
    z]), among those that fit, the one that started closest to it (two equal balls). Names of variables play
    no part."""
    rtol = float(spec.get("size_rtol", 0.25))
    best: tuple[float, Entity] | None = None
    for entity in scene.entities:
        if entity.fixed or entity.kind != spec["kind"] or ("solver" in spec and entity.solver != spec["solver"]):
            continue
        mismatch = 0.0
        for key in ("radius", "size", "height"):
            if key in spec:
                if key not in entity.size:
                    mismatch = np.inf
                    break
                want, have = np.atleast_1d(spec[key]).astype(float), np.atleast_1d(entity.size[key]).astype(float)
                if want.shape != have.shape:
                    mismatch = np.inf
                    break
                mismatch = max(mismatch, float(np.max(np.abs(have - want) / np.abs(want))))
        if mismatch > rtol:
            continue
        if "near" in spec and entity.series:
            start = entity.series["pos" if "pos" in entity.series else "centroid"][0]
            mismatch = float(np.linalg.norm(np.asarray(start, dtype=float) - np.asarray(spec["near"], dtype=float)))
        if best is None or mismatch < best[0]:
            best = (mismatch, entity)
    return best[1] if best else None
