"""One function per pipeline step; each Snakemake rule calls exactly one of these with its paths."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.generation import generate
from simcodebench.agents.prompts import messages_to_markdown
from simcodebench.agents.settings import Agent
from simcodebench.agents.strategies import get_strategy
from simcodebench.agents.strategies.base import Previous
from simcodebench.core.case_failures import (
    CASE_FAILED,
    failed_score,
    failure,
    failure_of,
    write_failed_calibration,
    write_failed_reference,
)
from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import atomic_write_text, read_json, write_json
from simcodebench.core.references import load_reference, save_reference
from simcodebench.execution.provenance import provenance
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution, write_run_record
from simcodebench.pipeline.calibrate import calibrate_case
from simcodebench.pipeline.gates import score_attempt
from simcodebench.pipeline.plan import Plan
from simcodebench.suites import get_scorer

log = logging.getLogger("simcodebench")

STDERR_EXCERPT = 1500


def make_reference(case: Case, out_json: Path, out_h5: Path) -> None:
    """Generate the case's (hidden) reference; when that raises, write a failed reference that says why
    (:mod:`.case_failures`), so that the other cases' summary is still written."""
    log.info("reference %s: generating with %s", case.key, case.hidden.reference["generator"])
    try:
        reference = get_scorer(case.suite.data["scorer"]).generate_reference(case)
    except InfrastructureError:  # the machine's failure, not the case's: the job fails and is retried
        raise
    except Exception as exc:  # the case's own failure: reported as F-Case, never the whole run's
        write_failed_reference(out_json, out_h5, failure("reference", exc))
        return
    reference.meta.setdefault("provenance", provenance())
    save_reference(reference, out_json, out_h5)


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


def make_prompt(
    agent: Agent,
    case: Case,
    attempt: int,
    out_md: Path,
    out_messages: Path,
    previous_messages: Path | None = None,
    previous_response: Path | None = None,
    previous_score: Path | None = None,
) -> None:
    """Write the attempt's ``messages.json`` and ``prompt.md`` as the agent's strategy prepares them from attempt
    a-1's files: the roles to call and the first call's messages, or a skip marker."""
    previous = None
    if attempt > 0:
        assert previous_messages and previous_response and previous_score
        previous = Previous.read(previous_messages, previous_response, previous_score)
    payload = agent.strategy.prepare(case, attempt, previous, agent.settings)
    write_json(out_messages, payload)
    if payload["skipped"]:
        atomic_write_text(out_md, f"(skipped: {payload['reason']})\n")
        return
    later = "".join(
        f"\n<!-- then: {role} (its messages are built from the replies before it; response.json keeps them) -->\n"
        for role in payload["calls"][1:]
    )
    atomic_write_text(out_md, messages_to_markdown(payload["messages"]) + later)


def make_response(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    messages_path: Path,
    out: Path,
    cache_root: Path,
    calibration: Path | None = None,
    force: bool = False,
) -> None:
    """Make the attempt's calls as its strategy directs (through the reply cache) and write ``response.json``."""
    data = read_json(messages_path)
    if data["skipped"]:
        keep = {k: data[k] for k in ("strategy", "stage", "carry")}
        write_json(out, {"status": "skipped", "reason": data["reason"], "text": None, **keep, "calls": []})
        return
    tau_time = read_json(calibration).get("thresholds", {}).get("time") if calibration else None
    record = generate(agent, case, sample, attempt, data, cache_root, tau_time, force)
    record["provenance"] = provenance()
    write_json(out, record)


def make_solution(case: Case, response_path: Path, out_manifest: Path) -> None:
    """Extract the artifact from the reply into ``solution/`` and describe it in ``manifest.json``."""
    response = read_json(response_path)
    solution_dir = out_manifest.parent
    solution_dir.mkdir(parents=True, exist_ok=True)
    for stale in solution_dir.iterdir():
        if stale.is_dir():
            shutil.rmtree(stale)
        else:
            stale.unlink()
    manifest: dict[str, Any] = {"status": "ok", "files": []}
    if response["status"] != "ok":
        manifest = {"status": response["status"], "reason": response.get("reason", "no reply"), "files": []}
    else:
        try:
            files = extract_files(case, response["text"])
        except ExtractionError as exc:
            manifest = {"status": "extract_failed", "reason": str(exc), "files": []}
        else:
            manifest["files"] = write_solution(files, solution_dir)
    write_json(out_manifest, manifest)


