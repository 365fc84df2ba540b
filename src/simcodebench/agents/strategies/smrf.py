"""``smrf``: PhysCodeBench's SMRF, a Generator, an Error Corrector and a Solution Refiner.

Attempt 0: the Generator answers the suite's prompt. While the last attempt does not execute (run to the end,
outputs written, well-formed and finite), the Corrector fixes it, up to ``attempts - 2`` times (3 by default).
The Refiner then "further optimizes" the first executable attempt "maintaining code structure", once, in the
last slot, and its result is run and scored like every stage. Slots not needed are skipped: after an
executable attempt the remaining corrections, and the refinement when no attempt executed. The prompts are
ours (``templates/smrf/``), with the paper's wording where it gives some.

The paper's ablation rows are the option ``without``: ``[refiner]`` leaves the Refiner out (the Generator, then
corrections in every later slot; 4 attempts by default: up to 3 corrections), ``[corrector]`` the Corrector
(the Generator, then the Refiner on it when it executes; 2 attempts by default, any slot between them skipped).
"""

from __future__ import annotations

from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import (
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

GENERATOR = Role("generator", writes_code=True)
CORRECTOR = Role("corrector", writes_code=True)
REFINER = Role("refiner", writes_code=True)


def error_report(previous: Previous) -> str:
    """What the Corrector is told: the failed check, its visible detail and the program's output."""
    failure = previous.score["failure_class"]
    lines = [f"Failed check: {failure}"]
    if failure not in ("F-Exec", "F-Timeout") and previous.score.get("visible_detail"):
        lines.append(previous.score["visible_detail"].rstrip())
    lines.append(f"\nProgram output:\n{truncate_middle(previous.report())}")
    return "\n".join(lines)


def refine_target(case: Case, previous: Previous) -> dict[str, Any]:
    """What the Refiner works on, carried through the skipped slots: the attempt, its code and run output."""
    return {"attempt": previous.attempt, "code": previous.code(case), "report": previous.report()}


class Smrf(Strategy):
    """Generate, correct while it fails (up to ``attempts - 2`` times), refine once."""

    name = "smrf"
    roles = (GENERATOR, CORRECTOR, REFINER)
    default_attempts = 5
    min_attempts = 2
    options = frozenset({"without"})

    def attempts(self, settings: dict[str, Any]) -> int:
        """The agent's ``attempts``, else 5 (4 without the Refiner, 2 without the Corrector)."""
        if "attempts" in settings:
            return int(settings["attempts"])
        left_out = set(settings.get("without") or ())
        return 4 if "refiner" in left_out else 2 if "corrector" in left_out else self.default_attempts

    def stage(self, attempt: int, attempts: int, refiner: bool = True) -> str:
        """``generate``, ``correct-1`` ... ``correct-<attempts-2>``, ``refine`` (without the Refiner:
        corrections up to the last slot)."""
        if attempt == 0:
            return "generate"
        return "refine" if refiner and attempt == attempts - 1 else f"correct-{attempt}"

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """The Generator, a Corrector on a failed attempt, the Refiner on the first executable one, or a skip."""
        attempts = self.attempts(settings)
        left_out = set(settings.get("without") or ())
        stage = self.stage(attempt, attempts, "refiner" not in left_out)
        if previous is None:
            return self.to_ask(stage, ["generator"], render_messages(case))
        if stage != "refine":
            if previous.skipped:
                return self.to_skip(stage, previous.score.get("message") or "not needed", previous.carry)
            if previous.executable:
                reason = f"attempt {previous.attempt} executes"
                return self.to_skip(stage, reason, {"refine": refine_target(case, previous)})
            if "corrector" in left_out:
                return self.to_skip(stage, "the Corrector is left out (without: [corrector])", previous.carry)
            slots = {"<code>": shown(case, previous.code(case)), "<report>": error_report(previous)}
            return self.to_ask(stage, ["corrector"], self._messages("corrector", case, slots))
        if previous.skipped:
            target = previous.carry.get("refine")
        else:
            target = refine_target(case, previous) if previous.executable else None
        if target is None:
            corrections = 0 if "corrector" in left_out else attempts - 2
            return self.to_skip(stage, f"no attempt executed after {corrections} correction(s)")
        slots = {"<code>": shown(case, target["code"]), "<report>": truncate_middle(target["report"])}
        return self.to_ask(stage, ["refiner"], self._messages("refiner", case, slots))

    @staticmethod
    def _messages(role: str, case: Case, slots: dict[str, str]) -> list[dict[str, str]]:
        """The role's template filled with the problem (the suite's user prompt), ``slots`` and the language."""
        problem = render_messages(case)[-1]["content"]
        language = case.suite.data["extraction"]["language"]
        return user(fill(template(f"smrf/{role}.md"), {"<problem>": problem, "<language>": language, **slots}))

    def select_attempt(self, scores: list[dict[str, Any]]) -> dict[str, Any]:
        """The last stage asked: the refined program when it was made, as SMRF's output is the Refiner's."""
        return asked_attempts(scores)[-1]
