"""Valid target: a reported value that is a number in convertible units and neither a default nor an echo.

The paper's LLM judge is replaced by deterministic rules (cases/fea/README.md, "Scoring"):

1. ``result.json`` is a JSON object with a finite number ``value`` and a string ``units``;
2. ``units`` converts to the target's units (:mod:`.units`);
3. the value is not a default: 0 in any units, or 293.15 K (20 degC) for a temperature;
4. the value is not an echoed input: neither the value as written nor the value converted to the target's
   units equals in magnitude (within :data:`ECHO_RTOL`) a number that appears in the problem text the model
   was shown.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from simcodebench.suites.fea.units import UnitsError, convert, parse_units, registry

ECHO_RTOL = 1e-4
"""Relative tolerance of the default and echo comparisons (values written with five significant digits)."""
ROOM_TEMPERATURE_K = 293.15
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Reported:
    """A reply's value, its units as written and the value in the target's units."""

    value: float
    units: str
    converted: float


class Invalid(Exception):
    """The reported value is not a valid target; the message says which rule it breaks."""


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` (integers, decimals, scientific notation, signs included), sorted."""
    return sorted({float(m) for m in NUMBER.findall(text)})


def close(a: float, b: float, rtol: float = ECHO_RTOL) -> bool:
    """``a`` and ``b`` agree to ``rtol`` relative to the larger (zero only equals zero)."""
    return abs(a - b) <= rtol * max(abs(a), abs(b))


def read_result(path: Path, target_units: str) -> Reported:
    """The value and units of ``result.json`` converted to ``target_units``; raise :class:`Invalid`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise Invalid(f"{path.name} is not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise Invalid(f"{path.name} is not a JSON object with 'value' and 'units'")
    value, units = data.get("value"), data.get("units")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Invalid(f"{path.name}: 'value' is {value!r}, not a number")
    if not math.isfinite(value):
        raise Invalid(f"{path.name}: 'value' is {value}, not finite")
    if not isinstance(units, str):
        raise Invalid(f"{path.name}: 'units' is {units!r}, not a string")
    try:
        converted = convert(float(value), units, target_units)
    except UnitsError as exc:
        raise Invalid(f"{path.name}: {exc}") from exc
    return Reported(float(value), units, converted)


def default_reason(reported: Reported, target_units: str) -> str | None:
    """Why the value is a solver or GUI default (0, room temperature), or None."""
    if reported.value == 0 or reported.converted == 0:
        return "the value is 0, a default"
    target = parse_units(target_units)
    if target.dimensionality == registry().Unit("kelvin").dimensionality:
        kelvin = convert(reported.converted, target_units, "K")
        if close(kelvin, ROOM_TEMPERATURE_K):
            return "the value is 20 degC (293.15 K), the default temperature"
    return None


def echo_reason(reported: Reported, prompt_numbers: list[float]) -> str | None:
    """Why the value repeats a number of the problem text (either sign), or None."""
    for number in prompt_numbers:
        for candidate in (reported.value, reported.converted):
            if number != 0 and close(abs(candidate), abs(number)):
                return f"the value {candidate:g} repeats the number {number:g} of the problem text"
    return None


def check(path: Path, target_units: str, prompt_text: str) -> Reported:
    """The reported value when it is a valid target; raise :class:`Invalid` with the rule it breaks."""
    reported = read_result(path, target_units)
    reason = default_reason(reported, target_units) or echo_reason(reported, numbers_in(prompt_text))
    if reason:
        raise Invalid(reason)
    return reported
