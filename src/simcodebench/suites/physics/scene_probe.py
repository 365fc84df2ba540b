"""The scene a Genesis script builds, read by running it against a recording stand-in for Genesis.

A fresh physics case is verified before any Genesis run (a run costs minutes of CPU here): its oracle is executed
with ``import genesis`` answered by :class:`_Recorder`, which accepts every attribute and call and remembers the
calls. What comes back is the evaluated scene: the options (``SimOptions``, ``MPMOptions``, ...) with their
keyword arguments, each entity in the order it was added (its morph and material, their keyword arguments, the
velocity it is launched with) and the number of steps. Positions computed by the script (a point on a slope from
its angle) are read as computed, not as written.

Only for our own oracles: the source runs in this process, with every import other than ``genesis`` as usual.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Call:
    """One recorded call: the dotted name it was made on (``gs.morphs.Sphere``, ``scene.add_entity``), its
    arguments, and the object it returned."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    receiver: _Recorder | None = None
    result: _Recorder | None = None


class _Recorder:
    """Stands in for ``genesis`` and everything reached from it: attributes are recorders, calls are logged."""

    def __init__(
        self, name: str, log: list[_Call], made_by: _Call | None = None, owner: _Recorder | None = None
    ) -> None:
        self._name, self._log, self._made_by, self._owner = name, log, made_by, owner

    def __getattr__(self, attr: str) -> _Recorder:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Recorder(f"{self._name}.{attr}", self._log, owner=self)

    def __call__(self, *args: Any, **kwargs: Any) -> _Recorder:
        call = _Call(self._name, args, kwargs, self._owner)
        call.result = _Recorder(f"{self._name}()", self._log, call)
        self._log.append(call)
        return call.result


@dataclass
class Body:
    """An entity as the script added it: its morph (``Sphere``, ``Box``, ``Plane``, ...) and material
    (``Rigid``, ``MPM.Elastic``, ``SPH.Liquid``; None for the default) with their keyword arguments, and the
    velocity given to it with ``set_dofs_velocity`` (None if none)."""

    morph: str
    morph_kwargs: dict[str, Any]
    material: str | None = None
    material_kwargs: dict[str, Any] = field(default_factory=dict)
    velocity: list[float] | None = None


@dataclass
class ProbedScene:
    """What a script built: ``options`` by class name (``SimOptions``, ``SPHOptions``, ...), the ``bodies`` in
    the order they were added, and the number of ``scene.step`` calls."""

    options: dict[str, dict[str, Any]]
    bodies: list[Body]
    steps: int

    def flat(self) -> dict[str, Any]:
        """Every value under one name: ``SimOptions.gravity``, ``body1.morph`` (the morph's class),
        ``body1.pos``, ``body1.material.rho``, ``body1.velocity``; body 0 is the first entity added."""
        values: dict[str, Any] = {f"{name}.{k}": v for name, kwargs in self.options.items() for k, v in kwargs.items()}
        for index, body in enumerate(self.bodies):
            values[f"body{index}.morph"] = body.morph
            values.update({f"body{index}.{k}": v for k, v in body.morph_kwargs.items()})
            values[f"body{index}.material"] = body.material
            values.update({f"body{index}.material.{k}": v for k, v in body.material_kwargs.items()})
            values[f"body{index}.velocity"] = body.velocity
        values["steps"] = self.steps
        return values


def _short(name: str) -> str:
    """``gs.materials.MPM.Elastic`` -> ``MPM.Elastic``; ``gs.morphs.Box`` -> ``Box``."""
    for prefix in ("gs.morphs.", "gs.materials.", "gs.options."):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _plain(value: Any) -> Any:
    """Tuples and lists of numbers as lists of floats (what a case file can compare with)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def probe(source: str, where: str = "<oracle>") -> ProbedScene:
    """Run ``source`` with ``genesis`` recorded (module docstring) and return the scene it built."""
    log: list[_Call] = []
    stand_in = _Recorder("gs", log)
    real_import = builtins.__import__

    def importer(name: str, *args: Any, **kwargs: Any) -> Any:
        return stand_in if name == "genesis" else real_import(name, *args, **kwargs)

    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": {**vars(builtins), "__import__": importer}}
    exec(compile(source, where, "exec"), namespace)  # noqa: S102 - our own oracle, Genesis recorded
    options: dict[str, dict[str, Any]] = {}
    bodies: list[Body] = []
    entities: dict[int, Body] = {}
    steps = 0
    for call in log:
        if call.name.startswith("gs.options."):
            options[_short(call.name)] = {k: _plain(v) for k, v in call.kwargs.items()}
        elif call.name.endswith(".add_entity"):
            morph = call.args[0] if call.args else call.kwargs.get("morph")
            material = call.kwargs.get("material", call.args[1] if len(call.args) > 1 else None)
            body = Body(_short(morph._made_by.name), {k: _plain(v) for k, v in morph._made_by.kwargs.items()})
            if isinstance(material, _Recorder) and material._made_by is not None:
                body.material = _short(material._made_by.name)
                body.material_kwargs = {k: _plain(v) for k, v in material._made_by.kwargs.items()}
            bodies.append(body)
            entities[id(call.result)] = body
        elif call.name.endswith(".set_dofs_velocity") and id(call.receiver) in entities:
            entities[id(call.receiver)].velocity = _plain(list(call.args[0] if call.args else call.kwargs["velocity"]))
        elif call.name.endswith(".step"):
            steps += 1
    return ProbedScene(options, bodies, steps)
