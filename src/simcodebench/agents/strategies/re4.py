"""``re4``: Re^4's Consultant, Programmer and Reviewer (Cheng, Zhang, He; arXiv 2508.20729), with the paper's
role prompts verbatim (``templates/re4/``).

Attempt 0 is ans-0: the Consultant expands the problem, the Programmer answers. Attempt k > 0 is rev-k: the
Reviewer sees the problem, the Consultant's expansion, attempt k-1's code and its run report (800 leading and
800 trailing characters), then the Programmer revises without the Consultant's text. Every stage runs and is
scored; all rounds are forced unless the agent sets ``early_stop: true``, which ends the sample at the first
ACCEPT. The Problem Description is the suite's rendered user prompt (it holds the output contract).
"""

from __future__ import annotations

import re
from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import (
    Ask,
    Outcome,
    Previous,
    Role,
    Strategy,
    asked_attempts,
    fill,
    shown,
    template,
    truncate_middle,
    user,
)
from simcodebench.core.cases import Case

PROBLEM = "< *Problem Description* >"
EXPANSION = "< *Complete description of the problem* >"
EXPANSION_AND_PLANS = f"{EXPANSION}\n< *Descriptions of Multiple solution plans* >"
SOLUTION = "< *Code and Executing Results* >"
REVIEW = "< *Advice to Algorithm and Debug* >"

CONSULTANT = Role(
    "consultant",
    writes_code=False,
    oracle_text="Solve the problem as stated with a standard, well-tested numerical method.",
)
REVIEWER = Role("reviewer", writes_code=False, oracle_text="ACCEPT")
PROGRAMMER = Role("programmer", writes_code=True)

_DECISION = re.compile(r"(?:decision|verdict)\W{0,12}(ACCEPT|REVISE)", re.IGNORECASE)
_WORD = re.compile(r"\b(ACCEPT|REVISE)\b")


def verdict(review: str | None) -> str:
    """The Reviewer's ACCEPT or REVISE: a "decision"/"verdict" line wins, else the only one of the two
    upper-case words the review uses; UNCLEAR otherwise."""
    if not review:
        return "UNCLEAR"
    decision = _DECISION.search(review)
    if decision:
        return decision.group(1).upper()
    words = set(_WORD.findall(review))
    return words.pop() if len(words) == 1 else "UNCLEAR"


def solution_text(case: Case, previous: Previous) -> str:
    """The "Code and Executing Results" slot: the code, then its run report cut to 800 + 800 characters."""
    return f"{shown(case, previous.code(case))}\n\nExecuting results:\n{truncate_middle(previous.report())}"


class Re4(Strategy):
    """ans-0, then ``attempts - 1`` review rounds (default 2: rev-1, rev-2)."""

    name = "re4"
    roles = (CONSULTANT, PROGRAMMER, REVIEWER)
    default_attempts = 3
    options = frozenset({"early_stop"})

    def stage(self, attempt: int, attempts: int) -> str:
        """``ans-0``, ``rev-1``, ``rev-2``, ..."""
        return "ans-0" if attempt == 0 else f"rev-{attempt}"

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """ans-0: the Consultant's messages; rev-k: the Reviewer's, with what the revising Programmer needs."""
        stage = self.stage(attempt, self.attempts(settings))
        problem = render_messages(case)[-1]["content"]
        if previous is None:
            messages = user(fill(template("re4/consultant.md"), {PROBLEM: problem}))
            return self.to_ask(stage, ["consultant", "programmer"], messages, {"problem": problem})
        if previous.skipped:
            return self.to_skip(stage, previous.score.get("message") or "an earlier round ended", previous.carry)
        expansion = previous.carry.get("expansion", "")
        solution = solution_text(case, previous)
        messages = user(fill(template("re4/reviewer.md"), {PROBLEM: problem, EXPANSION: expansion, SOLUTION: solution}))
        context = {
            "problem": problem,
            "expansion": expansion,
            "solution": solution,
            "reviewed_attempt": previous.attempt,
            "early_stop": bool(settings.get("early_stop")),
        }
        return self.to_ask(stage, ["reviewer", "programmer"], messages, context)

    def respond(self, payload: dict[str, Any], ask: Ask) -> Outcome:
        """Consultant then Programmer (ans-0), or Reviewer then revising Programmer (rev-k)."""
        context = payload["context"]
        if payload["calls"][0] == "consultant":
            expansion = ask("consultant", payload["messages"]) or ""
            slots = {PROBLEM: context["problem"], EXPANSION_AND_PLANS: expansion}
            ask("programmer", user(fill(template("re4/programmer.md"), slots)))
            return Outcome(carry={"expansion": expansion})
        review = ask("reviewer", payload["messages"]) or ""
        decision = verdict(review)
        carry = {"expansion": context["expansion"]}
        if context["early_stop"] and decision == "ACCEPT":
            return Outcome(carry, decision, f"the Reviewer accepted attempt {context['reviewed_attempt']}")
        slots = {PROBLEM: context["problem"], SOLUTION: context["solution"], REVIEW: review}
        ask("programmer", user(fill(template("re4/programmer_revise.md"), slots)))
        return Outcome(carry, decision)

    def select_attempt(self, scores: list[dict[str, Any]]) -> dict[str, Any]:
        """The last stage asked (rev-2 when both rounds ran), as the paper reports the loop's result."""
        return asked_attempts(scores)[-1]
