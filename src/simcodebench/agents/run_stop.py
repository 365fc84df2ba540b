"""Stops that end a run's asking before its samples are all asked: the agent's time limit (``max_minutes``) and
the user's stop (Ctrl-C on ``simcodebench eval``).

Like a budget stop (:mod:`simcodebench.agents.budget`), a stop makes no request: the call is recorded with
status ``budget`` and a reason that begins :data:`~simcodebench.agents.budget.NOT_ASKED`, which scores as
F-Budget, apart from the model's failures; the agent's stop marker is left beside its spend ledger, so that the
next run asks those samples (``pipeline/stale.py``). Requests already in flight finish.

The time limit counts from the run's start: ``SIMCODEBENCH_RUN_STARTED`` (seconds since the epoch), which
``simcodebench eval`` sets when it starts and the workflow sets when it loads where no one has (job processes
inherit it); the user's stop is the file ``cache/stop-asking`` of the results folder, which ``simcodebench
eval`` writes on the first Ctrl-C and removes when the run has ended; a second Ctrl-C writes
``cache/abandon-asking`` too, which closes the replies streaming then (:func:`abandoned`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from simcodebench.agents.budget import NOT_ASKED, stopped_marker

RUN_STARTED = "SIMCODEBENCH_RUN_STARTED"
STOP_FILE = "stop-asking"
ABANDON_FILE = "abandon-asking"


def mark_run_start() -> None:
    """Make this process the run's start unless the run already has one (``SIMCODEBENCH_RUN_STARTED``)."""
    os.environ.setdefault(RUN_STARTED, repr(time.time()))


def run_started() -> float:
    """When the run started, in seconds since the epoch (now, if nothing marked it)."""
    mark_run_start()
    return float(os.environ[RUN_STARTED])


def stop_file(ledger: Path) -> Path:
    """The user's stop file of the results folder that holds the spend ``ledger`` (``cache/spend/<agent>.jsonl``)."""
    return Path(ledger).parent.parent / STOP_FILE


def abandoned(ledger: Path) -> bool:
    """Whether the user abandoned the run (a second Ctrl-C): replies streaming now are closed."""
    return (Path(ledger).parent.parent / ABANDON_FILE).is_file()


def stop_reason(settings: dict[str, Any], ledger: Path) -> str | None:
    """Why the agent may ask nothing now (the user stopped the run, or its ``max_minutes`` are up), marked
    beside its ``ledger`` for the next run; None when it may ask."""
    reason = None
    if stop_file(ledger).is_file():
        reason = f"{NOT_ASKED}stopped by the user (Ctrl-C on simcodebench eval)"
    elif settings.get("max_minutes") is not None:
        minutes = (time.time() - run_started()) / 60
        if minutes >= float(settings["max_minutes"]):
            limit = float(settings["max_minutes"])
            reason = f"{NOT_ASKED}stopped by its time limit after {minutes:.1f} min (max_minutes {limit:g})"
    if reason is not None:
        stopped_marker(ledger).parent.mkdir(parents=True, exist_ok=True)
        stopped_marker(ledger).touch()
    return reason
