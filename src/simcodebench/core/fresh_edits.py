"""Turning a published case into a fresh one: seeded parameter draws and checked text edits.

A suite's fresh-variant generator draws new numbers for a case family (:func:`draw`), writes them into the
published case's texts and oracle by exact substitutions (:func:`substitute`, :func:`substitute_strings`) and
formats them as a person would write them (:func:`number`). A substitution whose text is not found raises: the
published case changed and the family's edits must follow it, rather than a fresh case keeping an old number.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Edits = Sequence[tuple[str, str]]
"""Exact substitutions ``(old, new)``, applied in one pass (a new text is never edited again)."""


@dataclass(frozen=True)
class Param:
    """A numeric parameter of a family: drawn uniformly in ``[lo, hi]`` and rounded to ``digits`` decimals."""

    lo: float
    hi: float
    digits: int

    def __post_init__(self) -> None:
        if not self.lo < self.hi:
            raise ValueError(f"a parameter range needs lo < hi, got [{self.lo}, {self.hi}]")


def draw(rng: np.random.Generator, params: Mapping[str, Param]) -> dict[str, float]:
    """One value per parameter, in the order given (so a seed gives the same draw), rounded and kept in range."""
    values = {}
    for name, param in params.items():
        value = round(float(rng.uniform(param.lo, param.hi)), param.digits)
        values[name] = min(max(value, param.lo), param.hi)
    return values


def ranges(params: Mapping[str, Param]) -> dict[str, tuple[float, float]]:
    """The stated range of each parameter, as the fresh-case report lists it."""
    return {name: (param.lo, param.hi) for name, param in params.items()}


def number(value: float) -> str:
    """``value`` as a person writes it: no trailing zeros, no exponent (0.5, 12, 0.0004)."""
    return np.format_float_positional(float(value), trim="-")


def _pattern(edits: Edits) -> re.Pattern[str]:
    olds = sorted({old for old, _ in edits}, key=len, reverse=True)  # the longest match wins
    return re.compile("|".join(re.escape(old) for old in olds))


def substitute(text: str, edits: Edits, where: str, require: bool = True) -> str:
    """``text`` with every occurrence of each ``old`` replaced by its ``new``, all in one pass.

    Raises ValueError naming ``where`` when an ``old`` does not occur (unless ``require`` is false: a text
    quoting only part of another, as a mutant's edit quotes its oracle).
    """
    missing = [old for old, _ in edits if old not in text] if require else []
    if missing:
        raise ValueError(f"{where}: {missing!r} not found; the published case changed, update its fresh edits")
    table = dict(edits)
    return _pattern(edits).sub(lambda match: table[match.group(0)], text)


def substitute_strings(data: Any, edits: Edits, where: str) -> Any:
    """A copy of ``data`` (nested dicts and lists) with :func:`substitute`'s edits applied to every string in it.

    Each ``old`` must occur somewhere; a string without any is left as it is.
    """
    found: set[str] = set()
    table = dict(edits)
    pattern = _pattern(edits)

    def edit(value: Any) -> Any:
        if isinstance(value, str):
            found.update(old for old in table if old in value)
            return pattern.sub(lambda match: table[match.group(0)], value)
        if isinstance(value, dict):
            return {key: edit(item) for key, item in value.items()}
        if isinstance(value, list):
            return [edit(item) for item in value]
        return copy.deepcopy(value)

    result = edit(data)
    missing = [old for old in table if old not in found]
    if missing:
        raise ValueError(f"{where}: {missing!r} not found; the published case changed, update its fresh edits")
    return result
