"""The ``ask`` stage (``workflow/rules/ask.smk``): one job per batch (the members of the ``evaluate`` batch of
the same name); for each member, its attempt's prompt, the agent's reply (through the reply cache) and the
artifact extracted from it, in that order, in the attempt's folder. The members wait on the network in threads,
as many at a time per endpoint as the job's endpoint resource (the cap): the job holds no core."""

from __future__ import annotations

import logging
import shutil
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.fit_context import Window, agent_window, fit_estimate, fitting
from simcodebench.agents.generation import generate
from simcodebench.agents.prompts import messages_to_markdown, showing_thresholds, shows_thresholds
from simcodebench.agents.settings import Agent
from simcodebench.agents.strategies.base import Previous
from simcodebench.core.cases import Case
from simcodebench.core.io import atomic_write_text, read_json, write_json
from simcodebench.core.layout import MANIFEST
from simcodebench.core.logs import job_log
from simcodebench.execution.harness_runs import using
from simcodebench.execution.provenance import provenance
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.status import refresh as refresh_status

log = logging.getLogger("simcodebench")
NOTED_PIECES = 10
"""Dropped pieces ``prompt.md`` names; ``messages.json`` lists them all."""


def prompt_window(agent: Agent) -> Window | None:
    """The window an ``openai`` agent's prompts are fitted into (its code-writing role's settings); None for the
    other backends and where the window is unknown."""
    if agent.backend != "openai":
        return None
    from simcodebench.agents.backends.openai_backend import context_tokens

    settings = agent.role_settings("programmer")
    return agent_window(context_tokens(settings, agent.name), settings.get("max_tokens"))


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
    a-1's files: the roles to call and the first call's messages, or a skip marker. Where the agent's context
    window is known, the prompt's optional context is fitted into it and ``messages.json``'s ``context_fit`` records
    the fit and what was dropped (:mod:`simcodebench.agents.fit_context`)."""
    previous = None
    if attempt > 0:
        assert previous_messages and previous_response and previous_score
        previous = Previous.read(previous_messages, previous_response, previous_score)
    window = prompt_window(agent)
    with fitting(window) as fits:
        payload = agent.strategy.prepare(case, attempt, previous, agent.settings)
    if window is not None and fits:
        payload["context_fit"] = fits[-1].record()
    write_json(out_messages, payload)
    if payload["skipped"]:
        atomic_write_text(out_md, f"(skipped: {payload['reason']})\n")
        return
    later = "".join(
        f"\n<!-- then: {role} (its messages are built from the replies before it; response.json keeps them) -->\n"
        for role in payload["calls"][1:]
    )
    atomic_write_text(out_md, messages_to_markdown(payload["messages"]) + later + _fit_note(payload.get("context_fit")))


def _fit_note(record: dict[str, Any] | None) -> str:
    """``prompt.md``'s closing line on what fitting the prompt into the window dropped (none without a window)."""
    if record is None:
        return ""
    names = ", ".join(piece["name"] for piece in record["dropped"][:NOTED_PIECES]) or "nothing"
    if len(record["dropped"]) > NOTED_PIECES:
        names += f" and {len(record['dropped']) - NOTED_PIECES} more (messages.json, context_fit)"
    return (
        f"\n<!-- fitted into a {record['window_tokens']}-token window less {record['reply_reserve_tokens']} for the "
        f"reply (about {record['prompt_tokens_estimate']} tokens); dropped {len(record['dropped'])} of "
        f"{record['pieces_offered']} optional pieces: {names} -->\n"
    )


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
    ledger: Path | None = None,
    server_logs: Path | None = None,
) -> None:
    """Make the attempt's calls as its strategy directs (through the reply cache, each request charged to the
    agent's spend ``ledger``) and write ``response.json`` (a served agent's server logs to ``server_logs``)."""
    data = read_json(messages_path)
    if data["skipped"]:
        keep = {k: data[k] for k in ("strategy", "stage", "carry")}
        write_json(out, {"status": "skipped", "reason": data["reason"], "text": None, **keep, "calls": []})
        return
    tau_time = read_json(calibration).get("thresholds", {}).get("time") if calibration else None
    with fitting(prompt_window(agent)):  # prompts a strategy builds while it calls are fitted the same way
        record = generate(agent, case, sample, attempt, data, cache_root, tau_time, force, ledger, server_logs)
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
        manifest = {"status": response["status"], "reason": response.get("reason") or "no reply", "files": []}
    else:
        try:
            files = extract_files(case, response["text"])
        except ExtractionError as exc:
            manifest = {"status": "extract_failed", "reason": str(exc), "files": []}
        else:
            manifest["files"] = write_solution(files, solution_dir)
    write_json(out_manifest, manifest)


