"""Units of a reported value, read and converted with pint (no hand-written conversion tables).

A few spellings pint does not know are normalised first: ``1``, ``-`` and the empty string mean
dimensionless, ``%`` is percent, and a capitalised ``Ohm`` is pint's ``ohm``. Decibels are a level, not a
ratio: a value in dB converts only to dB (identity), so a reply in dB for a dimensionless target (or the
reverse) is not convertible. Temperatures are built as quantities (never multiplied), so offsets convert
correctly: 60 degC is 333.15 K.
"""

from __future__ import annotations

from functools import cache

import pint

DIMENSIONLESS_SPELLINGS = frozenset({"", "1", "-", "dimensionless", "unitless", "none"})
DECIBEL_SPELLINGS = frozenset({"db", "decibel", "decibels"})


class UnitsError(ValueError):
    """A units string that cannot be read, or that does not convert to the target's units."""


@cache
def registry() -> pint.UnitRegistry:
    """The one unit registry of the scorer."""
    return pint.UnitRegistry(autoconvert_offset_to_baseunit=False)


def normalise(units: str) -> str:
    """``units`` in a spelling pint reads (see the module docstring)."""
    text = str(units).strip()
    if text.lower() in DIMENSIONLESS_SPELLINGS:
        return "dimensionless"
    if text.lower() in DECIBEL_SPELLINGS:
        return "dB"
    if text == "%":
        return "percent"
    return text.replace("Ohm", "ohm").replace("°C", "degC").replace("°F", "degF").replace("º", "deg")


def parse_units(units: str) -> pint.Unit:
    """The pint unit of ``units``; raise :class:`UnitsError` when pint cannot read it."""
    text = normalise(units)
    if text == "dB":
        return registry().Unit("decibel")
    try:
        return registry().Unit(text)
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, ValueError, TypeError) as exc:
        raise UnitsError(f"units '{units}' are not readable ({exc})") from exc
    except AttributeError as exc:  # pint fails so on some malformed expressions
        raise UnitsError(f"units '{units}' are not readable") from exc


def _is_decibel(unit: pint.Unit) -> bool:
    return str(unit) == "decibel"


def convert(value: float, units: str, target_units: str) -> float:
    """``value`` in ``units`` expressed in ``target_units``; raise :class:`UnitsError` when either cannot be
    read or they measure different things."""
    source, target = parse_units(units), parse_units(target_units)
    if _is_decibel(source) or _is_decibel(target):
        if _is_decibel(source) and _is_decibel(target):
            return float(value)
        raise UnitsError(f"'{units}' does not convert to '{target_units}' (a level in dB converts only to dB)")
    try:
        return float(registry().Quantity(float(value), source).to(target).magnitude)
    except pint.errors.DimensionalityError as exc:
        raise UnitsError(f"'{units}' does not convert to '{target_units}'") from exc