def make_run(
    case: Case,
    manifest_path: Path,
    out_run: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> None:
    """Execute the artifact (when there is one; ``mpi``: the job's MPI launcher; ``images``: apptainer images)
    and write ``run/run.json``."""
    manifest = read_json(manifest_path)
    concrete = resolve_runtime(runtime, case.suite.environment, images)
    if manifest["status"] != "ok":
        write_run_record(out_run, None, case, concrete, f"no artifact ({manifest['status']})")
        return
    result = execute_solution(case, manifest_path.parent, out_run.parent, concrete, mpi, images)
    write_run_record(out_run, result, case, concrete)


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
    }
    generation = {
        "backend": response.get("backend"),
        "model": response.get("model"),
        "prompt_tokens": response.get("usage", {}).get("prompt_tokens", 0),
        "completion_tokens": response.get("usage", {}).get("completion_tokens", 0),
        "cost_usd": response.get("cost_usd"),
        "latency_s": response.get("latency_s"),
        "cache_hit": response.get("cache_hit"),
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
    score = score_attempt(
        case,
        response,
        manifest,
        run,
        run_path.parent,
        load_reference(ref_json, ref_h5),
        read_json(calibration_path),
        manifest_path.parent,
        read_json(convergence_path) if convergence_path else None,
    )
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
            "hashes": {**response.get("hashes", {}), "artifact": [f["sha256"] for f in manifest["files"]]},
            "provenance": provenance(case.suite.environment, run.get("runtime")),
        },
    )


def make_final(score_paths: list[Path], out: Path) -> None:
    """Pick the attempt that stands for the sample, as its strategy selects, and write ``final.json`` (left
    as it is, mtime too, when its content would not change)."""
    scores = [read_json(p) for p in score_paths]
    chosen = get_strategy(scores[0]["strategy"]).select_attempt(scores)
    final = {k: chosen[k] for k in ("agent", "suite", "case", "sample", "mutant", "declared_class")} | {
        "attempts": len(scores),
        "asked": sum(s["status"] != "skipped" for s in scores),
        "strategy": chosen["strategy"],
        "selected_attempt": chosen["attempt"],
        "selected_stage": chosen["stage"],
        "passed": chosen["passed"],
        "failure_class": chosen["failure_class"],
        "error": chosen.get("error"),
    }
    if not (out.is_file() and read_json(out) == final):  # NaN never equals itself: an error of NaN is rewritten
        write_json(out, final)


def make_summary(plan: Plan, final_paths: list[Path], out_dir: Path) -> None:
    """Aggregate the planned samples into ``scores.csv``, the markdown tables, the failure-class plot and,
    for every agent and field case, sample 0's selected attempt drawn beside the reference."""
    from simcodebench.report.summary import write_summary

    write_summary(out_dir.parent / "runs", out_dir, final_paths)
    fields_dir = out_dir / "fields"
    fields_dir.mkdir(parents=True, exist_ok=True)
    for path in final_paths:
        final = read_json(path)
        if final["sample"] != 0 or final["failure_class"] == CASE_FAILED:
            continue
        case = plan.case(final["suite"], final["case"])
        references = Path(plan.results) / "references" / case.suite.name / case.id
        run_dir = path.parent / str(final["selected_attempt"]) / "run"
        png = fields_dir / f"{final['agent']}__{case.suite.name}__{case.id}.png"
        reference = load_reference(references / "reference.json", references / "reference.h5")
        get_scorer(case.suite.data["scorer"]).plot_comparison(case, run_dir, reference, png)