def prompt_and_reply(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    here: Path,
    previous: list[Path | None],
    cache_root: Path,
    calibration: Path | None = None,
    force: bool = False,
    ledger: Path | None = None,
    server_logs: Path | None = None,
) -> None:
    """The attempt's prompt (:func:`make_prompt`, from attempt a-1's ``previous`` messages, response and score)
    and reply (:func:`make_response`) in folder ``here``; when the endpoint refused the prompt for a context
    window it stated and the prompt was not fitted into (:func:`refit_window`), the prompt is fitted into that
    window and sent once more if it now fits with room for a reply and differs from what was sent (its messages,
    or a ``max_tokens`` the window cannot hold); else the refusal stands (F-Context)."""
    stated, sent = None, None
    for _ in range(2):
        make_prompt(agent, case, attempt, here / "prompt.md", here / "messages.json", *previous)
        if stated is not None and not _worth_sending(read_json(here / "messages.json")["messages"], stated, sent):
            log.info("%s: the prompt cannot fit the %d-token window the endpoint stated: not sent again", here, stated)
            return
        make_response(
            agent,
            case,
            sample,
            attempt,
            here / "messages.json",
            here / "response.json",
            cache_root,
            calibration,
            force,
            ledger,
            server_logs,
        )
        if stated is not None or (stated := refit_window(here / "messages.json", here / "response.json")) is None:
            return
        sent = (read_json(here / "messages.json")["messages"], read_json(here / "response.json").get("extra") or {})
        log.info("%s: the endpoint stated a %d-token context window; the prompt is fitted into it", here, stated)


def _worth_sending(messages: list[dict[str, Any]], window: int, sent: Any) -> bool:
    """Whether the refitted ``messages`` fit ``window`` with room for a reply and differ from the refused
    request ``sent`` (its messages, and the reply's ``extra``), in their text or in a ``max_tokens`` too large
    for the window."""
    from simcodebench.agents.backends.openai_backend import MIN_REPLY_TOKENS

    room = window - fit_estimate(messages)
    if room < MIN_REPLY_TOKENS:
        return False
    before, extra = sent
    too_long = extra.get("max_tokens_sent") is None or int(extra["max_tokens_sent"]) > room
    return messages != before or too_long


def refit_window(messages_path: Path, response_path: Path) -> int | None:
    """The window the endpoint stated when it refused the prompt (``extra.window_tokens``), where it is smaller
    than the one the prompt was fitted into, or the prompt was fitted into none; else None."""
    response = read_json(response_path)
    stated = (response.get("extra") or {}).get("window_tokens") if response.get("status") == "context" else None
    if stated is None:
        return None
    fit = read_json(messages_path).get("context_fit")
    if fit is None or fit.get("window_tokens") is None or int(fit["window_tokens"]) > int(stated):
        return int(stated)
    return None


DEFAULT_ENDPOINT_CAP = 8
"""Requests in flight per endpoint when ``--resources llm_<endpoint>=N`` does not say (the profiles say 8)."""


def endpoint_share(members: int, capped: bool) -> int:
    """The units of an endpoint resource an ``ask`` job declares: one per member calling it, which Snakemake
    lowers to the run's cap when there is one (``capped``); else at most :data:`DEFAULT_ENDPOINT_CAP`."""
    return members if capped else min(members, DEFAULT_ENDPOINT_CAP)


