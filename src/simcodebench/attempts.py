"""The attempt dimension: what attempt ``a > 0`` is asked, when it is skipped, and which attempt counts."""

from __future__ import annotations

from typing import Any

FEEDBACK_HEADER = "Your previous solution did not pass. What happened when it ran:"


def should_skip(previous_score: dict[str, Any]) -> str | None:
    """Why the next attempt is skipped (an earlier one passed), or None when it is asked."""
    if previous_score["status"] == "skipped":
        return previous_score.get("message") or "an earlier attempt passed"
    if previous_score["passed"]:
        return f"attempt {previous_score['attempt']} passed"
    return None


def retry_messages(
    earlier: list[dict[str, str]], previous_reply: str | None, previous_score: dict[str, Any]
) -> list[dict[str, str]]:
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


def select_attempt(scores: list[dict[str, Any]]) -> dict[str, Any]:
    """The attempt that stands for the sample: the first pass, else the last attempt that was asked."""
    asked = [s for s in scores if s["status"] != "skipped"]
    for score in asked:
        if score["passed"]:
            return score
    return asked[-1]
