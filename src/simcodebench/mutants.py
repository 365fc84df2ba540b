"""Mutants: the reference solution broken on purpose, each landing in one declared failure class.

A suite lists its mutants in ``suite.yaml`` (``name``, ``expect``, ``op``, ``args``); a case may override a
mutant's ``args`` under ``hidden.mutants.<name>``. An operation turns the oracle's source into the mutant's.
Output operations act on the first file of the case's output contract, after the oracle has written it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cases import Case


@dataclass(frozen=True)
class Mutant:
    """One mutant of one case: its name, the class it must land in, and its source."""

    name: str
    declared_class: str
    source: str


@dataclass(frozen=True)
class MutationContext:
    """What an operation may use: the case, its calibrated time threshold and the operation's arguments."""

    case: Case
    tau_time: float | None
    args: dict[str, Any]

    def output_file(self) -> dict[str, Any]:
        """The first file of the output contract."""
        return self.case.visible.contract["files"][0]

    def fields(self) -> list[str]:
        """Field names of the first contract file, minus those the ``keep`` argument protects."""
        keep = set(self.args.get("keep", []))
        return [name for name in (self.output_file().get("fields") or {}) if name not in keep]


def _prepend(source: str, code: str) -> str:
    return f"{code}\n{source}"


def _append_transform(ctx: MutationContext, npz_body: str, json_body: str) -> str:
    """Code appended to the oracle that rewrites the first output file with a transformation."""
    spec = ctx.output_file()
    fields = json.dumps(ctx.fields())
    body = npz_body if spec["format"] == "npz" else json_body
    return (
        "\n\n# --- mutant: rewrite the output after the reference solution wrote it ---\n"
        "import json as _mj\nimport numpy as _mnp\n"
        f"_mfile, _mfields = {spec['name']!r}, {fields}\n" + body
    )


def raise_at_start(source: str, ctx: MutationContext) -> str:
    """Raise before doing anything (F-Exec)."""
    return _prepend(source, 'raise RuntimeError("mutant: deliberate failure")')


def exit_at_start(source: str, ctx: MutationContext) -> str:
    """Exit with status 0 before writing anything (F-Missing)."""
    return _prepend(source, "import sys\nsys.exit(0)")


def hang(source: str, ctx: MutationContext) -> str:
    """Never finish (F-Timeout)."""
    return _prepend(source, "import time\nwhile True:\n    time.sleep(1)")


def sleep_past_time_gate(source: str, ctx: MutationContext) -> str:
    """Sleep past the time threshold but well inside the wall-clock limit (F-Time)."""
    if ctx.tau_time is None:
        raise ValueError(f"{ctx.case.key}: mutant 'sleep_past_time_gate' needs a time gate")
    wall = float(ctx.case.resources["wall_s"])
    seconds = min(1.25 * ctx.tau_time + 1.0, 0.5 * (ctx.tau_time + wall))
    if seconds <= ctx.tau_time or seconds >= wall:
        raise ValueError(
            f"{ctx.case.key}: no sleep lies between tau_time={ctx.tau_time:g} s and the wall-clock limit {wall:g} s"
        )
    return _prepend(source, f"import time\ntime.sleep({seconds:.3f})")


def poison_output(source: str, ctx: MutationContext) -> str:
    """Overwrite the first field of the output with NaN (F-NaN)."""
    return source + _append_transform(
        ctx,
        "_md = dict(_mnp.load(_mfile))\n_md[_mfields[0]] = _mnp.full(_mnp.shape(_md[_mfields[0]]), _mnp.nan)\n"
        "_mnp.savez(_mfile, **_md)\n",
        "_md = _mj.load(open(_mfile))\n_md[_mfields[0]] = float('nan')\n_mj.dump(_md, open(_mfile, 'w'))\n",
    )


def break_output_shape(source: str, ctx: MutationContext) -> str:
    """Drop the last entry of the first field, or the first field of a JSON object (F-Format)."""
    return source + _append_transform(
        ctx,
        "_md = dict(_mnp.load(_mfile))\n_md[_mfields[0]] = _mnp.asarray(_md[_mfields[0]])[:-1]\n"
        "_mnp.savez(_mfile, **_md)\n",
        "_md = _mj.load(open(_mfile))\ndel _md[_mfields[0]]\n_mj.dump(_md, open(_mfile, 'w'))\n",
    )


def perturb_output(source: str, ctx: MutationContext) -> str:
    """Map every field ``v`` to ``1.5 v + 0.5``: finite, well-formed and wrong (F-Acc)."""
    return source + _append_transform(
        ctx,
        "_md = dict(_mnp.load(_mfile))\nfor _mk in _mfields:\n    _md[_mk] = 1.5 * _mnp.asarray(_md[_mk]) + 0.5\n"
        "_mnp.savez(_mfile, **_md)\n",
        "_md = _mj.load(open(_mfile))\nfor _mk in _mfields:\n    _md[_mk] = 1.5 * _md[_mk] + 0.5\n"
        "_mj.dump(_md, open(_mfile, 'w'))\n",
    )


OPERATIONS: dict[str, Callable[[str, MutationContext], str]] = {
    op.__name__: op
    for op in (
        raise_at_start,
        exit_at_start,
        hang,
        sleep_past_time_gate,
        poison_output,
        break_output_shape,
        perturb_output,
    )
}


def oracle_source(case: Case) -> str:
    """The case's reference solution."""
    return (case.folder / case.hidden.oracle).read_text(encoding="utf-8")


def mutant_names(case: Case) -> list[str]:
    """Names of the case's mutants, in suite order (sample ``i`` of a mutant agent is mutant ``i``)."""
    return [m["name"] for m in case.suite.mutants]


def build_mutant(case: Case, index: int, tau_time: float | None) -> Mutant:
    """Mutant number ``index`` of ``case``."""
    declaration = case.suite.mutants[index]
    args = {**declaration.get("args", {}), **case.hidden.mutants.get(declaration["name"], {})}
    op = OPERATIONS[declaration["op"]]
    source = op(oracle_source(case), MutationContext(case=case, tau_time=tau_time, args=args))
    return Mutant(name=declaration["name"], declared_class=declaration["expect"], source=source)
