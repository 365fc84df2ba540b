"""Fresh variants: never-published instances of a suite's case families, drawn from a seed.

A suite plugin that can make new instances of its published cases implements two hooks
(:meth:`~simcodebench.core.plugin.SuitePlugin.fresh_case` and
:meth:`~simcodebench.core.plugin.SuitePlugin.verify_fresh_case`) that exchange the two records below;
:mod:`simcodebench.pipeline.generate` drives them and writes the suite ``cases/<suite>-fresh-s<seed>/``.

Names, fixed here so the generator, the pipeline and the comparison agree:

- the fresh suite of ``fem`` drawn with seed 11 is ``fem-fresh-s11`` (:func:`fresh_suite_name`);
- its ``k``-th case, an instance of the published case ``poisson_square_kappa``, is
  ``poisson_square_kappa-fresh<k>`` (:func:`fresh_case_id`), so the family of a fresh case is read from its id
  (:func:`family_of`) wherever the case files are not at hand (a bundle, a comparison of runs).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

FRESH_INFIX = "-fresh-s"
"""Between a suite's name and the seed in its fresh suite's name."""
_FRESH_SUITE = re.compile(rf"^(?P<parent>.+){FRESH_INFIX}(?P<seed>\d+)$")
_FRESH_CASE = re.compile(r"^(?P<family>.+)-fresh(?P<index>\d+)$")


@dataclass(frozen=True)
class FreshDraw:
    """One drawn instance of a published case (its *family*), as :meth:`SuitePlugin.fresh_case` returns it.

    ``case``: the whole ``case.yaml`` mapping, as the family's own but with the new numbers and shapes (the
    framework sets ``id`` and adds a tag); ``files``: other files of the case folder, written beside
    ``case.yaml`` under these relative names (text or bytes: a mesh, an input table, a changed oracle);
    ``params``: the drawn parameters, JSON-able (what ``generate_report.json`` records); ``ranges``: the
    family's stated range ``(low, high)`` of each numeric parameter, which the framework checks every numeric
    entry of ``params`` it names against.
    """

    case: dict[str, Any]
    params: dict[str, Any]
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    files: dict[str, str | bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class FreshCheck:
    """The verdict of :meth:`SuitePlugin.verify_fresh_case` on a drawn case's reference: ``ok`` keeps the case,
    otherwise the draw is dropped and replaced. ``detail``: what was compared (errors, observed rates, the
    refinement levels, the tolerance), JSON-able; floats are rounded when written to the report."""

    ok: bool
    detail: dict[str, Any] = field(default_factory=dict)


def fresh_suite_name(parent: str, seed: int) -> str:
    """``fem``, 11 -> ``fem-fresh-s11``."""
    return f"{parent}{FRESH_INFIX}{seed}"


def parent_of(suite: str) -> tuple[str, int] | None:
    """The published suite and the seed of a fresh suite's name (a variant ``@...`` kept on the parent), or None
    for a suite that is not fresh: ``fem-fresh-s11@released`` -> (``fem@released``, 11)."""
    base, at, variant = suite.partition("@")
    found = _FRESH_SUITE.match(base)
    if not found:
        return None
    return found["parent"] + (at + variant if at else ""), int(found["seed"])


def fresh_case_id(family: str, index: int) -> str:
    """The id of the ``index``-th fresh case, an instance of the published case ``family``."""
    return f"{family}-fresh{index}"


def family_of(case_id: str) -> str | None:
    """The published case a fresh case's id names (:func:`fresh_case_id`), or None."""
    found = _FRESH_CASE.match(case_id)
    return found["family"] if found else None


def draw_rng(seed: int, draw: int) -> np.random.Generator:
    """The random generator of draw number ``draw`` under ``seed``: independent streams from numpy's
    ``SeedSequence(seed, spawn_key=(draw,))``, so draw ``n`` is the same whatever was drawn before it."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(draw,)))


def out_of_range(params: dict[str, Any], ranges: dict[str, tuple[float, float]]) -> list[str]:
    """The parameters named in ``ranges`` whose value is missing, not a finite number, or outside ``[low, high]``
    (a list of numbers is checked entry by entry)."""
    bad = []
    for name, (low, high) in sorted(ranges.items()):
        value = params.get(name)
        values = value if isinstance(value, list | tuple) else [value]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values)
        if value is None or not numeric or not all(low <= v <= high for v in values):
            bad.append(f"{name}={value!r} not in [{low}, {high}]")
    return bad


def rounded(value: Any, digits: int = 6) -> Any:
    """``value`` with every float rounded to ``digits`` significant digits (dicts, lists and tuples walked), so a
    report does not carry round-off that differs between machines; NaN and infinities become strings."""
    if isinstance(value, dict):
        return {str(k): rounded(v, digits) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v, digits) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return float(f"{value:.{digits}g}")
    return value