def ask_attempt(plan: Plan, agent_name: str, suite: str, case_id: str, sample: int, attempt: int) -> dict[str, Any]:
    """One member: the attempt's ``prompt.md`` and ``messages.json``, the agent's reply ``response.json``
    (through the reply cache, written before extraction) and the extracted ``solution/`` (its manifest last), in
    the attempt's folder; its messages, and why it failed, in the attempt's ``ask.log``."""
    agent, case = plan.agent(agent_name, suite), plan.case(suite, case_id)
    folder = Path(plan.layout.sample_dir(agent_name, suite, case_id, sample))
    here, previous = folder / str(attempt), folder / str(attempt - 1)
    read = ("messages.json", "response.json", "score.json")  # attempt a-1's, for attempt a > 0
    shows = shows_thresholds(case)
    calibration = Path(plan.layout.calibration(suite, case_id)) if agent.backend == "mutant" or shows else None
    thresholds = read_json(calibration).get("thresholds") if shows and calibration else None
    start = time.perf_counter()
    with job_log(here / "ask.log"), showing_thresholds(thresholds):
        prompt_and_reply(
            agent,
            case,
            sample,
            attempt,
            here,
            [previous / n for n in read] if attempt else [None] * len(read),
            Path(plan.layout.reply_cache),
            calibration,
            plan.force_reply,
            Path(plan.layout.spend_ledger(agent_name)),
            Path(plan.layout.log("llm-server")),
        )
        make_solution(case, here / "response.json", here / MANIFEST)
    status = read_json(here / MANIFEST)["status"]
    response = read_json(here / "response.json")
    usage = response.get("usage") or {}
    return {
        "agent": agent_name,
        "case": case_id,
        "sample": sample,
        "status": status,
        "seconds": time.perf_counter() - start,
        "prompt_tokens": int(usage.get("prompt_tokens") or 0),
        "completion_tokens": int(usage.get("completion_tokens") or 0),
        "cost_usd": response.get("cost_usd"),
    }


def ask_batch(plan: Plan, suite: str, attempt: int, batch: str, pools: dict[str, int]) -> list[dict[str, Any]]:
    """Ask every member of the batch, ``pools[endpoint]`` members of each endpoint at a time (a thread each:
    they wait on the network, not on a core); the members' records in batch order. A member that fails is
    logged and the others finish; then the first failure is raised (no record: the job runs again, and the
    replies already received come from the cache)."""
    members = plan.batch_members(suite, attempt, batch)
    by_endpoint: dict[str, list[int]] = {}
    for index, (agent, _, _) in enumerate(members):
        by_endpoint.setdefault(plan.agents[agent].endpoint, []).append(index)
    futures: dict[int, Future[dict[str, Any]]] = {}
    with ExitStack() as stack:
        for endpoint, indices in by_endpoint.items():
            pool = stack.enter_context(ThreadPoolExecutor(max(1, pools.get(endpoint) or 1), f"ask-{endpoint}"))
            for i in indices:
                agent, case_id, sample = members[i]
                futures[i] = pool.submit(ask_attempt, plan, agent, suite, case_id, sample, attempt)
    records, failures = [], []
    for i, (agent, case_id, sample) in enumerate(members):
        try:
            records.append(futures[i].result())
        except Exception as exc:  # noqa: BLE001 - reported, then the first one is raised
            log.error(
                "ask %s %s/%s sample %d attempt %d: %s: %s",
                agent,
                suite,
                case_id,
                sample,
                attempt,
                type(exc).__name__,
                exc,
            )
            failures.append(exc)
    if failures:
        raise failures[0]
    return records


def run(plan: Plan, wildcards: Any, input: Any, output: Any, resources: Any, log: Any) -> None:
    """Rule ``ask``: every member of the batch (:func:`ask_batch`, as many at a time per endpoint as the job's
    endpoint resource), then the record (each member's status, seconds, tokens and cost), then the run's status
    file (:func:`.status.refresh`). Only the record is declared to
    Snakemake: each declared file costs every job of a large plan (docs/architecture.md, "What a job is, and why")."""
    suite, attempt, batch = wildcards.suite, int(wildcards.attempt), wildcards.batch
    with job_log(Path(log[0])), using(plan.runtime, plan.images):  # a prompt may run the harness's programs
        pools = {name: int(resources.get(name) or 1) for name in plan.ask_endpoints(suite, attempt, batch)}
        records = ask_batch(plan, suite, attempt, batch, pools)
        write_json(Path(output[0]), {"suite": suite, "attempt": attempt, "batch": batch, "members": records})
    refresh_status(plan)
