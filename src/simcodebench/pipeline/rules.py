"""Adapters between Snakemake's rule objects (wildcards, input, output) and :mod:`simcodebench.pipeline.steps`.

Each rule's ``run:`` directive is one call to the function of the same name here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.core.logs import job_log
from simcodebench.pipeline import steps
from simcodebench.pipeline.evaluate import evaluate_batch
from simcodebench.pipeline.plan import Plan


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
    """Rule ``ask``: the attempt's ``prompt.md`` and ``messages.json``, the agent's reply ``response.json``
    (through the reply cache) and the extracted ``solution/``, in that order, in the attempt's folder (messages,
    and why it failed, in ``log``). Only ``solution/manifest.json``, written last, is declared as output to
    Snakemake: each declared file costs every job of a large plan (README, "What a job is, and why")."""
    agent, case = plan.agents[wildcards.agent], plan.case(wildcards.suite, wildcards.case)
    sample, attempt = int(wildcards.sample), int(wildcards.attempt)
    folder = Path(plan.sample_dir(wildcards.agent, wildcards.suite, wildcards.case, sample))
    here, previous = folder / str(attempt), folder / str(attempt - 1)
    read = ("messages.json", "response.json", "score.json")  # attempt a-1's, for attempt a > 0
    with job_log(Path(log[0])):
        steps.make_prompt(
            agent,
            case,
            attempt,
            here / "prompt.md",
            here / "messages.json",
            *(previous / name if attempt else None for name in read),
        )
        steps.make_response(
            agent,
            case,
            sample,
            attempt,
            here / "messages.json",
            here / "response.json",
            Path(plan.results) / "cache" / "replies",
            _optional(input, "calibration"),
            plan.force_reply,
        )
        steps.make_solution(case, here / "response.json", Path(output.manifest))


def evaluate(plan: Plan, wildcards: Any, output: Any, resources: Any, log: Any) -> None:
    """Rule ``evaluate``: execute [+ converge] + score every member of the batch (:mod:`.batch`)."""
    with job_log(Path(log[0])):
        evaluate_batch(
            plan,
            wildcards.suite,
            int(wildcards.attempt),
            wildcards.batch,
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
