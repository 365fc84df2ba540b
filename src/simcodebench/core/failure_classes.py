"""The failure classes a sample lands in, in gate order: the first gate a sample misses names its class."""

from __future__ import annotations

FAILURE_CLASSES = (
    "Pass",
    "F-NoResponse",
    "F-Context",
    "F-Extract",
    "F-Timeout",
    "F-Exec",
    "F-Missing",
    "F-Format",
    "F-NaN",
    "F-Valid",
    "F-Acc",
    "F-Conv",
    "F-Time",
    "F-Infra",
)
INFRA = "F-Infra"
"""Infrastructure failure: reported on its own, never counted against a model."""
MODEL_FAILURES = tuple(c for c in FAILURE_CLASSES if c not in ("Pass", INFRA))
"""The classes that count against a model."""
BUDGET = "F-Budget"
"""Not asked: the agent's ``max_cost_usd`` was reached (:mod:`simcodebench.agents.budget`). Reported apart, like
a case that failed (F-Case), never counted against the model; a run with a higher budget asks it."""
