"""The generate step: one reply per (agent, case, sample, attempt), from whichever backend the agent uses."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .agents import Agent
from .backends.cache import ReplyCache, reply_key
from .backends.replay import replay_reply
from .cases import Case
from .io import canonical_json, sha256_text
from .mutants import build_mutant, oracle_source


def _fenced(source: str, language: str) -> str:
    return f"```{language}\n{source.rstrip()}\n```\n"


def _record(backend: str, text: str | None, **extra: Any) -> dict[str, Any]:
    record = {
        "backend": backend,
        "status": "ok" if text is not None else "no_response",
        "text": text,
        "model": None,
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        "latency_s": 0.0,
        "cost_usd": None,
        "tries": 0,
    }
    record.update(extra)
    return record


def generate(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    messages: list[dict[str, str]],
    cache_root: Path,
    tau_time: float | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """Produce the response record of one attempt (the content of ``response.json``).

    ``openai`` replies go through the content-addressed cache under ``cache_root``: an entry is never
    requested twice unless ``force`` is set, and deleting ``results/runs`` keeps the cache.
    """
    language = case.suite.data["extraction"]["language"]
    if agent.backend == "oracle":
        record = _record("oracle", _fenced(oracle_source(case), language), model="oracle")
    elif agent.backend == "mutant":
        mutant = build_mutant(case, sample, tau_time)
        record = _record(
            "mutant",
            _fenced(mutant.source, language),
            model=f"mutant:{mutant.name}",
            mutant=mutant.name,
            declared_class=mutant.declared_class,
        )
    elif agent.backend == "replay":
        entry = replay_reply(Path(agent.settings["file"]), case.suite.name, case.id, sample, attempt)
        extra = {k: v for k, v in (entry or {}).items() if k not in ("suite", "case", "sample", "attempt", "response")}
        record = _record("replay", entry["response"] if entry else None, model=extra.get("model"), extra=extra)
        if entry is None:
            record["reason"] = "the replay file has no line for this (suite, case, sample, attempt)"
    else:
        record = _openai_record(agent, case, sample, attempt, messages, ReplyCache(cache_root), force)
    record["hashes"] = {
        "messages": sha256_text(canonical_json(messages)),
        "reply": sha256_text(record["text"]) if record["text"] is not None else None,
    }
    return record


def _openai_record(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    messages: list[dict[str, str]],
    cache: ReplyCache,
    force: bool,
) -> dict[str, Any]:
    from .backends.openai_backend import call_openai

    key = reply_key(agent.settings, messages, sample, attempt)
    cached = None if force else cache.get(key)
    if cached is not None:
        return {**cached, "cache_key": key, "cache_hit": True}
    seed = agent.settings.get("seed")
    started = time.time()
    reply = call_openai(
        agent.settings, messages, agent_name=agent.name, seed=None if seed is None else int(seed) + sample
    )
    record = {"backend": "openai", **reply.to_dict(), "requested_at": started}
    cache.put(key, record, force=force)
    return {**record, "cache_key": key, "cache_hit": False}
