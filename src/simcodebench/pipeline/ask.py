"""The ``ask`` stage (``workflow/rules/ask.smk``): one attempt's prompt, the agent's reply (through the reply
cache) and the artifact extracted from it, in that order, in the attempt's folder."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.generation import generate
from simcodebench.agents.prompts import messages_to_markdown
from simcodebench.agents.settings import Agent
from simcodebench.agents.strategies.base import Previous
from simcodebench.core.cases import Case
from simcodebench.core.io import atomic_write_text, read_json, write_json
from simcodebench.core.logs import job_log
from simcodebench.execution.provenance import provenance
from simcodebench.pipeline.plan import Plan


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


def _optional(named: Any, key: str) -> Path | None:
    value = named.get(key)
    return Path(value) if value else None


def run(plan: Plan, wildcards: Any, input: Any, output: Any, log: Any) -> None:
    """Rule ``ask``: the attempt's ``prompt.md`` and ``messages.json``, the agent's reply ``response.json``
    (through the reply cache) and the extracted ``solution/``, in that order, in the attempt's folder (messages,
    and why it failed, in ``log``). Only ``solution/manifest.json``, written last, is declared as output to
    Snakemake: each declared file costs every job of a large plan (README, "What a job is, and why")."""
    agent, case = plan.agents[wildcards.agent], plan.case(wildcards.suite, wildcards.case)
    sample, attempt = int(wildcards.sample), int(wildcards.attempt)
    folder = Path(plan.layout.sample_dir(wildcards.agent, wildcards.suite, wildcards.case, sample))
    here, previous = folder / str(attempt), folder / str(attempt - 1)
    read = ("messages.json", "response.json", "score.json")  # attempt a-1's, for attempt a > 0
    with job_log(Path(log[0])):
        make_prompt(
            agent,
            case,
            attempt,
            here / "prompt.md",
            here / "messages.json",
            *(previous / name if attempt else None for name in read),
        )
        make_response(
            agent,
            case,
            sample,
            attempt,
            here / "messages.json",
            here / "response.json",
            Path(plan.layout.reply_cache),
            _optional(input, "calibration"),
            plan.force_reply,
        )
        make_solution(case, here / "response.json", Path(output.manifest))
