"""The physics suite's runner: the harness's own program, put next to the solution in the sandbox.

It runs the solution (``SOLUTION``) as ``__main__`` after two hooks on Genesis, then writes what it recorded:

- ``gs.init`` is wrapped so that the harness picks the backend, whatever the script asks: the GPU where the
  job has one (``torch.cuda.is_available()``), else the CPU; ``SIMCODEBENCH_GENESIS_BACKEND`` (``cpu``,
  ``gpu``) overrides the choice. The backend asked and the one used are recorded.
- ``gs.Scene.step`` is wrapped so that before the first step and after every step the state of every entity
  of the scene is recorded:
  rigid entities their position, orientation (w, x, y, z) and linear velocity; particle entities (MPM, SPH,
  PBD; FEM vertices) their centroid, extent, count and non-finite count.

The recording is written to ``STATE_FILE`` when the script ends, also when it raises or exits; a script that
never steps a scene leaves a recording without stepped scenes, scored as such. Before Genesis is imported the
runner sets ``HEADLESS`` (unless the job set them): pyglet, which Genesis imports, otherwise loads X11 libraries
that a GPU node's image may lack (``import genesis`` failed on libXrender there). This file is run by the
environment's Python and imports nothing of simcodebench.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import runpy
import signal
import sys
from typing import Any

SOLUTION = "genesis_solution.py"
STATE_FILE = "simcodebench_physics.json"
BACKEND_VARIABLE = "SIMCODEBENCH_GENESIS_BACKEND"
SIZE_FIELDS = ("radius", "size", "height", "scale")
HEADLESS = {"PYGLET_HEADLESS": "true"}
"""What keeps Genesis's import off X11 (pyglet's headless mode renders through EGL)."""


def go_headless() -> None:
    """Set :data:`HEADLESS` where the environment does not say otherwise; call before importing Genesis."""
    for name, value in HEADLESS.items():
        os.environ.setdefault(name, value)


def _floats(value: Any) -> list[float]:
    """A tensor or array (first environment of a batched scene) as a flat list of floats."""
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    import numpy as np

    array = np.asarray(value, dtype=float)
    if array.ndim > 1:
        array = array.reshape(-1, array.shape[-1])[0]
    return [float(v) for v in array.ravel()]


def _size(morph: Any) -> dict[str, Any]:
    size: dict[str, Any] = {}
    for name in SIZE_FIELDS:
        value = getattr(morph, name, None)
        if value is not None:
            size[name] = list(value) if isinstance(value, tuple | list) else float(value)
    lower, upper = getattr(morph, "lower", None), getattr(morph, "upper", None)
    if "size" not in size and lower is not None and upper is not None:
        size["size"] = [float(u) - float(lo) for lo, u in zip(lower, upper, strict=True)]
    return size


def _solver(entity: Any) -> str:
    name = type(entity).__name__.lower()
    for solver in ("rigid", "mpm", "sph", "pbd", "fem", "sf", "avatar", "tool"):
        if name.startswith(solver):
            return solver
    return name.removesuffix("entity")


def _particles(entity: Any) -> Any:
    """The entity's particle (or vertex) positions, shape (n, 3), or None when it exposes none."""
    import numpy as np

    for getter in ("get_particles_pos", "get_particles"):
        if hasattr(entity, getter):
            try:
                value = getattr(entity, getter)()
                break
            except Exception:  # noqa: BLE001 - an entity kind without this accessor: try the next
                continue
    else:
        state = entity.get_state() if hasattr(entity, "get_state") else None
        value = getattr(state, "pos", None)
        if value is None:
            return None
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    array = np.asarray(value, dtype=float)
    return array.reshape(-1, array.shape[-1])[..., :3] if array.ndim >= 2 else None


