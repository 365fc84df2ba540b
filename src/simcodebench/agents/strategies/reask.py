"""``reask``: CFDQuery's released loop (``CFDQuery/llms.py``): up to 3 tries per question, each sending the same
messages again, taken only while the reply cannot be parsed (F-Extract); a parsed answer, right or wrong, ends
the sample, so the model never learns whether it was right. After the last try an unparsable reply stays wrong.
"""

from __future__ import annotations

from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import Previous, Strategy
from simcodebench.core.cases import Case

RETRIED = "F-Extract"


class Reask(Strategy):
    """Ask again, with the same messages, only when the previous reply was unparsable."""

    name = "reask"
    default_attempts = 3

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """Attempt 0 asks; a later attempt repeats attempt 0's messages after an F-Extract, else is skipped."""
        stage = self.stage(attempt, self.attempts(settings))
        if previous is None:
            return self.to_ask(stage, ["programmer"], render_messages(case))
        if previous.skipped:
            return self.to_skip(stage, previous.score.get("message") or "an earlier try was parsed")
        if previous.score["failure_class"] != RETRIED:
            return self.to_skip(stage, f"try {previous.attempt} was parsed ({previous.score['failure_class']})")
        return self.to_ask(stage, ["programmer"], previous.messages["messages"])
