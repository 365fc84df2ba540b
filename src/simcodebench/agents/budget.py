"""An agent's spend and its budget (``max_cost_usd``).

Every request an ``openai`` agent makes that has a cost (its ``price`` is set) is charged to the agent's spend
ledger, ``results/cache/spend/<agent>.jsonl`` (one line per request: its cost and reply key), which outlives
``results/runs`` like the reply cache, so a resumed run counts what earlier runs spent. Before each request
the agent's spend is compared with its ``max_cost_usd``: once reached, the request is not made and the call is
recorded with status ``budget`` (never cached), which scores as F-Budget. The stop leaves a marker,
``<agent>.stopped``, beside the ledger: when a later run finds the budget raised (or removed), it asks those
samples again (``pipeline/stale.py``).

Requests already in flight when the budget is reached still finish and are charged, so the spend can pass the
budget by at most the cost of the requests in flight (the endpoint's cap).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

NOT_ASKED = "not asked: "
"""How the reason of an attempt left unasked by the budget begins (the rest names the spend and the budget)."""

_lock = threading.Lock()
_known: dict[Path, tuple[int, float]] = {}
"""Per ledger, the size last read and its total: a ledger is read again only when its size changed."""


def _total(ledger: Path) -> float:
    """The ledger's total cost in USD (lines cut short by a crash are left out); call holding the lock."""
    size = ledger.stat().st_size if ledger.is_file() else 0
    known = _known.get(ledger)
    if known is None or known[0] != size:
        total = 0.0
        for line in ledger.read_text(encoding="utf-8").splitlines() if size else []:
            try:
                total += float(json.loads(line)["cost_usd"])
            except (ValueError, KeyError, TypeError):
                continue
        known = _known[ledger] = (size, total)
    return known[1]


def spent(ledger: Path) -> float:
    """What the agent of ``ledger`` has spent in USD, over every run of this results directory."""
    with _lock:
        return _total(Path(ledger))


def charge(ledger: Path, cost_usd: float, key: str) -> None:
    """Add one request's cost to the agent's ledger."""
    ledger = Path(ledger)
    with _lock:
        total = _total(ledger) + cost_usd
        ledger.parent.mkdir(parents=True, exist_ok=True)
        with ledger.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"at": time.time(), "cost_usd": cost_usd, "key": key}) + "\n")
        _known[ledger] = (ledger.stat().st_size, total)


def stopped_marker(ledger: Path) -> Path:
    """The file that says a run stopped the agent's requests at its budget."""
    return Path(ledger).with_suffix(".stopped")


def limit_of(settings: dict[str, Any]) -> float | None:
    """The agent's ``max_cost_usd``, or None when it has no budget."""
    limit = settings.get("max_cost_usd")
    return None if limit is None else float(limit)


def stop_reason(settings: dict[str, Any], ledger: Path) -> str | None:
    """Why the agent may make no more requests (its budget is reached; the stop is marked), or None."""
    limit = limit_of(settings)
    if limit is None:
        return None
    total = spent(ledger)
    if total < limit:
        return None
    stopped_marker(ledger).parent.mkdir(parents=True, exist_ok=True)
    stopped_marker(ledger).touch()
    return f"{NOT_ASKED}stopped by its budget after ${total:.4f} spent (max_cost_usd ${limit:g})"


def within(settings: dict[str, Any], ledger: Path) -> bool:
    """Whether the agent may make requests now (no budget, or spend below it)."""
    limit = limit_of(settings)
    return limit is None or spent(ledger) < limit
