"""Read every attempt's ``score.json`` and each sample's ``final.json`` into one tidy frame."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from simcodebench.agents.strategies.best_of_n import select_sample

KEY = ["agent", "suite", "case", "sample", "attempt"]

COLUMNS: dict[str, str] = {
    "agent": "object",
    "suite": "object",
    "case": "object",
    "sample": "int64",
    "attempt": "int64",
    "status": "object",
    "failure_class": "object",
    "passed": "bool",
    "final": "bool",
    "mutant": "object",
    "declared_class": "object",
    "error": "float64",
    "tau_acc": "float64",
    "wall_s": "float64",
    "tau_time": "float64",
    "run_status": "object",
    "runtime": "object",
    "rc": "Int64",
    "peak_rss_mb": "float64",
    "model": "object",
    "prompt_tokens": "Int64",
    "completion_tokens": "Int64",
    "cost_usd": "float64",
    "latency_s": "float64",
    "first_token_s": "float64",
    "tokens_per_s": "float64",
    "requests": "object",
    "finish_reason": "object",
    "truncated": "bool",
    "message": "object",
    "metrics": "object",
    "strategy": "object",
    "stage": "object",
    "verdict": "object",
    "executable": "boolean",
    "stderr_warnings": "Int64",
    "selected": "bool",
    "gate_class": "object",
    "case_version": "object",
    "machine": "object",
}
"""Columns of the tidy frame and their dtypes; ``metrics`` is the score's metrics as compact JSON; ``stage`` is the
strategy's name of the attempt (``ans-0``, ``rev-1``, ...); ``latency_s``: the seconds of the attempt's requests,
summed; ``first_token_s`` and ``tokens_per_s``: the time to the first token and the completion tokens a second
(after the first token, for a streamed reply) of the reply extraction read; ``requests``: the ``[start, end]`` of
each request the attempt made in its run, as JSON (none for the cache's replies); ``finish_reason``: the endpoint's,
of the reply extraction read; ``truncated``: that reply was cut at the token limit (``finish_reason`` ``length``);
``verdict`` the Re^4 Reviewer's ACCEPT/REVISE; ``executable``: ran and wrote well-formed, finite outputs;
``selected``: the final row of the sample a ``best_of_n`` agent chose for its case (see :func:`mark_selected`);
``runtime``: where the run executed (``apptainer``, ``bwrap``, ``local``; empty when nothing ran);
``gate_class``: the first gate missed, before a suite's ``class_map``; ``case_version``: the hash of the case's
files it was judged on (:mod:`simcodebench.core.versions`); ``machine``: the fingerprint id of the machine that
scored it."""


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: unreadable record ({exc}); fix: re-run the step that writes it") from exc


def _selected(final_paths: list[Path]) -> dict[tuple[str, str, str, int], int]:
    selected = {}
    for path in final_paths:
        rec = _read(path)
        key = (rec["agent"], rec["suite"], rec["case"], int(rec["sample"]))
        selected[key] = int(rec["selected_attempt"])
    return selected


def _row(rec: dict[str, Any], selected: dict[tuple[str, str, str, int], int]) -> dict[str, Any]:
    run = rec.get("run") or {}
    gen = rec.get("generation") or {}
    sample, attempt = int(rec["sample"]), int(rec["attempt"])
    return {
        "agent": rec["agent"],
        "suite": rec["suite"],
        "case": rec["case"],
        "sample": sample,
        "attempt": attempt,
        "status": rec.get("status"),
        "failure_class": rec.get("failure_class"),
        "passed": bool(rec.get("passed")),
        "final": selected.get((rec["agent"], rec["suite"], rec["case"], sample)) == attempt,
        "mutant": rec.get("mutant"),
        "declared_class": rec.get("declared_class"),
        "error": rec.get("error"),
        "tau_acc": rec.get("tau_acc"),
        "wall_s": rec.get("wall_s"),
        "tau_time": rec.get("tau_time"),
        "run_status": run.get("status"),
        "runtime": run.get("runtime"),
        "rc": run.get("rc"),
        "peak_rss_mb": run.get("peak_rss_mb"),
        "model": gen.get("model"),
        "prompt_tokens": gen.get("prompt_tokens"),
        "completion_tokens": gen.get("completion_tokens"),
        "cost_usd": gen.get("cost_usd"),
        "latency_s": gen.get("latency_s"),
        "first_token_s": gen.get("first_token_s"),
        "tokens_per_s": gen.get("tokens_per_s"),
        "requests": json.dumps(gen.get("requests") or []),
        "finish_reason": gen.get("finish_reason"),
        "truncated": bool(rec.get("truncated")),
        "message": rec.get("message") or "",
        "metrics": json.dumps(rec.get("metrics") or {}, sort_keys=True),
        "strategy": rec.get("strategy"),
        "stage": rec.get("stage"),
        "verdict": rec.get("verdict"),
        "executable": rec.get("executable"),
        "stderr_warnings": (rec.get("diagnostics") or {}).get("stderr_warnings"),
        "selected": False,
        "gate_class": rec.get("gate_class", rec.get("failure_class")),
        "case_version": (rec.get("hashes") or {}).get("case"),
        "machine": ((rec.get("provenance") or {}).get("machine") or {}).get("id"),
    }


def collect(runs_root: Path) -> pd.DataFrame:
    """One row per (agent, suite, case, sample, attempt) under ``runs_root`` (``results/runs``).

    Columns are those of ``COLUMNS``; ``final`` marks the attempt that the sample's ``final.json`` selected
    (samples without a ``final.json`` have no final row). Sorted by the key; an absent or empty tree gives an
    empty frame with the same columns.
    """
    runs_root = Path(runs_root)
    return _frame(_selected(sorted(runs_root.glob("*/*/*/*/final.json"))), runs_root.glob("*/*/*/*/*/score.json"))


def collect_samples(final_paths: list[Path]) -> pd.DataFrame:
    """Like :func:`collect`, but only for the samples whose ``final.json`` is listed (the current plan),
    so runs left over from another configuration never enter the tables."""
    finals = [Path(p) for p in final_paths]
    return _frame(_selected(finals), (s for p in finals for s in sorted(p.parent.glob("*/score.json"))))


def _frame(selected: dict[tuple[str, str, str, int], int], score_paths: Iterable[Path]) -> pd.DataFrame:
    rows = [_row(_read(path), selected) for path in score_paths]
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS)).astype(COLUMNS)
    return mark_selected(frame.sort_values(KEY, ignore_index=True))


def mark_selected(frame: pd.DataFrame) -> pd.DataFrame:
    """Set ``selected`` on the final row of the sample each ``best_of_n`` agent chooses per (suite, case),
    blind to the reference (:func:`simcodebench.agents.strategies.best_of_n.select_sample`)."""
    finals = frame[frame["final"] & frame["strategy"].eq("best_of_n")]
    for _, rows in finals.groupby(["agent", "suite", "case"]):
        chosen = select_sample(rows.to_dict("records"))
        frame.loc[rows.index[rows["sample"] == chosen], "selected"] = True
    return frame
