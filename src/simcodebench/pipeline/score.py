"""Scoring one attempt (a step of the ``evaluate`` stage): its gates against the reference and the calibrated
thresholds (:mod:`.gates`), what a retry may show the agent about its failure, written as ``score.json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.agents.settings import Agent
from simcodebench.core.case_failures import failed_score, failure_of
from simcodebench.core.cases import Case
from simcodebench.core.io import read_json, write_json
from simcodebench.core.references import load_reference
from simcodebench.core.versions import judged_version
from simcodebench.execution.provenance import provenance
from simcodebench.pipeline.gates import score_attempt

STDERR_EXCERPT = 1500
CUT = "the reply was cut at max_tokens (finish_reason length)"
"""How a failed score's message begins when its reply was truncated."""


def truncated(response: dict[str, Any]) -> bool:
    """Whether the reply extraction read was cut at the token limit (``finish_reason`` ``length``)."""
    return response.get("finish_reason") == "length"


def _cut_message(score: dict[str, Any]) -> str:
    """A failed, truncated reply's message: the cut first, then what failed."""
    if score["failure_class"] == "F-Extract":
        return f"{CUT} before its code was complete: {score['message']}"
    return f"{CUT}; {score['message']}"


def _visible_detail(score: dict[str, Any], run: dict[str, Any], run_dir: Path) -> str:
    """What a retry may show the agent about its failure: its own numbers and messages, never a threshold."""
    failure = score["failure_class"]
    if failure == "F-Acc":
        return f"the error of your solution against the reference is {score['error']:.3e}, which is too large"
    if failure == "F-Time":
        return f"your solution took {score['wall_s']:.2f} s, which is too slow"
    if failure in ("F-Exec", "F-Timeout"):
        stderr = run_dir / "stderr.txt"
        tail = stderr.read_text(errors="replace")[-STDERR_EXCERPT:] if stderr.is_file() else ""
        return f"{run.get('message', '')}\nstderr (last {STDERR_EXCERPT} characters):\n{tail}"
    return score["message"]


def _stderr_warnings(run_dir: Path) -> int:
    """Lines of the run's stderr that mention a warning: a diagnostic the agent's own run shows."""
    stderr = run_dir / "stderr.txt"
    if not stderr.is_file():
        return 0
    return sum("warning" in line.lower() for line in stderr.read_text(errors="replace").splitlines())


def request_spans(response: dict[str, Any]) -> list[list[float]]:
    """``[start, end]`` (seconds since the epoch) of each request the attempt's calls made in their run (not the
    cache's replies): the successful request's own time, ending when its reply came."""
    spans = []
    for call in response.get("calls") or []:
        if call.get("cache_hit") or call.get("answered_at") is None or not call.get("latency_s"):
            continue
        end = float(call["answered_at"])
        spans.append([round(end - float(call["latency_s"]), 3), round(end, 3)])
    return spans


def make_score(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    response_path: Path,
    manifest_path: Path,
    run_path: Path,
    ref_json: Path,
    ref_h5: Path,
    calibration_path: Path,
    out: Path,
    convergence_path: Path | None = None,
) -> None:
    """Score one attempt against the reference and the calibrated thresholds (and the convergence record, for a
    suite that checks convergence); write ``score.json``."""
    response, manifest, run = read_json(response_path), read_json(manifest_path), read_json(run_path)
    ident = {
        "agent": agent.name,
        "suite": case.suite.name,
        "case": case.id,
        "sample": sample,
        "attempt": attempt,
        "mutant": response.get("mutant"),
        "declared_class": response.get("declared_class"),
        "strategy": response.get("strategy"),
        "stage": response.get("stage"),
        "verdict": response.get("verdict"),
        "truncated": truncated(response),
    }
    generation = {
        "backend": response.get("backend"),
        "model": response.get("model"),
        "prompt_tokens": response.get("usage", {}).get("prompt_tokens", 0),
        "completion_tokens": response.get("usage", {}).get("completion_tokens", 0),
        "cost_usd": response.get("cost_usd"),
        "latency_s": response.get("latency_s"),
        "cache_hit": response.get("cache_hit"),
        "finish_reason": response.get("finish_reason"),
        "first_token_s": response.get("first_token_s"),
        "tokens_per_s": response.get("tokens_per_s"),
        "streamed": response.get("streamed"),
        "requests": request_spans(response),
    }
    if response["status"] == "skipped":
        write_json(
            out,
            {
                **ident,
                "status": "skipped",
                "failure_class": None,
                "passed": False,
                "message": response["reason"],
                "gates": [],
                "generation": generation,
            },
        )
        return
    failed = failure_of(calibration_path)
    if failed is not None:
        write_json(out, failed_score(ident, generation, failed))
        return
    reference = load_reference(ref_json, ref_h5)
    score = score_attempt(
        case,
        response,
        manifest,
        run,
        run_path.parent,
        reference,
        read_json(calibration_path),
        manifest_path.parent,
        read_json(convergence_path) if convergence_path else None,
    )
    if ident["truncated"] and not score["passed"]:
        score["message"] = _cut_message(score)
    score["visible_detail"] = _visible_detail(score, run, run_path.parent) if not score["passed"] else ""
    score["executable"] = {"run", "outputs"} <= {g["name"] for g in score["gates"] if g["passed"]}
    score["diagnostics"] = {"stderr_warnings": _stderr_warnings(run_path.parent)}
    run_summary = {k: run.get(k) for k in ("status", "rc", "wall_s", "peak_rss_mb", "runtime", "message")}
    write_json(
        out,
        {
            **ident,
            **score,
            "run": run_summary,
            "generation": generation,
            "hashes": {
                **response.get("hashes", {}),
                "artifact": [f["sha256"] for f in manifest["files"]],
                "case": judged_version(case, reference.meta),
            },
            "provenance": provenance(case.suite.environment, run.get("runtime")),
        },
    )
