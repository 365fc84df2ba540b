"""Mutants: the reference solution broken on purpose, each landing in one declared failure class.

A suite lists its mutants in ``suite.yaml`` (``name``, ``expect``, ``op``, ``args``); a case may override a
mutant's ``args`` under ``hidden.mutants.<name>``, and its class there with ``expect`` where the same edit fails
differently in that case (a time step too large that ruins the answer instead of crashing the solver). An
operation turns the oracle's artifact (see :mod:`simcodebench.agents.artifacts`: a source for ``code`` suites) into
the mutant's; None means no reply at all.
Output operations act on the first file of the case's output contract, after the oracle has written it.
The operations here act on programs; a suite plugin adds its own in ``mutant_operations``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simcodebench.agents.artifacts import render_reply
from simcodebench.agents.backends.alternative import alternative_artifact, has_alternative
from simcodebench.agents.backends.oracle import oracle_artifact
from simcodebench.agents.rewrites import scale_constants
from simcodebench.core.cases import Case
from simcodebench.core.failure_classes import MODEL_FAILURES
from simcodebench.core.registry import plugin_of


@dataclass(frozen=True)
class Mutant:
    """One mutant of one case: its name, the class it must land in, its artifact and the reply giving it."""

    name: str
    declared_class: str
    source: Any
    reply: str | None


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


def outlast_target(ctx: MutationContext) -> float:
    """The run time a slow mutant reaches: ``tau_time`` plus a tenth of the slack to the wall-clock limit."""
    if ctx.tau_time is None:
        raise ValueError(f"{ctx.case.key}: mutant 'sleep_past_time_gate' needs a time gate")
    wall = float(ctx.case.resources["wall_s"])
    target = ctx.tau_time + 0.1 * (wall - ctx.tau_time)
    if target >= wall:
        raise ValueError(
            f"{ctx.case.key}: no run time lies between tau_time={ctx.tau_time:g} s and the wall-clock limit {wall:g} s"
        )
    return target


def sleep_past_time_gate(source: str, ctx: MutationContext) -> str:
    """Run the reference solution, then sleep until the run has lasted past the time threshold (F-Time).

    The target (:func:`outlast_target`) is measured from the start of the script, so the mutant lands between
    the time gate and the wall-clock limit however loaded the machine is.
    """
    target = outlast_target(ctx)
    started = "import time as _mtime\n_mstart = _mtime.perf_counter()"
    finish = (
        "\n\n# --- mutant: outlast the time gate ---\n"
        f"_mtime.sleep(max(0.0, {target:.3f} - (_mtime.perf_counter() - _mstart)))\n"
    )
    return _prepend(source, started) + finish


def poison_output(source: str, ctx: MutationContext) -> str:
    """Overwrite the first field of the output with NaN (F-NaN)."""
    return source + _append_transform(
        ctx,
        "_md = dict(_mnp.load(_mfile))\n_md[_mfields[0]] = _mnp.full(_mnp.shape(_md[_mfields[0]]), _mnp.nan)\n"
        "_mnp.savez(_mfile, **_md)\n",
        "_md = _mj.load(open(_mfile))\n_md[_mfields[0]] = float('nan')\n_mj.dump(_md, open(_mfile, 'w'))\n",
    )


def break_output_shape(source: str, ctx: MutationContext) -> str:
    """Drop the last entry of the first field (a number becomes an empty array), or the first field of a JSON
    object (F-Format)."""
    return source + _append_transform(
        ctx,
        "_md = dict(_mnp.load(_mfile))\n_md[_mfields[0]] = _mnp.atleast_1d(_md[_mfields[0]])[:-1]\n"
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


def degrade_when_refined(source: str, ctx: MutationContext) -> str:
    """Right at the written resolution, wrong once the convergence check refines it (F-Conv): every field is
    scaled by ``1 + rate (NX / NX_written - 1)``, with NX the first of the case's ``spec.resolution`` names and
    ``rate`` 0.05 unless ``args.rate`` says (a case with a convergence floor needs the error to cross it)."""
    name = ctx.case.visible.spec["resolution"][0]
    _, found = scale_constants(source, [name], 1)
    if name not in found:
        raise ValueError(f"{ctx.case.key}: mutant 'degrade_when_refined' needs a top-level '{name} = <int>'")
    written = found[name][0]
    rate = float(ctx.args.get("rate", 0.05))
    return source + _append_transform(
        ctx,
        f"_mgrow = {rate!r} * ({name} / {written} - 1)\n_md = dict(_mnp.load(_mfile))\nfor _mk in _mfields:\n"
        "    _md[_mk] = (1 + _mgrow) * _mnp.asarray(_md[_mk])\n_mnp.savez(_mfile, **_md)\n",
        "raise SystemExit('degrade_when_refined needs an npz output')\n",
    )


def replace_source(source: str, ctx: MutationContext) -> str:
    """Replace the text ``args.old``, which must occur exactly once, by ``args.new``: a targeted bug in the
    solver itself (a wrong boundary condition, a coarser mesh), landing where the suite declares."""
    old, new = ctx.args["old"], ctx.args["new"]
    if source.count(old) != 1:
        raise ValueError(f"{ctx.case.key}: mutant 'replace_source' needs {old!r} exactly once in the oracle")
    return source.replace(old, new)


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
        degrade_when_refined,
        replace_source,
    )
}


BASES = ("oracle", "alternative")
"""What a mutant breaks: the case's reference solution (default) or its second solution."""


def mutant_names(case: Case, only: list[str] | None = None, base: str = "oracle") -> list[str]:
    """Names of the case's mutants, in suite order (sample ``i`` of a mutant agent is mutant ``i``); with
    ``only``, those of its names the suite declares; none for a case without the ``base`` solution."""
    if base == "alternative" and not has_alternative(case):
        return []
    names = [m["name"] for m in case.suite.mutants]
    return names if only is None else [name for name in names if name in only]


def operation(case: Case, name: str) -> Callable[[Any, MutationContext], Any]:
    """The operation ``name``: one of :data:`OPERATIONS` or of the suite plugin's ``mutant_operations``."""
    return {**OPERATIONS, **plugin_of(case).mutant_operations}[name]


def build_mutant(
    case: Case, index: int, tau_time: float | None, only: list[str] | None = None, base: str = "oracle"
) -> Mutant:
    """Mutant number ``index`` of ``case`` (among the names in ``only``, when given) applied to the ``base``
    solution: the oracle, or the case's second solution (``alternative``; the mutant is then named
    ``<name>@alternative``)."""
    name = mutant_names(case, only, base)[index]
    declaration = next(m for m in case.suite.mutants if m["name"] == name)
    args = {**declaration.get("args", {}), **case.hidden.mutants.get(declaration["name"], {})}
    expect = args.pop("expect", declaration["expect"])
    # a mutant of the second solution may fail another way (a case's ``expect_alternative``): still a failure
    expect_alternative = args.pop("expect_alternative", expect)
    if base == "alternative":
        expect = expect_alternative
    if expect not in (*MODEL_FAILURES, "Pass"):  # Pass: an edit that must not count against it (other units)
        raise ValueError(f"{case.key}: mutant '{declaration['name']}' expects '{expect}', not a failure class")
    op = operation(case, declaration["op"])
    artifact = alternative_artifact(case) if base == "alternative" else oracle_artifact(case)
    source = op(artifact, MutationContext(case=case, tau_time=tau_time, args=args))
    return Mutant(
        name=name if base == "oracle" else f"{name}@{base}",
        declared_class=expect,
        source=source,
        reply=render_reply(case, source),
    )
