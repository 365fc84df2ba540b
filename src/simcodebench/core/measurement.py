"""What a suite's scorer reports about one run's outputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Outcome = Literal["ok", "missing", "format", "nonfinite", "invalid"]


@dataclass
class Measurement:
    """The verdict on a run's outputs before thresholds are applied.

    ``outcome`` is ``missing`` (a contract file is absent), ``format`` (unreadable, wrong shape, missing
    field), ``nonfinite`` (NaN or infinity in the outputs), ``invalid`` (not a valid
    target: the fea suite's F-Valid) or ``ok``; only an ``ok`` evaluation carries
    ``error``, the number compared with the accuracy threshold (lower is better). ``metrics`` holds
    diagnostics reported beside it.
    """

    outcome: Outcome
    message: str = ""
    error: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)
