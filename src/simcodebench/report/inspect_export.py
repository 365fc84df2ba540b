"""A run as Inspect eval logs (``simcodebench export inspect DIR --out OUT``), written through inspect_ai's own
log API (``EvalLog``, ``EvalSample``, ``write_eval_log``), so that ``inspect view`` and ``inspect_ai.analysis``
read them.

One log per agent and suite (the task ``simcodebench/<suite>``, the agent's model), one Inspect sample per scored
sample: its id is the case, its epoch the sample index + 1. A sample holds the first attempt's prompt (its user
messages; the system message is in the transcript) as its input, the reply that stands for it as its output, its
verdict as the score ``simcodebench`` (``C`` passed, ``I`` failed; the failure class as the answer, the gates,
error and thresholds in the metadata), the tokens of every attempt, and the transcript of every attempt: a span
per attempt with each model call of its strategy, the extracted code and the run's output excerpts, and its score.
F-Infra samples carry an error (Inspect leaves them out of its metrics, as the summary does); cases whose
reference or calibration failed (F-Case) are left out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from simcodebench import __version__
from simcodebench.core import case_failures
from simcodebench.core.errors import InputError
from simcodebench.core.failure_classes import INFRA
from simcodebench.report.run_source import Run
from simcodebench.report.sample_record import AttemptRecord, attempt_records

SCORER = "simcodebench"
OUTPUT_EXCERPT = 4000
"""Characters of stdout and stderr kept in a transcript (the end of each)."""


def _inspect() -> Any:
    """The inspect_ai modules, or :class:`InputError` naming the extra to install."""
    try:
        import inspect_ai.event as event
        import inspect_ai.log as log
        import inspect_ai.model as model
        import inspect_ai.scorer as scorer
    except ImportError as exc:
        raise InputError(
            "pyproject.toml",
            "project.optional-dependencies.inspect",
            f"inspect_ai is not importable ({exc})",
            "pip install 'simcodebench[inspect]' (or: pip install inspect-ai)",
        ) from exc
    return type("Inspect", (), {"event": event, "log": log, "model": model, "scorer": scorer})


def _messages(ia: Any, messages: list[dict[str, Any]]) -> list[Any]:
    kinds = {
        "system": ia.model.ChatMessageSystem,
        "user": ia.model.ChatMessageUser,
        "assistant": ia.model.ChatMessageAssistant,
    }
    return [kinds.get(m.get("role"), ia.model.ChatMessageUser)(content=str(m.get("content") or "")) for m in messages]


def _usage(ia: Any, records: list[AttemptRecord]) -> Any:
    prompt = sum(int(r.usage.get("prompt_tokens") or 0) for r in records)
    completion = sum(int(r.usage.get("completion_tokens") or 0) for r in records)
    costs = [r.response.get("cost_usd") for r in records if r.response.get("cost_usd") is not None]
    return ia.model.ModelUsage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=prompt + completion,
        total_cost=sum(costs) if costs else None,
    )


def _score(ia: Any, score: dict[str, Any]) -> Any:
    return ia.scorer.Score(
        value="C" if score.get("passed") else "I",
        answer=score.get("failure_class"),
        explanation=score.get("message") or score.get("failure_class") or "",
        metadata={
            k: score.get(k)
            for k in ("attempt", "stage", "gate_class", "gates", "error", "tau_acc", "wall_s", "tau_time", "metrics")
        },
    )


def _attempt_events(ia: Any, record: AttemptRecord, model: str, final: bool) -> list[Any]:
    """A span holding the attempt's model calls, what was extracted and run, and its score."""
    span = f"attempt-{record.attempt}"
    ev = ia.event
    events: list[Any] = [ev.SpanBeginEvent(id=span, name=f"attempt {record.attempt} ({record.stage})", type="attempt")]
    for call in record.calls:
        events.append(
            ev.ModelEvent(
                span_id=span,
                model=call.get("model") or model,
                role=call.get("role"),
                input=_messages(ia, call.get("messages") or []),
                tools=[],
                tool_choice="none",
                config=ia.model.GenerateConfig(),
                output=ia.model.ModelOutput.from_content(call.get("model") or model, call.get("text") or ""),
            )
        )
    events.append(
        ev.InfoEvent(
            span_id=span,
            source="simcodebench",
            data={
                "extracted code": {name: text for name, text in record.code.items()},
                "stdout (end)": record.stdout[-OUTPUT_EXCERPT:],
                "stderr (end)": record.stderr[-OUTPUT_EXCERPT:],
                "run": record.run,
            },
        )
    )
    if record.score.get("status") != "skipped":
        events.append(ev.ScoreEvent(span_id=span, score=_score(ia, record.score), intermediate=not final))
    events.append(ev.SpanEndEvent(id=span))
    return events


