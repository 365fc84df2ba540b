"""``feabench_agent``: FEABench's agent (the paper's Sec. 4) as a strategy, with a final pick blind to the target.

With ``attempts`` = 2N (default 2 x 20, the paper's), attempts 0..N-1 are independent initial samples of the
suite's prompt and attempts N..2N-1 corrections. Each attempt's fitness is its executability plus 1 when it
exported a valid value (the outputs gate passed: a parsable, convertible, non-default, non-echoed value, none
of which reads the target) and ran more than 90% of its statements. The controller keeps the best set (the
fittest solution plus every solution that exported a value) and corrects, at each step, the last solution if
its fitness equals the best, otherwise the last one with probability alpha = last / best fitness and the best
one otherwise (a seeded draw, so reruns agree). A correction shows the chosen code, its execution report
(the runner's failed statements, then the program's output) and the fitness of the other kept solutions.
The attempt that stands for the sample is the fittest (the latest among equals): unlike upstream's pick,
which adds 1 - relative error, it never looks at the target.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.base import (
    Ask,
    Outcome,
    Previous,
    Strategy,
    asked_attempts,
    fill,
    shown,
    template,
    truncate_middle,
    user,
)
from simcodebench.core.cases import Case

EXPORT_EXEC = 0.9
HISTORY = 3
REPORT_LIMIT = 1600


def fitness(score: dict[str, Any]) -> float:
    """Executability + 1 when a valid value was exported and more than 90% of the statements ran."""
    metrics = score.get("metrics") or {}
    executability = float(metrics.get("executability", 0.0))
    exported = any(g["name"] == "outputs" and g["passed"] for g in score.get("gates", []))
    return executability + (1.0 if exported and executability > EXPORT_EXEC else 0.0)


def execution_report(previous: Previous) -> str:
    """The runner's failed statements (or that all ran), then what the program printed, cut in the middle."""
    lines = []
    path = previous.run_dir / "fea_report.json"
    if path.is_file():
        report = json.loads(path.read_text(encoding="utf-8"))
        lines.append(f"{report.get('ok', 0)} of {report.get('statements', 0)} top-level statements ran correctly.")
        lines += [f"line {e.get('line')}: Error: {e.get('error')}" for e in report.get("errors", [])]
        unknown = (report.get("api") or {}).get("unknown") or []
        if unknown:
            lines.append("library names that do not exist here: " + ", ".join(unknown))
    lines.append("program output:\n" + previous.report())
    return truncate_middle("\n".join(lines), REPORT_LIMIT // 2, REPORT_LIMIT // 2)


def update_state(state: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The controller's state after ``entry`` (attempt, fitness, code, report): the new last solution and the
    best set (the fittest, plus every solution that exported a value, most recent last)."""
    kept = [*state.get("kept", []), entry]
    best = max(e["fitness"] for e in kept)
    top = next(e for e in reversed(kept) if e["fitness"] == best)
    kept = [e for e in kept if e is top or e["fitness"] >= 1.0]
    return {"kept": kept, "last": entry, "best": top}


def choose(state: dict[str, Any], seed: str) -> dict[str, Any]:
    """The solution to correct: the last if it is as fit as the best; else the last with probability
    alpha = last / best fitness, the best otherwise."""
    last, best = state["last"], state["best"]
    if last["fitness"] >= best["fitness"]:
        return last
    alpha = last["fitness"] / best["fitness"] if best["fitness"] > 0 else 1.0
    draw = random.Random(int(hashlib.sha256(seed.encode()).hexdigest()[:16], 16)).random()
    return last if draw < alpha else best


class FeabenchAgent(Strategy):
    """N initial samples, then N corrections of the fittest or the last solution."""

    name = "feabench_agent"
    default_attempts = 40
    min_attempts = 2

    def initial(self, settings: dict[str, Any]) -> int:
        """How many attempts are initial samples: the first half."""
        return (self.attempts(settings) + 1) // 2

    def stage(self, attempt: int, attempts: int) -> str:
        """``sample-i`` for the initial samples, ``fix-j`` for the corrections."""
        first = (attempts + 1) // 2
        return f"sample-{attempt}" if attempt < first else f"fix-{attempt - first}"

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """Fold attempt a-1 into the controller's state, then ask a fresh sample or a correction."""
        stage = self.stage(attempt, self.attempts(settings))
        state = dict(previous.carry) if previous is not None else {}
        if previous is not None and not previous.skipped:
            code = previous.code(case)
            entry = {
                "attempt": previous.attempt,
                "fitness": fitness(previous.score),
                "code": code,
                "report": execution_report(previous),
            }
            state = update_state(state, entry)
        if attempt < self.initial(settings) or not state.get("kept"):
            return self.to_ask(stage, ["programmer"], render_messages(case), {"state": state})
        chosen = choose(state, f"{case.key}|{attempt}|{state['last']['code']}")
        history = "\n".join(
            f"- attempt {e['attempt']}: {e['fitness']:.2f}" for e in state["kept"][-HISTORY:] if e is not chosen
        )
        text = fill(
            template("feabench_agent/correction.md"),
            {
                "{{ATTEMPT}}": str(attempt - self.initial(settings) + 1),
                "{{FITNESS}}": f"{chosen['fitness']:.2f}",
                "{{CODE}}": shown(case, chosen["code"]),
                "{{REPORT}}": chosen["report"],
                "{{HISTORY}}": history or "(none)",
                "{{TASK}}": "\n\n".join(m["content"] for m in render_messages(case)),
            },
        )
        return self.to_ask(stage, ["programmer"], user(text), {"state": state})

    def respond(self, payload: dict[str, Any], ask: Ask) -> Outcome:
        """One Programmer call; the controller's state goes on to the next attempt."""
        ask(payload["calls"][0], payload["messages"])
        return Outcome(carry=payload["context"]["state"])

    def select_attempt(self, scores: list[dict[str, Any]]) -> dict[str, Any]:
        """The fittest attempt, the latest among equals; never the error, the pass or the target."""
        asked = asked_attempts(scores)
        return max(reversed(asked), key=fitness) if asked else scores[-1]
