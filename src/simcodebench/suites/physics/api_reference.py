"""Print a Markdown API reference of the installed Genesis, from its own signatures and docstrings.

Run by the genesis environment's Python (``python api_reference.py``), never imported by the harness: the
wheel ships neither documentation nor examples, so the prompt's ``[CONTEXT]`` is built from what the package
itself says about ``gs.Scene``, ``gs.options``, ``gs.morphs``, ``gs.materials``, ``gs.surfaces`` and the camera.
One section per class or function: its signature, then its docstring cut to ``MAX_DOC_LINES`` lines.
"""

from __future__ import annotations

import inspect
import os
import sys
from types import ModuleType
from typing import Any

MAX_DOC_LINES = 25


class _Shown:
    """A default value shown by its type's name (Genesis's own reprs need an initialised logger)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _shown(default: Any) -> Any:
    try:
        repr(default)
        return default
    except Exception:  # noqa: BLE001 - any failing repr is replaced, whatever it raises
        return _Shown(f"<{type(default).__name__}>")


def _signature(target: Any) -> str:
    """Parameter names and defaults, no annotations (Genesis's validated types would fill pages, with memory
    addresses that change from run to run); a pydantic options class is shown by its fields."""
    fields = getattr(target, "model_fields", None)
    if isinstance(fields, dict):
        shown = [name if field.is_required() else f"{name}={_shown(field.default)!r}" for name, field in fields.items()]
        return "(" + ", ".join(shown) + ")"
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return "(...)"
    parameters = [
        p.replace(annotation=inspect.Parameter.empty, default=p.default if p.default is p.empty else _shown(p.default))
        for p in signature.parameters.values()
    ]
    return str(signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty))


def _doc(target: Any) -> str:
    lines = (inspect.getdoc(target) or "").strip().splitlines()
    if len(lines) > MAX_DOC_LINES:
        lines = [*lines[:MAX_DOC_LINES], "..."]
    return "\n".join(lines)


def section(name: str, target: Any, methods: tuple[str, ...] = ()) -> str:
    """One Markdown section: ``name`` with its signature and docstring, then those of ``methods``."""
    text = [f"### {name}{_signature(target)}", "", _doc(target), ""]
    for method in methods:
        member = getattr(target, method, None)
        if member is not None:
            text += [f"#### {name}.{method}{_signature(member)}", "", _doc(member), ""]
    return "\n".join(text)


def public_classes(module: ModuleType, prefix: str) -> list[tuple[str, Any]]:
    """The public classes reachable as ``prefix.Name`` (one level of submodules, e.g. ``gs.materials.MPM``)."""
    found = []
    for name in sorted(dir(module)):
        if name.startswith("_"):
            continue
        member = getattr(module, name)
        if inspect.isclass(member):
            found.append((f"{prefix}.{name}", member))
        elif inspect.ismodule(member) and member.__name__.startswith(module.__name__):
            found += [(f"{prefix}.{name}.{n}", m) for n, m in sorted(vars(member).items()) if _public_class(n, m)]
    return found


def _public_class(name: str, member: Any) -> bool:
    return not name.startswith("_") and inspect.isclass(member) and member.__module__.startswith("genesis")


KNOWN_ISSUES = {
    "1.4.5": 'Known issue of this version: `gs.options.SPHOptions(pressure_solver="DFSPH")` applies gravity twice '
    'per substep (a fluid falls at twice g); the default `"WCSPH"` is correct.',
}
"""Engine defects a careful writer cannot see from the documentation, stated where the reference starts (so a
budget cut keeps them): measured, and the source lines named, in cases/physics/README.md."""


def reference() -> str:
    """The whole reference, in the order a script uses the API."""
    os.environ.setdefault("PYGLET_HEADLESS", "true")  # as the runner does: no X11 needed to import Genesis
    import genesis as gs
    from genesis.vis.camera import Camera

    parts = [f"# Genesis {gs.__version__} API reference (generated from the installed package)", ""]
    parts += [KNOWN_ISSUES[gs.__version__], ""] if gs.__version__ in KNOWN_ISSUES else []
    parts.append("## Initialisation\n\n" + section("gs.init", gs.init))
    scene_methods = ("add_entity", "add_camera", "build", "step", "reset")
    parts.append("## Scene\n\n" + section("gs.Scene", gs.Scene, scene_methods))
    camera_methods = ("render", "start_recording", "stop_recording", "set_pose")
    parts.append("## Camera\n\n" + section("Camera", Camera, camera_methods))
    for title, module, prefix in (  # options last: the longest part, the first a budget cuts
        ("Morphs", gs.morphs, "gs.morphs"),
        ("Materials", gs.materials, "gs.materials"),
        ("Surfaces", gs.surfaces, "gs.surfaces"),
        ("Options", gs.options, "gs.options"),
    ):
        classes = [(n, c) for n, c in public_classes(module, prefix) if c.__module__.startswith("genesis")]
        parts.append(f"## {title}\n\n" + "\n".join(section(n, c) for n, c in classes))
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(reference())
