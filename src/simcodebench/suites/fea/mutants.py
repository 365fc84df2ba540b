"""Mutant operations of the fea suite: the oracle's ``result.json`` rewritten after it ran, or the oracle run
on its coarsest level. The rewrite is plain Python appended to the oracle (the sandbox has no pint), with
every conversion worked out here, with pint, when the mutant is built."""

from __future__ import annotations

from collections.abc import Callable

from simcodebench.agents.backends.mutant import MutationContext
from simcodebench.suites.fea.units import parse_units, registry
from simcodebench.suites.fea.validity import numbers_in

RESULT = "result.json"


def _rewrite(source: str, body: str) -> str:
    return (
        source
        + "\n\n# --- mutant: rewrite result.json after the reference solution wrote it ---\n"
        + f"import json as _mj\n_md = _mj.load(open({RESULT!r}))\n{body}\n_mj.dump(_md, open({RESULT!r}, 'w'))\n"
    )


def _target_units(ctx: MutationContext) -> str:
    return str(ctx.case.visible.spec["target"]["units"])


def _is_temperature(units: str) -> bool:
    return parse_units(units).dimensionality == registry().Unit("kelvin").dimensionality


def write_default(source: str, ctx: MutationContext) -> str:
    """Report a default instead of the result: 20 degC for a temperature, else 0 in the target's units
    (F-Valid)."""
    units = _target_units(ctx)
    value, written = (20.0, "degC") if _is_temperature(units) else (0.0, units)
    return _rewrite(source, f"_md['value'], _md['units'] = {value!r}, {written!r}")


def echo_input(source: str, ctx: MutationContext) -> str:
    """Report the first non-zero number of the problem text (or ``args.value``) in the target's units
    (F-Valid)."""
    value = ctx.args.get("value")
    if value is None:
        value = next(x for x in numbers_in(ctx.case.visible.problem) if x > 0)
    return _rewrite(source, f"_md['value'], _md['units'] = {float(value)!r}, {_target_units(ctx)!r}")


def alternative_units(units: str) -> tuple[str, float, float]:
    """Other units measuring the same thing, and ``(a, b)`` with ``v_other = a v + b``: kelvin for a
    temperature in degrees Celsius (and the reverse), percent for a dimensionless target, the other spelling of
    decibels, the SI base units otherwise."""
    ureg = registry()
    unit = parse_units(units)
    if str(unit) == "decibel":  # a level converts only to itself: the other spelling
        return ("decibel" if units.strip() != "decibel" else "dB"), 1.0, 0.0
    if _is_temperature(units):
        other = "K" if str(unit) != "kelvin" else "degC"
    elif unit.dimensionless:
        other = "dimensionless" if str(unit) == "percent" else "percent"
    else:
        other = str(ureg.Quantity(1.0, unit).to_base_units().units)
    offset = float(ureg.Quantity(0.0, unit).to(other).magnitude)
    scale = float(ureg.Quantity(1.0, unit).to(other).magnitude) - offset
    return other, scale, offset


def convert_units(source: str, ctx: MutationContext) -> str:
    """Report the same result in other, convertible units (:func:`alternative_units`): must still pass."""
    other, scale, offset = alternative_units(_target_units(ctx))
    return _rewrite(source, f"_md['value'], _md['units'] = {scale!r} * _md['value'] + {offset!r}, {other!r}")


def foreign_units(source: str, ctx: MutationContext) -> str:
    """Report the value in units of another quantity (kilograms, or metres for a mass) (F-Valid)."""
    mass = parse_units(_target_units(ctx)).dimensionality == registry().Unit("kg").dimensionality
    return _rewrite(source, f"_md['units'] = {'m' if mass else 'kg'!r}")


def coarsest_level(source: str, ctx: MutationContext) -> str:
    """Run the oracle on its level 0 (``args.level``), its value scaled by ``args.scale`` (default 1) for a
    case whose level 0 is already within the threshold (F-Acc)."""
    level = int(ctx.args.get("level", 0))
    scale = float(ctx.args.get("scale", 1.0))
    coarse = f"import sys as _ms\n_ms.argv = [_ms.argv[0], '--level', '{level}']\n{source}"
    return _rewrite(coarse, f"_md['value'] = {scale!r} * _md['value']") if scale != 1.0 else coarse


MUTANT_OPERATIONS: dict[str, Callable[[str, MutationContext], str]] = {
    op.__name__: op for op in (write_default, echo_input, convert_units, foreign_units, coarsest_level)
}
