"""Scorer of the fea suite (FEABench on open solvers): one number with its units, checked and compared.

``evaluate`` reads ``result.json`` (the case's first contract file): a missing file is F-Missing; a value that
is not a valid target (:mod:`.validity`: not a finite number, units not convertible to the target's, a default,
an echoed input) is F-Valid; otherwise the error is the relative error after conversion to the target's units,
``|v - v_ref| / |v_ref|``, compared with the case's threshold (``max(alpha * spread, minimum)``, calibrated from
the oracle: see cases/fea/README.md). Metrics: ``fea_value``, ``rel_error``, ``within_10pct`` (the paper's
band) and, from the runner's report (:func:`run_metrics`), ``executability`` and ``api_factuality``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from simcodebench.core.cases import Case
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.suites.fea import sandbox_runner
from simcodebench.suites.fea.refinement import GENERATORS, target_units
from simcodebench.suites.fea.validity import Invalid, check

RUNNER = "fea_runner.py"
PAPER_BAND = 0.10
"""FEABench's pass band: relative error below 10%."""


def generate_reference(case: Case) -> Reference:
    """The case's target, made by ``hidden.reference.generator`` (``fea_refinement`` or ``published``)."""
    name = case.hidden.reference["generator"]
    if name not in GENERATORS:
        raise KeyError(f"{case.key}: no fea reference generator '{name}'; known: {sorted(GENERATORS)}")
    return GENERATORS[name](case)


def prompt_text(case: Case) -> str:
    """The visible text whose numbers a reply must not echo: the problem, the target and the plan."""
    spec = case.visible.spec
    target = spec.get("target", {})
    return "\n".join([case.visible.problem, str(target.get("quantity", "")), str(spec.get("plan", ""))])


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Check the reported value and measure its relative error against the reference target."""
    path = Path(run_dir) / case.visible.contract["files"][0]["name"]
    if not path.is_file():
        return Measurement(outcome="missing", message=f"{path.name} (the target value) is missing")
    try:
        reported = check(path, target_units(case), prompt_text(case))
    except Invalid as exc:
        return Measurement(outcome="invalid", message=f"not a valid target: {exc}")
    target = float(reference.scalars["target"])
    error = abs(reported.converted - target) / abs(target)
    return Measurement(
        outcome="ok",
        error=error,
        metrics={"fea_value": reported.converted, "rel_error": error, "within_10pct": float(error < PAPER_BAND)},
    )


def run_metrics(case: Case, run_dir: Path) -> dict[str, float]:
    """Executability (statements that ran / top-level statements; 0 when the script does not parse) and API
    factuality (library names that exist / library names used; absent when none is used) from the runner's
    ``fea_report.json``; empty when the runner wrote none (the run never started)."""
    path = Path(run_dir) / sandbox_runner.REPORT
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        statements, ok = int(report["statements"]), int(report["ok"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    metrics = {"executability": ok / statements if statements else 0.0}
    api = report.get("api") or {}
    names = api.get("names") or []
    if names:
        metrics["api_factuality"] = 1.0 - len(api.get("unknown") or []) / len(names)
    return metrics


def prepare_run(case: Case, run_dir: Path) -> None:
    """Put the statement-by-statement runner next to the solution."""
    shutil.copy2(Path(sandbox_runner.__file__), Path(run_dir) / RUNNER)
