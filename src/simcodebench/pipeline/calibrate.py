"""The ``calibrate`` stage (``workflow/rules/calibrate.smk``): time the oracle on the judging machine and derive
the case's thresholds.

``t_base`` is the median wall time of ``repeats`` oracle runs after ``warmup`` untimed ones, measured exactly
as an agent's run is measured (same runtime, same limits; interpreter start, imports and any JIT are inside).
``e_base`` is the oracle's error against the reference (the median over the timed runs).

``timing: released`` (a suite's ``calibration`` setting) takes instead the seconds the oracle's solve took inside
its process, as the run measured them (:meth:`~simcodebench.core.plugin.SuitePlugin.in_process_seconds`), the
way PDEAgent-Bench's released harness times its oracle; an agent's run is still timed whole, as upstream's is.
"""

from __future__ import annotations

import logging
import shutil
import statistics
from pathlib import Path
from typing import Any

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.case_failures import failure, failure_of, write_failed_calibration
from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import write_json
from simcodebench.core.logs import job_log
from simcodebench.core.references import Reference, load_reference
from simcodebench.core.registry import plugin_of
from simcodebench.core.versions import case_version
from simcodebench.execution.harness_runs import using
from simcodebench.execution.provenance import provenance
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution
from simcodebench.execution.slots import shared_held
from simcodebench.pipeline.plan import Plan

log = logging.getLogger("simcodebench")


class CalibrationError(Exception):
    """The oracle failed its own case: the case or its reference is broken, not a model."""


def accuracy_threshold(policy: dict[str, Any], e_base: float) -> float | None:
    """``fixed``: the policy's value; ``calibrated``: ``max(alpha * e_base, minimum)``; ``none``: None."""
    if policy["policy"] == "none":
        return None
    if policy["policy"] == "fixed":
        return float(policy["value"])
    return max(float(policy["alpha"]) * e_base, float(policy.get("minimum", 0.0)))


def time_threshold(policy: dict[str, Any] | None, t_base: float) -> float | None:
    """``max(alpha * t_base, floor_s)``, or None when the suite has no time gate."""
    if policy is None:
        return None
    return max(float(policy["alpha"]) * t_base, float(policy.get("floor_s", 0.0)))


