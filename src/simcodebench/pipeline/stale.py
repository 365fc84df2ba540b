"""A finished record stands for files that exist: records whose files were deleted are removed before Snakemake
plans, so that it redoes what is missing and everything downstream of it.

Snakemake reruns a job whose output is missing or older than its inputs, but it takes a finished output whose
inputs were deleted as finished (an intermediate file may be removed on purpose). Our records stand for more
than their declared inputs: a batch record for its members' ``score.json``, a calibration for its reference, the
summary for every sample's score. So when the workflow loads (the main process only, dry runs included), each
record that outlived a file it stands for is removed; Snakemake then makes it again, and reruns what consumes it
(its input is newer). Replies come back from the reply cache, so nothing is asked again.
"""

from __future__ import annotations

import logging
from pathlib import Path

from simcodebench.agents import budget
from simcodebench.agents.backends.reply import BUDGET
from simcodebench.core.io import read_json
from simcodebench.core.layout import MANIFEST
from simcodebench.pipeline.plan import Plan

log = logging.getLogger("simcodebench")

ATTEMPT_FILES = ("response.json", "messages.json", MANIFEST)
"""What an ``ask`` job leaves in each member's attempt folder: its record stands for them all."""


def _missing(paths: list[str]) -> str | None:
    """The first of ``paths`` that does not exist, or None."""
    return next((path for path in paths if not Path(path).is_file()), None)


def _remove(record: str, missing: str, removed: list[str]) -> None:
    log.info("%s stands for %s, which is gone: removed, so that it is made again", record, missing)
    Path(record).unlink(missing_ok=True)
    removed.append(record)


def _stale_case_records(plan: Plan, removed: list[str]) -> None:
    """A reference pair missing one half, and a calibration whose reference is gone."""
    for suite, case in plan.cases:
        outputs = plan.case_outputs(suite, case)
        pair = [outputs["ref_json"], outputs["ref_h5"]]
        if (missing := _missing(pair)) is not None:
            for half in pair:
                if Path(half).is_file():
                    _remove(half, missing, removed)
            if Path(outputs["calibration"]).is_file():
                _remove(outputs["calibration"], missing, removed)


def _stale_attempts(plan: Plan, suite: str, attempt: int, batch: str, removed: list[str]) -> str | None:
    """Remove the batch's ``ask`` record when a member's reply, messages or manifest is gone; return the first
    file the ``evaluate`` record stands for that is missing (a member's ask files or score, a case's reference or
    calibration)."""
    first = gone = None
    for agent, case, sample in plan.batch_members(suite, attempt, batch):
        files = [plan.layout.attempt_file(agent, suite, case, sample, attempt, name) for name in ATTEMPT_FILES]
        gone = gone or _missing(files)
        score = plan.layout.attempt_file(agent, suite, case, sample, attempt, "score.json")
        first = first or gone or _missing([score, *plan.case_outputs(suite, case).values()])
    asked = plan.layout.ask_record(suite, attempt, batch)
    if gone is not None and Path(asked).is_file():
        _remove(asked, gone, removed)
    return first


def _budget_stops(plan: Plan, removed: list[str]) -> None:
    """Remove the ``ask`` records holding attempts an agent's budget left unasked, and their ``evaluate`` records,
    when that agent may ask again (its ``max_cost_usd`` was raised or removed), so that this run asks and scores
    them (Snakemake takes a finished output whose input is missing as finished); then the agent's stop marker."""
    resumed = {}
    for agent in plan.agents.values():
        ledger = Path(plan.layout.spend_ledger(agent.name))
        if budget.stopped_marker(ledger).is_file() and budget.within(agent.settings, ledger):
            resumed[agent.name] = budget.stopped_marker(ledger)
    if not resumed:
        return
    attempts = max(agent.attempts for agent in plan.agents.values())
    for suite in plan.suites():
        for attempt in range(attempts):
            for batch, members in plan.batches(suite, attempt).items():
                record = plan.layout.ask_record(suite, attempt, batch)
                if not any(agent in resumed for agent, _, _ in members) or not Path(record).is_file():
                    continue
                if any(m["agent"] in resumed and m["status"] == BUDGET for m in read_json(Path(record))["members"]):
                    log.info("%s holds attempts not asked for the budget, which now allows more: asked again", record)
                    for stale in (record, plan.layout.batch_record(suite, attempt, batch)):
                        Path(stale).unlink(missing_ok=True)
                        removed.append(stale)
    for marker in resumed.values():
        marker.unlink()


def remove_stale_records(plan: Plan) -> list[str]:
    """Remove every record of the plan that stands for a file that no longer exists, and the ``ask`` records of
    attempts left unasked by a budget since raised; return their paths."""
    removed: list[str] = []
    _budget_stops(plan, removed)
    _stale_case_records(plan, removed)
    for suite in plan.suites():
        for attempt in range(plan.attempts(suite)):
            for batch in plan.batches(suite, attempt):
                record = plan.layout.batch_record(suite, attempt, batch)
                missing = _stale_attempts(plan, suite, attempt, batch, removed)
                if missing is not None and Path(record).is_file():
                    _remove(record, missing, removed)
    summary = plan.layout.summary_file("scores.csv")
    if Path(summary).is_file() and (missing := _missing(plan.batch_targets() + plan.final_targets())) is not None:
        _remove(summary, missing, removed)
    return removed
