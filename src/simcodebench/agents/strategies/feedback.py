"""``feedback``: PDEAgent-Bench's execution feedback (its Sec. 4.3, ``create_feedback_prompt``).

Each retry is one fresh user message (no conversational memory): a header, the first 2000 characters of the
previous code with a truncation notice, the feedback of the first failed gate only, then the whole original
prompt again. The sample's own numbers are shown (its error, its wall time), never a threshold or a reference
value, unless the agent sets ``leak_thresholds: true`` to reproduce the released code, which prints them.
"""

from __future__ import annotations

from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import Previous, Strategy, after_pass, asked_attempts, shown, user
from simcodebench.core.cases import Case

CODE_LIMIT = 2000

GATES = {"F-Acc": "accuracy", "F-Time": "time"}
"""Gate named by a failure class; every other class is an execution failure."""

CATEGORIES = {
    "F-NoResponse": "the model gave no reply",
    "F-Extract": "no code block could be taken from the reply",
    "F-Timeout": "the program was killed at the wall-clock limit",
    "F-Exec": "the program raised an error or exited with a non-zero status",
    "F-Missing": "a required output file is missing",
    "F-Format": "an output has the wrong format, names or shape",
    "F-NaN": "an output holds NaN or infinite values",
    "F-Valid": "the reported value is not a valid target (units, a default or an echoed input)",
    "F-Infra": "the run failed outside the program (sandbox or environment)",
}

CHECKLISTS = {
    "execution": "Check imports and API names, make sure the program runs to the end within the limits, and "
    "write every required output with the required names, shapes and finite values.",
    "accuracy": "Check the discretisation and its resolution, the boundary and initial conditions, the "
    "parameters and the units, and the convergence of any iterative solver.",
    "time": "Reduce the work: a cheaper but adequate resolution, vectorised operations, a faster solver or "
    "preconditioner, and no needless repetition or output.",
}


def code_excerpt(case: Case, code: str | None) -> str:
    """The first :data:`CODE_LIMIT` characters of ``code`` as a prompt shows it, with a notice when cut (a
    note when the reply held no code)."""
    block = shown(case, None if code is None else code[:CODE_LIMIT])
    if code is not None and len(code) > CODE_LIMIT:
        block += f"\n[Truncated: showing the first {CODE_LIMIT} of {len(code)} characters of the previous code]"
    return block


def gate_feedback(score: dict[str, Any], leak_thresholds: bool) -> str:
    """The feedback of the first failed gate: its category and the sample's own detail (no threshold,
    unless ``leak_thresholds``)."""
    failure = score["failure_class"]
    gate = GATES.get(failure, "execution")
    lines = [f"## Feedback: the {gate} check failed"]
    if gate == "execution":
        lines.append(f"Category: {failure} ({CATEGORIES.get(failure, 'execution failure')})")
    if score.get("visible_detail"):
        lines.append(score["visible_detail"].rstrip())
    if leak_thresholds:
        criteria = [] if score.get("tau_acc") is None else [f"error <= {score['tau_acc']:.3e}"]
        if score.get("tau_time") is not None:
            criteria.append(f"wall time <= {score['tau_time']:.2f} s")
        lines.append("Pass criteria: " + ", ".join(criteria))
    lines.append(f"Checklist: {CHECKLISTS[gate]}")
    return "\n".join(lines)


def feedback_prompt(case: Case, attempt: int, previous: Previous, leak_thresholds: bool) -> str:
    """The one user message of retry ``attempt``: header, previous code, first failed gate, original prompt."""
    code = previous.code(case)
    original = "\n\n".join(m["content"] for m in render_messages(case))
    return "\n\n".join(
        [
            f"ATTEMPT {attempt + 1} - FEEDBACK FROM PREVIOUS ATTEMPT\n\n"
            "The previous submission did not pass the staged evaluation. Fix what the feedback below reports "
            "and give the whole corrected solution again.",
            f"## Previous code\n{code_excerpt(case, code)}",
            gate_feedback(previous.score, leak_thresholds),
            f"## Original task\n\n{original}",
        ]
    )


class Feedback(Strategy):
    """Up to ``attempts`` attempts (default 3); attempts after a pass are skipped."""

    name = "feedback"
    default_attempts = 3
    options = frozenset({"leak_thresholds"})

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """Attempt 0: the suite's prompt; later: the skip marker after a pass, else the feedback prompt."""
        stage = self.stage(attempt, self.attempts(settings))
        if previous is None:
            return self.to_ask(stage, ["programmer"], render_messages(case))
        reason = after_pass(previous)
        if reason is not None:
            return self.to_skip(stage, reason)
        text = feedback_prompt(case, attempt, previous, bool(settings.get("leak_thresholds")))
        return self.to_ask(stage, ["programmer"], user(text))

    def select_attempt(self, scores: list[dict[str, Any]]) -> dict[str, Any]:
        """The first pass, else the executable attempt with the lowest error, else the last attempt asked."""
        asked = asked_attempts(scores)
        passed = [s for s in asked if s["passed"]]
        if passed:
            return passed[0]
        measured = [s for s in asked if s.get("error") is not None]
        return min(measured, key=lambda s: s["error"]) if measured else asked[-1]
