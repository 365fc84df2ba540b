"""Staged gates: the first gate a sample misses names its failure class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.agents.backends.reply import BUDGET, CONTEXT
from simcodebench.core.cases import Case
from simcodebench.core.failure_classes import BUDGET as BUDGET_CLASS
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.core.registry import plugin_of

OUTCOME_CLASS = {"missing": "F-Missing", "format": "F-Format", "nonfinite": "F-NaN", "invalid": "F-Valid"}
RESPONSE_CLASS = {CONTEXT: "F-Context", BUDGET: BUDGET_CLASS}
"""The response gate's class for a reply without text, by its status (else F-NoResponse)."""
RUN_CLASS = {"timeout": "F-Timeout", "error": "F-Exec", "killed": "F-Exec", "infra": "F-Infra"}


class GateRecorder:
    """Collects gate verdicts in order and remembers the first one missed."""

    def __init__(self) -> None:
        self.gates: list[dict[str, Any]] = []
        self.failure: str | None = None
        self.message = ""

    def check(self, name: str, passed: bool, failure_class: str, detail: str = "") -> bool:
        """Record gate ``name``; on a miss, set the failure class (first miss wins)."""
        self.gates.append({"name": name, "passed": passed, "detail": detail})
        if not passed and self.failure is None:
            self.failure, self.message = failure_class, detail
        return passed


def run_metrics(case: Case, run: dict[str, Any], run_dir: Path) -> dict[str, float]:
    """The suite plugin's metrics of a run that started, whatever its outcome (its ``run_metrics``):
    what the run itself measured, such as the fea suite's executability."""
    if run.get("status") in (None, "not_run") or not run_dir.is_dir():
        return {}
    return plugin_of(case).run_metrics(case, run_dir)


def solution_diagnostics(case: Case, manifest: dict[str, Any], solution_dir: Path | None) -> dict[str, float]:
    """The suite plugin's diagnostics of an extracted artifact (its ``diagnose``; empty without an artifact)."""
    if solution_dir is None or manifest["status"] != "ok":
        return {}
    return plugin_of(case).diagnose(case, solution_dir)


def output_words(case: Case, run_dir: Path) -> list[str]:
    """The suite's ``execution.fail_on_output`` words found (case-insensitively) in the run's stdout or stderr."""
    words = [w.lower() for w in case.suite.data.get("execution", {}).get("fail_on_output", [])]
    if not words:
        return []
    text = "".join(
        (run_dir / name).read_text(errors="replace").lower()
        for name in ("stdout.txt", "stderr.txt")
        if (run_dir / name).is_file()
    )
    return [word for word in words if word in text]


def run_gate(case: Case, run: dict[str, Any], run_dir: Path) -> tuple[bool, str, str]:
    """(passed, failure class, detail) of the run gate: a clean status, and none of the suite's forbidden words
    in the output (CFDCodeBench's released rule)."""
    status = run["status"]
    if status != "ok":
        return False, RUN_CLASS.get(status, "F-Exec"), run.get("message", "")
    found = output_words(case, run_dir)
    if found:
        return False, "F-Exec", f"rc 0, but the output mentions {', '.join(repr(w) for w in found)}"
    return True, "F-Exec", ""


def reports_failed_runs(case: Case) -> bool:
    """Whether the suite compares the outputs of a run that failed its run gate too (``scoring.report_failed_runs``):
    CFDCodeBench's released code compares every file a script wrote, whatever its exit code or output. Their
    metrics are reported; the failure class stays the run's."""
    return bool(case.suite.data.get("scoring", {}).get("report_failed_runs", False))


def score_attempt(
    case: Case,
    response: dict[str, Any],
    manifest: dict[str, Any],
    run: dict[str, Any],
    run_dir: Path,
    reference: Reference,
    calibration: dict[str, Any],
    solution_dir: Path | None = None,
    convergence: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Apply the gates in order (response, extraction, run, outputs, accuracy, convergence, time) to one attempt.

    The response gate fails as F-Context when the prompt could not fit the model's context window (the
    response's status ``context``), as F-Budget when it was not asked because the agent's budget was reached
    (``budget``), else as F-NoResponse when there is no reply text.

    A calibration without an accuracy threshold (policy ``none``) has no accuracy gate: an ``ok`` measurement
    passes it, with or without an error.

    The convergence gate applies only with a ``convergence`` record (suites with ``convergence`` in suite.yaml,
    see :mod:`simcodebench.pipeline.convergence`). The plugin's ``diagnose`` adds
    diagnostics of the extracted artifact itself (whether or not it ran) to ``metrics``; they never gate. A
    suite with ``scoring.report_failed_runs`` also reports the metrics of a failed run's outputs. A
    suite's ``class_map`` renames the class of the first missed gate (``gate_class``) into the class the suite's
    paper counts (``failure_class``).
    """
    thresholds = calibration["thresholds"]
    tau_acc, tau_time = thresholds["accuracy"], thresholds.get("time")
    gates = GateRecorder()
    measurement: Measurement | None = None
    failed_run_metrics: dict[str, float] = {}
    extracted = gates.check(
        "response",
        response["status"] == "ok",
        RESPONSE_CLASS.get(response["status"], "F-NoResponse"),
        (response.get("reason") or "") if response["status"] != "ok" else "",
    ) and gates.check("extraction", manifest["status"] == "ok", "F-Extract", manifest.get("reason", ""))
    if extracted and not gates.check("run", *run_gate(case, run, run_dir)) and reports_failed_runs(case):
        failed_run_metrics = plugin_of(case).measure(case, run_dir, reference).metrics
    if gates.failure is None:
        measurement = plugin_of(case).measure(case, run_dir, reference)
        if gates.check(
            "outputs",
            measurement.outcome == "ok",
            OUTCOME_CLASS.get(measurement.outcome, "F-Format"),
            measurement.message,
        ):
            accurate = tau_acc is None  # no accuracy gate (Re^4's execution success, re4@paper)
            if not accurate:
                assert measurement.error is not None
                accurate = gates.check(
                    "accuracy",
                    measurement.error <= tau_acc,
                    "F-Acc",
                    f"error {measurement.error:.3e} vs threshold {tau_acc:.3e}",
                )
            if accurate and convergence is not None:
                gates.check("convergence", bool(convergence.get("converged")), "F-Conv", convergence["message"])
            if tau_time is not None:
                gates.check(
                    "time",
                    run["wall_s"] <= tau_time,
                    "F-Time",
                    f"wall time {run['wall_s']:.2f} s vs threshold {tau_time:.2f} s",
                )
    observed = gates.failure or "Pass"
    failure = case.suite.data.get("class_map", {}).get(observed, observed)
    metrics = {
        **solution_diagnostics(case, manifest, solution_dir),
        **run_metrics(case, run, run_dir),
        **(measurement.metrics if measurement else failed_run_metrics),
        **(convergence or {}).get("metrics", {}),
    }
    return {
        "status": "scored",
        "failure_class": failure,
        "gate_class": observed,
        "passed": failure == "Pass",
        "gates": gates.gates,
        "message": gates.message,
        "error": measurement.error if measurement else None,
        "metrics": {**metrics, **plugin_of(case).timed_metrics(case, run, tau_time, metrics)},
        "tau_acc": tau_acc,
        "tau_time": tau_time,
        "wall_s": run.get("wall_s"),
    }
