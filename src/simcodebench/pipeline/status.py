"""The run's progress while it goes: ``results/status.json`` and one compact line in the log per refresh.

Per agent and suite: the samples and (sample, attempt) pairs planned, then from the records the jobs already
write (an ``ask`` job's record lists each member's reply status, tokens and cost; an ``evaluate`` job's record
each member's failure class) the attempts asked, not asked because the budget was reached, skipped by the
strategy, executed (an extracted program ran) and passed, the tokens and cost of the replies, and the agent's
budget (``max_cost_usd``, what its ledger says it spent over every run, and whether it stopped).

:func:`refresh` is called at the end of every ``ask`` and ``evaluate`` job (in the main process, or on the node
where a cluster job ran: both see the results directory) and at most every :data:`MIN_INTERVAL_S` seconds,
since it reads every record; ``aggregate`` forces a last, exact refresh. The file is replaced atomically.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from simcodebench.agents import budget
from simcodebench.agents.backends.reply import BUDGET
from simcodebench.core.case_failures import CASE_FAILED
from simcodebench.core.failure_classes import BUDGET as BUDGET_CLASS
from simcodebench.core.io import read_json, write_json
from simcodebench.pipeline.plan import Plan

log = logging.getLogger("simcodebench")
run_log = logging.getLogger("snakemake.logging")
"""Snakemake's logger: its console and its log file (``.snakemake/log/``) show the status line."""

MIN_INTERVAL_S = 2.0
"""A refresh that comes sooner after the last one is skipped (unless forced)."""
NOT_EXECUTED = frozenset({"F-NoResponse", "F-Context", "F-Extract", BUDGET_CLASS, CASE_FAILED})
"""Classes of attempts whose program never ran."""
COUNTS = ("planned", "asked", "not_asked_budget", "skipped", "executed", "passed", "samples_passed")

_lock = threading.Lock()
_read: dict[str, tuple[int, list[dict[str, Any]]]] = {}
"""Per record path, its modification time and members when last read (the main process refreshes often)."""


def _blank(samples: int) -> dict[str, Any]:
    return {"samples": samples, **dict.fromkeys(COUNTS, 0), "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}


def _records(path: str) -> list[dict[str, Any]]:
    """The members of a job's record, none while the job has not finished (or its record is unreadable); a
    record read before is read again only when it changed."""
    try:
        changed = Path(path).stat().st_mtime_ns
        if _read.get(path, (None,))[0] != changed:
            _read[path] = (changed, read_json(Path(path))["members"])
        return _read[path][1]
    except (OSError, ValueError, KeyError):
        return []


def collect(plan: Plan) -> dict[str, Any]:
    """The run's status now (the content of ``status.json``)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for agent in plan.agents.values():
        for (suite, _), case in plan.cases.items():
            row = rows.setdefault((agent.name, suite), _blank(0))
            row["samples"] += agent.samples(case)
    passed_samples: set[tuple[str, str, str, int]] = set()
    attempts = max((agent.attempts for agent in plan.agents.values()), default=0)
    for suite in plan.suites():
        for attempt in range(attempts):
            for batch, members in plan.batches(suite, attempt).items():
                for agent, _, _ in members:
                    rows[(agent, suite)]["planned"] += 1
                for member in _records(plan.layout.ask_record(suite, attempt, batch)):
                    row = rows[(member["agent"], suite)]  # a batch's id names its members: they are planned
                    state = member["status"]
                    key = "not_asked_budget" if state == BUDGET else "skipped" if state == "skipped" else "asked"
                    row[key] += 1
                    row["prompt_tokens"] += int(member.get("prompt_tokens") or 0)
                    row["completion_tokens"] += int(member.get("completion_tokens") or 0)
                    row["cost_usd"] += float(member.get("cost_usd") or 0.0)
                for member in _records(plan.layout.batch_record(suite, attempt, batch)):
                    row = rows[(member["agent"], suite)]
                    if member["status"] != "skipped" and member["failure_class"] not in NOT_EXECUTED:
                        row["executed"] += 1
                    if member["passed"]:
                        row["passed"] += 1
                        passed_samples.add((member["agent"], suite, member["case"], member["sample"]))
    for agent, suite, _, _ in passed_samples:
        rows[(agent, suite)]["samples_passed"] += 1
    agents = {}
    for agent in plan.agents.values():
        limit = budget.limit_of(agent.settings)
        spent = budget.spent(Path(plan.layout.spend_ledger(agent.name)))
        state = "none" if limit is None else "stopped" if spent >= limit else "within"
        agents[agent.name] = {"max_cost_usd": limit, "spent_usd": round(spent, 6), "budget": state}
    return {
        "updated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "agents": agents,
        "rows": [
            {"agent": agent, "suite": suite, **row, "cost_usd": round(row["cost_usd"], 6)}
            for (agent, suite), row in rows.items()
        ],
    }


def line(status: dict[str, Any]) -> str:
    """The status in one line: per agent and suite, asked/planned, executed, passed, tokens, cost, budget."""
    parts = []
    for row in status["rows"]:
        agent = status["agents"][row["agent"]]
        stop = f" budget {agent['budget']}" if agent["budget"] != "none" else ""
        parts.append(
            f"{row['agent']}/{row['suite']} asked {row['asked']}/{row['planned']} exec {row['executed']} "
            f"pass {row['passed']} tok {row['prompt_tokens']}+{row['completion_tokens']} ${row['cost_usd']:.4f}{stop}"
        )
    return "status: " + "; ".join(parts)


def refresh(plan: Plan, force: bool = False) -> dict[str, Any] | None:
    """Write ``status.json`` and log its line, unless the last refresh was under :data:`MIN_INTERVAL_S` ago and
    ``force`` is not set; the status written, or None."""
    path = Path(plan.layout.status)
    with _lock:
        if not force and path.is_file() and time.time() - path.stat().st_mtime < MIN_INTERVAL_S:
            return None
        status = collect(plan)
        write_json(path, status)
    (run_log if run_log.handlers else log).info(line(status))
    return status
