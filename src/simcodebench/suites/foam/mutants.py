"""Mutant operations of the foam suite: each edits the oracle case (``{relative path: text}``) in one way.

Arguments come from ``suite.yaml`` and the case's ``hidden.mutants.<name>`` (the patch, solver or value that
fits the case). An edit that does not apply raises :class:`DictionaryEditError`, so a wrong declaration fails
loudly instead of producing an unbroken "mutant".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from simcodebench.agents.backends.mutant import MutationContext
from simcodebench.suites.foam.dictionaries import DictionaryEditError, remove_patch, set_in_patch, set_scalar

Files = dict[str, str]
CONTROL_DICT = "system/controlDict"
_APPLICATION = re.compile(r"^([ \t]*application[ \t]+)([A-Za-z0-9_]+)([ \t]*;)", re.MULTILINE)


def _file(files: Files, name: str) -> str:
    if name not in files:
        raise DictionaryEditError(f"the oracle case has no file '{name}'")
    return files[name]


def drop_patch(files: Files, ctx: MutationContext) -> Files:
    """Remove ``args.patch`` from the ``boundaryField`` of ``args.file`` (the solver stops: F-Exec)."""
    name = ctx.args["file"]
    return {**files, name: remove_patch(_file(files, name), ctx.args["patch"])}


def swap_solver(files: Files, ctx: MutationContext) -> Files:
    """Run ``args.solver`` instead of the case's application, in ``controlDict`` and in every script."""
    control = _file(files, CONTROL_DICT)
    match = _APPLICATION.search(control)
    if match is None:
        raise DictionaryEditError(f"{CONTROL_DICT} names no application")
    old, new = match.group(2), ctx.args["solver"]
    word = re.compile(rf"\b{re.escape(old)}\b")
    changed = {path: word.sub(new, text) for path, text in files.items() if text.startswith("#!")}
    return {**files, **changed, CONTROL_DICT: _APPLICATION.sub(rf"\g<1>{new}\g<3>", control, count=1)}


def set_entry(files: Files, ctx: MutationContext) -> Files:
    """Set scalar entries ``args.entries`` (``{key: value}``) of ``args.file`` (e.g. a time step far too large)."""
    name = ctx.args["file"]
    text = _file(files, name)
    for key, value in ctx.args["entries"].items():
        text = set_scalar(text, key, str(value))
    return {**files, name: text}


def set_patch_value(files: Files, ctx: MutationContext) -> Files:
    """Set entry ``args.key`` (default ``value``) of patch ``args.patch`` in ``args.file`` to ``args.value``."""
    name = ctx.args["file"]
    text = set_in_patch(_file(files, name), ctx.args["patch"], ctx.args.get("key", "value"), str(ctx.args["value"]))
    return {**files, name: text}


MUTANT_OPERATIONS: dict[str, Callable[[Files, MutationContext], Any]] = {
    op.__name__: op for op in (drop_patch, swap_solver, set_entry, set_patch_value)
}