class Recorder:
    """The state of every stepped scene, kept in memory and written once at the end."""

    def __init__(self) -> None:
        self.backend = {"requested": None, "used": None}
        self.scenes: dict[int, dict[str, Any]] = {}
        self.errors: list[str] = []
        self.written = False

    def _scene(self, scene: Any) -> dict[str, Any]:
        record = self.scenes.get(id(scene))
        if record is None:
            options = scene.options.sim
            entities = []
            for index, entity in enumerate(scene.entities):
                morph = getattr(entity, "morph", None)
                entities.append(
                    {
                        "index": index,
                        "kind": type(morph).__name__.lower() if morph is not None else "unknown",
                        "solver": _solver(entity),
                        "material": type(getattr(entity, "material", None)).__name__,
                        "size": _size(morph),
                        "fixed": bool(getattr(morph, "fixed", False)) or type(morph).__name__ == "Plane",
                        "t": [],
                        "series": {},
                    }
                )
            record = {
                "dt": float(scene.dt),
                "substeps": int(scene.substeps),
                "gravity": [float(g) for g in options.gravity],
                "steps": 0,
                "entities": entities,
                "_objects": scene,
            }
            self.scenes[id(scene)] = record
        return record

    def record(self, scene: Any, initial: bool = False) -> None:
        """Append the state of every entity of ``scene`` after one step (``initial``: before the first, at
        t = 0). A failure of the recorder itself is kept in the document (``recorder_errors``), never raised
        into the script."""
        try:
            self._record(scene, initial)
        except Exception as exc:  # noqa: BLE001 - the harness's fault must not become the script's
            if len(self.errors) < 10:
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def _record(self, scene: Any, initial: bool) -> None:
        record = self._scene(scene)
        record["steps"] += 0 if initial else 1
        t = record["steps"] * record["dt"]
        for entry, entity in zip(record["entities"], scene.entities, strict=False):
            if entry["fixed"]:
                continue
            series = entry["series"]
            if entry["solver"] == "rigid":
                state = {"pos": entity.get_pos(), "quat": entity.get_quat(), "vel": entity.get_vel()}
                for name, value in state.items():
                    series.setdefault(name, []).append(_floats(value))
            else:
                positions = _particles(entity)
                if positions is None:
                    continue
                self._particle_summary(series, positions)
            entry["t"].append(t)

    @staticmethod
    def _particle_summary(series: dict[str, list], positions: Any) -> None:
        import numpy as np

        finite = np.all(np.isfinite(positions), axis=1)
        good = positions[finite]
        nan3 = [math.nan] * 3
        series.setdefault("count", []).append(float(len(positions)))
        series.setdefault("nonfinite", []).append(float(np.count_nonzero(~finite)))
        series.setdefault("centroid", []).append(good.mean(axis=0).tolist() if len(good) else nan3)
        series.setdefault("lo", []).append(good.min(axis=0).tolist() if len(good) else nan3)
        series.setdefault("hi", []).append(good.max(axis=0).tolist() if len(good) else nan3)

    def document(self) -> dict[str, Any]:
        """The JSON document the scorer reads (:mod:`simcodebench.suites.physics.state`)."""
        scenes = [{k: v for k, v in s.items() if not k.startswith("_")} for s in self.scenes.values()]
        return {"backend": self.backend, "scenes": scenes, "recorder_errors": self.errors}

    def write(self, path: str = STATE_FILE) -> None:
        """Write the recording (once; NaN and infinity as JSON's NaN and Infinity tokens, which ``json`` reads)."""
        if self.written:
            return
        self.written = True
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.document(), handle)


def harness_backend(gs: Any) -> Any:
    """The backend the harness runs scripts on: ``$SIMCODEBENCH_GENESIS_BACKEND``, else GPU where CUDA is
    available, else CPU."""
    wanted = os.environ.get(BACKEND_VARIABLE, "").strip().lower()
    if not wanted:
        import torch

        wanted = "gpu" if torch.cuda.is_available() else "cpu"
    if wanted not in ("cpu", "gpu", "cuda"):
        raise SystemExit(f"{BACKEND_VARIABLE}={wanted!r}: use cpu or gpu")
    return getattr(gs, wanted)


def install(gs: Any, recorder: Recorder, reuse_init: bool = False) -> None:
    """Wrap ``gs.init`` (the harness's backend) and ``gs.Scene.step`` (the recorder). ``reuse_init``: a second
    ``gs.init`` is a no-op (the tests run many scripts in one Genesis session)."""
    original_init, original_step = gs.init, gs.Scene.step

    def init(*args: Any, **kwargs: Any) -> Any:
        requested = kwargs.get("backend")
        recorder.backend["requested"] = getattr(requested, "name", str(requested))
        kwargs["backend"] = harness_backend(gs)
        recorder.backend["used"] = kwargs["backend"].name
        if reuse_init and getattr(gs, "_initialized", False):
            return None
        return original_init(*args, **kwargs)

    def step(self: Any, *args: Any, **kwargs: Any) -> Any:
        if id(self) not in recorder.scenes:  # the state the script set up, before its first step
            recorder.record(self, initial=True)
        result = original_step(self, *args, **kwargs)
        recorder.record(self)
        return result

    gs.init, gs.Scene.step = init, step


def main() -> int:
    """Run the solution under the hooks and write the recording, whatever the way the script ends."""
    go_headless()
    import genesis as gs

    recorder = Recorder()
    install(gs, recorder)
    atexit.register(recorder.write)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.argv = [SOLUTION]
    sys.path.insert(0, os.getcwd())
    try:
        runpy.run_path(SOLUTION, run_name="__main__")
    finally:
        recorder.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
