"""Parameter-level verification of a fresh physics scene (a Genesis run costs minutes of CPU here).

The oracle's scene, read back from its source (the morph's size and position, the body's density and friction,
the launch velocity), must be the drawn one; every check's expected value must equal its closed form recomputed
from the reference parameters; and the motion must be over (landed, stopped) within :data:`SETTLE_SHARE` of the
shortest video the suite's variants ask for (1 s for ``physics@smoke``), so that the final-state checks see it at
rest.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, family_of
from simcodebench.core.io import read_yaml
from simcodebench.suites.physics.fresh import FAMILIES, Family, sliding_distance

SETTLE_SHARE = 0.8
"""The motion must be over within this share of the shortest video (the rest shows it at rest)."""


def _literal(node: ast.expr) -> Any:
    """A literal argument's value; None for an expression (``gs.gpu``, ``RES``)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def oracle_scene(source: str) -> dict[str, Any]:
    """The scene an oracle builds, read from its source: the keyword arguments of its ``gs.morphs.Sphere`` or
    ``Box`` (the body; not the plane), the body's density and friction (the ``Rigid`` with ``rho``), and the
    velocity it is launched with (``set_dofs_velocity``), where it sets them."""
    scene: dict[str, Any] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name = node.func.attr
        kwargs = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
        if name in ("Sphere", "Box"):
            scene[name] = kwargs
        elif name == "Rigid" and "rho" in kwargs:
            scene["rho"] = kwargs["rho"]
            scene["body_friction"] = kwargs.get("friction")
        elif name == "Rigid" and "friction" in kwargs:
            scene["floor_friction"] = kwargs["friction"]
        elif name == "set_dofs_velocity":
            scene["velocity"] = list(ast.literal_eval(node.args[0]))
    if "floor_friction" in scene:  # the block and the floor share the drawn coefficient
        scene["friction"] = scene.pop("floor_friction")
        if scene.get("body_friction") != scene["friction"]:
            scene["friction"] = None
    scene.pop("body_friction", None)
    return scene


def _close(a: Any, b: Any) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-9, atol=1e-12))


def _body_size(body: dict[str, Any]) -> float:
    """The height of a body's centre above the ground when it rests (a sphere's radius, a box's half height)."""
    return float(body["radius"]) if body["kind"] == "sphere" else float(body["size"][2]) / 2.0


def _check_values(case: Case, detail: dict[str, Any]) -> list[str]:
    """The checks' expected values against their closed forms from ``hidden.reference.params``."""
    params = case.hidden.reference["params"]
    problems = []
    for spec in case.hidden.scoring["checks"]:
        body = spec.get("object")
        if body is not None:
            size = float(params["radius"]) if body["kind"] == "sphere" else float(params["side"])
            drawn = _body_size(body) if body["kind"] == "sphere" else 2.0 * _body_size(body)
            if not _close(drawn, size):
                problems.append(f"{spec['check']}: its object's size is not the drawn {size}")
        if spec["check"] == "resting_height" and not _close(spec["z"], _body_size(body)):
            problems.append(f"resting_height: z = {spec['z']}, not the body's {_body_size(body)}")
        if spec["check"] == "fall_acceleration" and not _close(spec["g"], params["g"]):
            problems.append(f"fall_acceleration: g = {spec['g']}, not {params['g']}")
        if spec["check"] == "sliding_distance":
            expected = sliding_distance(float(params["v0"]), float(params["mu"]), float(params["g"]))
            detail["sliding_distance"] = expected
            if abs(spec["distance"] - expected) > 1e-3 * expected:
                problems.append(f"sliding_distance: {spec['distance']}, not v0^2 / (2 mu g) = {expected:.4f}")
    return problems


def shortest_video(case: Case) -> float:
    """The shortest video (seconds) the case's suite asks for, under any of its variants."""
    protocol = read_yaml(Path(case.suite.folder) / "suite.yaml")
    durations = [float(protocol["scoring"]["video"]["duration_s"])]
    for variant in (protocol.get("variants") or {}).values():
        video = (variant.get("scoring") or {}).get("video") or {}
        if "duration_s" in video:
            durations.append(float(video["duration_s"]))
    return min(durations)


def _family(case: Case) -> Family:
    published = family_of(case.id)
    if published not in FAMILIES:
        raise KeyError(f"{case.key}: no physics fresh family '{published}'")
    return FAMILIES[published]


def verify(case: Case, workdir: Path) -> FreshCheck:
    """Parameter-level verification of a fresh scene (module docstring); ``workdir`` is not needed."""
    family = _family(case)
    params = dict(case.hidden.reference["params"])
    detail: dict[str, Any] = {}
    problems = _check_values(case, detail)
    source = (case.folder / case.hidden.oracle).read_text(encoding="utf-8")
    built = oracle_scene(source)
    expected = family.oracle_scene(params)  # the reference parameters name every drawn number
    for key, value in expected.items():
        got = built.get(key)
        if isinstance(value, dict):
            same = isinstance(got, dict) and all(k in got and _close(got[k], v) for k, v in value.items())
        else:
            same = got is not None and _close(got, value)
        if not same:
            problems.append(f"the oracle's {key} is {got!r}, not the drawn {value!r}")
    settle, video = family.settle_s(params), shortest_video(case)
    detail.update(settle_s=settle, shortest_video_s=video, settle_share=SETTLE_SHARE)
    if settle > SETTLE_SHARE * video:
        problems.append(f"the motion takes {settle:.2f} s, more than {SETTLE_SHARE:g} of the {video:g} s video")
    if problems:
        return FreshCheck(ok=False, detail={**detail, "reason": "; ".join(problems)})
    return FreshCheck(ok=True, detail=detail)
