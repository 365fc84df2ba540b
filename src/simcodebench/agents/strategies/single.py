"""``single``: one Programmer call per attempt. Attempt 0 is the suite's prompt; with ``attempts`` > 1, each
retry continues the conversation with the last reply and its first failed gate (never a threshold)."""

from __future__ import annotations

from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import Messages, Previous, Strategy, after_pass
from simcodebench.core.cases import Case

FEEDBACK_HEADER = "Your previous solution did not pass. What happened when it ran:"


def retry_messages(earlier: Messages, previous_reply: str | None, previous_score: dict[str, Any]) -> Messages:
    """Messages of a retry: the conversation so far, the last reply and its first failed gate (no threshold)."""
    messages = list(earlier)
    if previous_reply:
        messages.append({"role": "assistant", "content": previous_reply})
    feedback = f"{FEEDBACK_HEADER}\n- failed check: {previous_score['failure_class']}\n"
    if previous_score.get("visible_detail"):
        feedback += f"- detail: {previous_score['visible_detail']}\n"
    feedback += "Fix the problem and give the whole corrected script again."
    messages.append({"role": "user", "content": feedback})
    return messages


class Single(Strategy):
    """Single shot, with conversational retries when the agent asks for several attempts."""

    name = "single"

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """Attempt 0: the suite's prompt; later: the skip marker after a pass, else the conversational retry."""
        stage = self.stage(attempt, self.attempts(settings))
        if previous is None:
            return self.to_ask(stage, ["programmer"], render_messages(case))
        reason = after_pass(previous)
        if reason is not None:
            return self.to_skip(stage, reason)
        messages = retry_messages(previous.messages["messages"], previous.response.get("text"), previous.score)
        return self.to_ask(stage, ["programmer"], messages)
