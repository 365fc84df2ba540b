"""The summary's section on agents stopped by their budget (``max_cost_usd``), their time limit (``max_minutes``) or
the user (Ctrl-C on ``simcodebench eval``): their unasked samples, per suite."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from simcodebench.agents.budget import NOT_ASKED
from simcodebench.core.failure_classes import BUDGET

if TYPE_CHECKING:
    import pandas as pd

SPEND = re.compile(r"after \$([0-9.]+)")


def _spend(message: str) -> float:
    """The spend a budget stop's message names (the latest stop names the most)."""
    found = SPEND.search(message)
    return float(found.group(1)) if found else 0.0


def markdown(frame: pd.DataFrame) -> str:
    """One line per agent whose final attempts include samples its budget left unasked (``F-Budget``): how many,
    per suite, and the spend it stopped after; empty when there are none."""
    stopped = frame[frame["final"] & frame["failure_class"].eq(BUDGET)]
    if stopped.empty:
        return ""
    lines = []
    for agent, rows in stopped.groupby("agent"):
        suites = ", ".join(f"{suite} {len(group)}" for suite, group in rows.groupby("suite"))
        reason = max(rows["message"], key=_spend).removeprefix(NOT_ASKED)
        lines.append(f"- **{agent}**: {reason}; {len(rows)} samples not asked ({suites})")
    return (
        "\n## Agents stopped by their budget, time limit or the user (F-Budget)\n\n"
        "These samples were not asked: they count neither as the model's failures nor as F-Infra. Run again to "
        "ask them (after a budget stop, with a higher `max_cost_usd`; the replies already received come from the "
        "cache).\n\n" + "\n".join(lines) + "\n"
    )
