"""Adapters between Snakemake's rule objects (wildcards, input, output) and :mod:`simcodebench.steps`.

Each rule's ``run:`` directive is one call to the function of the same name here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import steps
from .batch import evaluate_batch
from .logs import job_log
from .plan import Plan


def _optional(named: Any, key: str) -> Path | None:
    value = named.get(key)
    return Path(value) if value else None


def reference(plan: Plan, wildcards: Any, output: Any, log: Any) -> None:
    """Rule ``reference`` (its messages, and why it failed, in ``log``)."""
    with job_log(Path(log[0])):
        steps.make_reference(plan.case(wildcards.suite, wildcards.case), Path(output.json), Path(output.h5))


def calibration(plan: Plan, wildcards: Any, input: Any, output: Any, resources: Any, log: Any) -> None:
    """Rule ``calibration`` (its messages, and why it failed, in ``log``)."""
    with job_log(Path(log[0])):
        steps.make_calibration(
            plan.case(wildcards.suite, wildcards.case),
            Path(input.ref_json),
            Path(input.ref_h5),
            Path(output[0]),
            plan.runtime,
            resources.get("mpi"),
            plan.images,
        )


def ask(plan: Plan, wildcards: Any, input: Any, output: Any, log: Any) -> None:
    """Rule ``ask``: the attempt's prompt, the agent's reply (through the reply cache, written before
    extraction) and the extracted solution, in that order (messages, and why it failed, in ``log``)."""
    agent, case = plan.agents[wildcards.agent], plan.case(wildcards.suite, wildcards.case)
    sample, attempt = int(wildcards.sample), int(wildcards.attempt)
    previous = Path(plan.sample_dir(agent.name, case.suite.name, case.id, sample)) / str(attempt - 1)
    read = ("messages.json", "response.json", "score.json")  # attempt a-1's, for attempt a > 0
    with job_log(Path(log[0])):
        steps.make_prompt(
            agent,
            case,
            attempt,
            Path(output.md),
            Path(output.messages),
            *(previous / name if attempt else None for name in read),
        )
        steps.make_response(
            agent,
            case,
            sample,
            attempt,
            Path(output.messages),
            Path(output.response),
            Path(plan.results) / "cache" / "replies",
            _optional(input, "calibration"),
            plan.force_reply,
        )
        steps.make_solution(case, Path(output.response), Path(output.manifest))


def evaluate(plan: Plan, wildcards: Any, output: Any, resources: Any, log: Any) -> None:
    """Rule ``evaluate``: execute [+ converge] + score every member of the batch (:mod:`.batch`)."""
    with job_log(Path(log[0])):
        evaluate_batch(
            plan,
            wildcards.agent,
            wildcards.suite,
            int(wildcards.attempt),
            int(wildcards.batch),
            Path(output[0]),
            resources.get("mpi"),
        )


def aggregate(plan: Plan, input: Any, output: Any) -> None:
    """Rule ``aggregate`` (its inputs, the batch records, say every attempt is scored): each sample's
    ``final.json``, then the summary."""
    finals = [Path(p) for p in plan.final_targets()]
    for final in finals:
        steps.make_final([Path(p) for p in plan.score_paths(*final.parent.parts[-4:])], final)
    steps.make_summary(plan, finals, Path(output.csv).parent)
