"""Adapters between Snakemake's rule objects (wildcards, input, output) and :mod:`simcodebench.steps`.

Each rule's ``run:`` directive is one call to the function of the same name here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import steps
from .convergence import make_convergence
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


def prompt(plan: Plan, wildcards: Any, input: Any, output: Any) -> None:
    """Rule ``prompt``."""
    steps.make_prompt(
        plan.agents[wildcards.agent],
        plan.case(wildcards.suite, wildcards.case),
        int(wildcards.attempt),
        Path(output.md),
        Path(output.messages),
        _optional(input, "previous_messages"),
        _optional(input, "previous_response"),
        _optional(input, "previous_score"),
    )


def generate(plan: Plan, wildcards: Any, input: Any, output: Any) -> None:
    """Rule ``generate``."""
    steps.make_response(
        plan.agents[wildcards.agent],
        plan.case(wildcards.suite, wildcards.case),
        int(wildcards.sample),
        int(wildcards.attempt),
        Path(input.messages),
        Path(output[0]),
        Path(plan.results) / "cache" / "replies",
        _optional(input, "calibration"),
        plan.force_reply,
    )


def extract(plan: Plan, wildcards: Any, input: Any, output: Any) -> None:
    """Rule ``extract``."""
    steps.make_solution(plan.case(wildcards.suite, wildcards.case), Path(input[0]), Path(output[0]))


def execute(plan: Plan, wildcards: Any, input: Any, output: Any, resources: Any) -> None:
    """Rule ``execute``."""
    steps.make_run(
        plan.case(wildcards.suite, wildcards.case),
        Path(input[0]),
        Path(output[0]),
        plan.runtime,
        resources.get("mpi"),
        plan.images,
    )


def converge(plan: Plan, wildcards: Any, input: Any, output: Any, resources: Any) -> None:
    """Rule ``converge``."""
    make_convergence(
        plan.case(wildcards.suite, wildcards.case),
        Path(input.manifest),
        Path(input.run),
        Path(input.ref_json),
        Path(input.ref_h5),
        Path(input.calibration),
        Path(output[0]),
        plan.runtime,
        resources.get("mpi"),
        plan.images,
    )


def score(plan: Plan, wildcards: Any, input: Any, output: Any) -> None:
    """Rule ``score``."""
    steps.make_score(
        plan.agents[wildcards.agent],
        plan.case(wildcards.suite, wildcards.case),
        int(wildcards.sample),
        int(wildcards.attempt),
        Path(input.response),
        Path(input.manifest),
        Path(input.run),
        Path(input.ref_json),
        Path(input.ref_h5),
        Path(input.calibration),
        Path(output[0]),
        _optional(input, "convergence"),
    )


def finalize(plan: Plan, input: Any, output: Any) -> None:
    """Rule ``finalize``."""
    steps.make_final([Path(p) for p in input], Path(output[0]))


def aggregate(plan: Plan, input: Any, output: Any) -> None:
    """Rule ``aggregate``."""
    steps.make_summary(plan, [Path(p) for p in input], Path(output.csv).parent)