def fixed_calibration(case: Case, runtime: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The record of a suite that calibrates nothing (``calibration.oracle: false``): a fixed accuracy threshold
    or none at all, and no time gate, so the oracle is not run (CFDCodeBench's legacy variant, whose released
    file layout our oracles do not follow; Re^4's paper variant, judged by execution success alone)."""
    policy = case.threshold_policy()
    if policy["accuracy"]["policy"] not in ("fixed", "none") or policy.get("time") is not None:
        raise CalibrationError(
            f"{case.key}: calibration.oracle is false, so the accuracy policy must be fixed or none and time null"
        )
    fixed = policy["accuracy"]["policy"] == "fixed"
    return {
        "suite": case.suite.name,
        "case": case.id,
        "e_base": None,
        "t_base": None,
        "settings": settings,
        "policy": policy,
        "thresholds": {"accuracy": float(policy["accuracy"]["value"]) if fixed else None, "time": None},
        "timing_includes": "nothing: the oracle is not run (fixed thresholds)",
        "case_version": case_version(case),
        "provenance": provenance(case.suite.environment, runtime),
    }


TIMING_INCLUDES = {
    "subprocess": "interpreter start, imports and the whole script, as for an agent's run",
    "released": "the oracle's solve inside its process only (timing: released, as PDEAgent-Bench times its oracle)",
}


def timed_seconds(case: Case, run_dir: Path, wall_s: float, timing: str) -> float:
    """The seconds a calibration run counts: its whole wall time (``subprocess``), or its solve inside the
    process (``released``); raise :class:`CalibrationError` where the suite's runs do not measure the latter."""
    if timing == "subprocess":
        return wall_s
    seconds = plugin_of(case).in_process_seconds(case, run_dir)
    if seconds is None:
        raise CalibrationError(
            f"{case.key}: calibration timing 'released' needs the run's in-process solve time, which suite "
            f"{case.suite.name}'s runs do not record; use timing: subprocess"
        )
    return seconds


def calibrate_case(
    case: Case,
    reference: Reference,
    work_dir: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run the oracle ``warmup + repeats`` times (``mpi``: the MPI launcher; ``images``: apptainer images) and
    return the calibration record."""
    settings = {"warmup": 1, "repeats": 5, "timing": "subprocess", **case.suite.data.get("calibration", {})}
    if not settings.get("oracle", True):
        return fixed_calibration(case, runtime, settings)
    if work_dir.exists():
        shutil.rmtree(work_dir)
    solution_dir = work_dir / "solution"
    solution_dir.mkdir(parents=True)
    write_solution(extract_files(case, oracle_reply(case)), solution_dir)
    walls, errors = [], []
    for index in range(settings["warmup"] + settings["repeats"]):
        run_dir = work_dir / f"run{index}"
        result = execute_solution(case, solution_dir, run_dir, runtime, mpi, images)
        if result.status != "ok":
            stderr = (run_dir / "stderr.txt").read_text(errors="replace")[-2000:] if run_dir.exists() else ""
            raise CalibrationError(
                f"{case.key}: the oracle run {index} ended '{result.status}' ({result.message}); stderr tail:\n{stderr}"
            )
        measurement = plugin_of(case).measure(case, run_dir, reference)
        if measurement.outcome != "ok" or measurement.error is None:
            raise CalibrationError(f"{case.key}: the oracle's outputs are unusable: {measurement.message}")
        if index >= settings["warmup"]:
            walls.append(timed_seconds(case, run_dir, result.wall_s, settings["timing"]))
            errors.append(measurement.error)
    policy = case.threshold_policy()
    e_base, t_base = statistics.median(errors), statistics.median(walls)
    limit = policy["accuracy"].get("e_base_limit")
    if limit is not None and not e_base < float(limit):
        raise CalibrationError(
            f"{case.key}: e_base {e_base:.3g} >= {float(limit):g}: the oracle's own configuration misses the "
            "reference by more than the suite's e_base_limit allows (drop the case)"
        )
    tau_acc = accuracy_threshold(policy["accuracy"], e_base)
    if tau_acc is not None and e_base > tau_acc:
        raise CalibrationError(f"{case.key}: the oracle's error {e_base:.3e} exceeds its threshold {tau_acc:.3e}")
    shutil.rmtree(work_dir)
    return {
        "suite": case.suite.name,
        "case": case.id,
        "e_base": e_base,
        "t_base": t_base,
        "errors": errors,
        "wall_times": walls,
        "t_cv": statistics.pstdev(walls) / t_base if len(walls) > 1 and t_base > 0 else 0.0,
        "settings": settings,
        "policy": policy,
        "thresholds": {"accuracy": tau_acc, "time": time_threshold(policy.get("time"), t_base)},
        "timing_includes": TIMING_INCLUDES[settings["timing"]],
        "case_version": case_version(case),
        "provenance": provenance(case.suite.environment, runtime),
    }


def make_calibration(
    case: Case,
    ref_json: Path,
    ref_h5: Path,
    out: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> None:
    """Time the oracle (``mpi``: the job's MPI launcher; ``images``: apptainer images) and write the case's
    thresholds; a failed reference, or a calibration that raises, is recorded instead (:mod:`.case_failures`)."""
    failed = failure_of(ref_json)
    if failed is not None:
        write_failed_calibration(out, failed)
        return
    concrete = resolve_runtime(runtime, case.suite.environment, images)
    log.info("calibration %s: oracle runs on runtime %s", case.key, concrete)
    work = out.with_suffix(".work")
    try:
        record = calibrate_case(case, load_reference(ref_json, ref_h5), work, concrete, mpi, images)
    except InfrastructureError:  # the machine's failure, not the case's: the job fails and is retried
        raise
    except Exception as exc:  # the case's own failure: reported as F-Case, never the whole run's
        write_failed_calibration(out, failure("calibration", exc))
        return
    write_json(out, record)


def run(plan: Plan, wildcards: Any, input: Any, output: Any, resources: Any, log: Any) -> None:
    """Rule ``calibration`` (its messages, and why it failed, in ``log``)."""
    with job_log(Path(log[0])), shared_held(), using(plan.runtime, plan.images):  # timed runs: alone on a core
        make_calibration(
            plan.case(wildcards.suite, wildcards.case),
            Path(input.ref_json),
            Path(input.ref_h5),
            Path(output[0]),
            plan.runtime,
            resources.get("mpi"),
            plan.images,
        )