def _sample(ia: Any, records: list[AttemptRecord], final: dict[str, Any], model: str) -> Any:
    """One Inspect sample from the sample's attempts (``final``: the row of the attempt that stands for it)."""
    chosen = next(r for r in records if r.attempt == final["attempt"])
    asked = [r for r in records if r.score.get("status") != "skipped"]
    first_call = (asked[0].calls or [{}])[0] if asked else {}
    events = [e for r in records for e in _attempt_events(ia, r, model, r is chosen)]
    last_call = (chosen.calls or [{}])[-1]
    usage = _usage(ia, records)
    infra = final["failure_class"] == INFRA
    return ia.log.EvalSample(
        id=final["case"],
        epoch=int(final["sample"]) + 1,
        input=_messages(ia, [m for m in first_call.get("messages") or [] if m.get("role") != "system"])
        or "(no prompt recorded)",
        target="Pass",
        messages=_messages(ia, [*(last_call.get("messages") or []), {"role": "assistant", "content": chosen.reply}]),
        output=ia.model.ModelOutput.from_content(model, chosen.reply),
        scores=None if infra else {SCORER: _score(ia, chosen.score)},
        error=ia.log.EvalError(message=final["message"] or INFRA, traceback="", traceback_ansi="") if infra else None,
        metadata={
            "agent": final["agent"],
            "suite": final["suite"],
            "case": final["case"],
            "sample": int(final["sample"]),
            "selected_attempt": int(final["attempt"]),
            "attempts": len(records),
            "failure_class": final["failure_class"],
            "strategy": final["strategy"],
            "mutant": final["mutant"],
            "declared_class": final["declared_class"],
            "case_version": final["case_version"],
            "provenance": chosen.score.get("provenance"),
        },
        model_usage={model: usage},
        events=events,
    )


def _model(rows: pd.DataFrame, agent: str) -> str:
    models = rows["model"].dropna().unique()
    return str(models[0]) if len(models) == 1 else f"simcodebench/{agent}"


def _file_name(agent: str, suite: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "-", f"simcodebench_{suite}_{agent}") + ".eval"


def export_inspect(run: Run, out: Path) -> list[Path]:
    """Write one Inspect eval log per agent and suite of ``run`` into the folder ``out``; return their paths."""
    ia = _inspect()
    frame = run.frame()
    finals, _ = case_failures.split(frame[frame["final"]])
    if finals.empty:
        raise InputError(run.source, "results/runs", "has no final verdict to export", "let the run finish first")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for (agent, suite), rows in finals.groupby(["agent", "suite"], sort=True):
        model = _model(frame[(frame["agent"] == agent) & (frame["suite"] == suite)], agent)
        samples = [
            _sample(ia, attempt_records(run.layout, agent, suite, f["case"], int(f["sample"])), f, model)
            for f in rows.sort_values(["case", "sample"]).to_dict("records")
        ]
        written.append(_write_log(ia, run, agent, suite, model, samples, out / _file_name(agent, suite)))
    return written


def _write_log(ia: Any, run: Run, agent: str, suite: str, model: str, samples: list[Any], path: Path) -> Path:
    scored = [s for s in samples if s.scores]
    passed = sum(s.scores[SCORER].value == "C" for s in scored)
    created = [
        s.metadata["provenance"]["created"] for s in samples if (s.metadata.get("provenance") or {}).get("created")
    ]
    usage = ia.model.ModelUsage(
        input_tokens=sum(u.input_tokens for s in samples for u in s.model_usage.values()),
        output_tokens=sum(u.output_tokens for s in samples for u in s.model_usage.values()),
        total_tokens=sum(u.total_tokens for s in samples for u in s.model_usage.values()),
    )
    cases = sorted({str(s.id) for s in samples})
    log = ia.log.EvalLog(
        status="success",
        eval=ia.log.EvalSpec(
            created=min(created) if created else _now(),
            task=f"simcodebench/{suite}",
            task_version=0,
            dataset=ia.log.EvalDataset(name=suite, samples=len(cases), sample_ids=cases),
            model=model,
            config=ia.log.EvalConfig(epochs=max(int(s.epoch) for s in samples)),
            packages={"simcodebench": __version__},
            metadata={"agent": agent, "run": run.label, "source": str(run.source), "commits": run.commits()},
        ),
        results=ia.log.EvalResults(
            total_samples=len(samples),
            completed_samples=len(scored),
            scores=[
                ia.log.EvalScore(
                    name=SCORER,
                    scorer=SCORER,
                    scored_samples=len(scored),
                    unscored_samples=len(samples) - len(scored),
                    metrics={
                        "accuracy": ia.log.EvalMetric(name="accuracy", value=passed / len(scored) if scored else 0)
                    },
                )
            ],
        ),
        stats=ia.log.EvalStats(
            started_at=min(created) if created else "",
            completed_at=max(created) if created else "",
            model_usage={model: usage},
        ),
        samples=samples,
    )
    ia.log.write_eval_log(log, str(path), format="eval")
    return path


def _now() -> str:
    from simcodebench.execution.provenance import utc_now

    return utc_now()


def read_samples(path: Path) -> int:
    """How many samples inspect_ai reads back from the log at ``path`` (a check for tests and users)."""
    return len(_inspect().log.read_eval_log(str(path)).samples or [])
