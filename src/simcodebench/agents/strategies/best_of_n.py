"""``best_of_n``: n independent samples (the agent's ``samples``), each a ``single`` run, and one of them chosen
per case without looking at the reference: executability first, then the sample's own diagnostics."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from simcodebench.agents.strategies.single import Single


class BestOfN(Single):
    """Samples as ``single``; the choice among them is :func:`select_sample`, made when aggregating."""

    name = "best_of_n"


def _number(value: Any, default: float) -> float:
    """``value`` as a float; ``default`` when it is missing (None, NaN or pandas' NA)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return default if math.isnan(number) else number


def _flag(value: Any) -> bool:
    """``value`` as a bool; False when it is missing (None or pandas' NA)."""
    try:
        return bool(value)
    except TypeError:
        return False


def selection_key(candidate: Mapping[str, Any]) -> tuple[bool, float, float, int]:
    """Sort key of a sample's final attempt (smaller is better): executable first, then fewer warnings on
    stderr, then the shorter wall time, then the lower sample index. None of these reads the reference."""
    return (
        not _flag(candidate.get("executable")),
        _number(candidate.get("stderr_warnings"), 0.0),
        _number(candidate.get("wall_s"), math.inf),
        int(candidate["sample"]),
    )


def select_sample(candidates: list[Mapping[str, Any]]) -> int:
    """The sample index chosen among the final attempts of one (agent, suite, case)."""
    return int(min(candidates, key=selection_key)["sample"])
