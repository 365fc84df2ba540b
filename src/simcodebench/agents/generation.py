"""The generate step: the calls of one attempt, made in the order the agent's strategy makes them, each
answered by the agent's backend, and the attempt's record (``response.json``) that keeps every call."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcodebench.agents import budget, run_stop
from simcodebench.agents.backends.alternative import alternative_reply
from simcodebench.agents.backends.cache import ReplyCache, reply_key
from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.agents.backends.replay import replay_reply
from simcodebench.agents.backends.reply import BUDGET, CONTEXT, Reply
from simcodebench.agents.settings import SELF_CHECKS, Agent
from simcodebench.agents.strategies.base import Messages, Outcome, Role
from simcodebench.core.cases import Case
from simcodebench.core.io import canonical_json, sha256_text

TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")
PROSE_SHARE = 0.25
"""A role that writes no code (Re4's Consultant and Reviewer, ...) is answered in at most this share of the
context window: later prompts embed its reply, and must still fit (a Consultant that looped to the window's
end left the Programmer's prompt no room)."""
REPLAY_KEYS = ("suite", "case", "sample", "attempt", "role", "response")


def _record(backend: str, text: str | None, **extra: Any) -> dict[str, Any]:
    record = {
        "backend": backend,
        "status": "ok" if text is not None else "no_response",
        "text": text,
        "model": None,
        "usage": dict.fromkeys(TOKENS, 0),
        "latency_s": 0.0,
        "cost_usd": None,
        "tries": 0,
    }
    record.update(extra)
    return record


@dataclass
class Caller:
    """Answers ``ask(role, messages)`` for one attempt from the agent's backend and keeps every call.

    The oracle answers every code-writing role with the reference solution, the alternative with the case's
    second solution and the mutant backend with its mutant; all three answer other roles with the role's fixed
    ``oracle_text``. ``openai`` calls use the role's settings and go through the content-addressed reply cache
    under ``cache_root``: an entry is never requested twice unless ``force`` is set, and deleting
    ``results/runs`` keeps the cache. A request with a cost is charged
    to the agent's spend ledger ``ledger`` (:mod:`simcodebench.agents.budget`); once the agent's ``max_cost_usd``
    is reached, or its time limit or the user stopped the run (:mod:`simcodebench.agents.run_stop`), no request
    is made and the call is recorded with status ``budget``, not cached. An agent with
    ``serve`` is answered by the llama.cpp server the harness starts for it on the first call the cache cannot
    answer (its log in ``server_logs``); the server's URL stays out of the cache key.
    """

    agent: Agent
    case: Case
    sample: int
    attempt: int
    cache_root: Path
    tau_time: float | None = None
    force: bool = False
    ledger: Path | None = None
    server_logs: Path | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)

    def ask(self, role: str, messages: Messages) -> str | None:
        """The reply text of ``role`` to ``messages`` (None when there is none); the call is kept."""
        record = self._answer(self.agent.strategy.role(role), messages)
        self.calls.append({"role": role, "messages": messages, **record})
        return record["text"]

    def _answer(self, role: Role, messages: Messages) -> dict[str, Any]:
        backend, case = self.agent.backend, self.case
        if backend in SELF_CHECKS and not role.writes_code:
            return _record(backend, role.oracle_text, model=backend)
        if backend == "oracle":
            return _record("oracle", oracle_reply(case), model="oracle", declared_class="Pass")
        if backend == "alternative":
            return _record("alternative", alternative_reply(case), model="alternative", declared_class="Pass")
        if backend == "mutant":
            agent = self.agent
            mutant = build_mutant(case, self.sample, self.tau_time, agent.mutant_selection, agent.mutant_base)
            return _record(
                "mutant",
                mutant.reply,
                model=f"mutant:{mutant.name}",
                mutant=mutant.name,
                declared_class=mutant.declared_class,
            )
        if backend == "replay":
            file = Path(self.agent.settings["file"])
            entry = replay_reply(file, case.suite.name, case.id, self.sample, self.attempt, role.name, role.writes_code)
            if entry is None:
                reason = f"the replay file has no line for this (suite, case, sample, attempt, role '{role.name}')"
                return _record("replay", None, reason=reason)
            extra = {k: v for k, v in entry.items() if k not in REPLAY_KEYS}
            return _record("replay", entry["response"], model=extra.get("model"), extra=extra)
        return self._openai(role.name, messages, writes_code=role.writes_code)

    def _openai(self, role: str, messages: Messages, writes_code: bool = True) -> dict[str, Any]:
        from simcodebench.agents.backends.openai_backend import call_openai

        settings = self.agent.role_settings(role)
        cache = ReplyCache(self.cache_root)
        key = reply_key(settings, messages, self.sample, self.attempt, role)
        cached = None if self.force else cache.get(key)
        if cached is not None:
            return {**cached, "cache_key": key, "cache_hit": True}
        stopped = None
        if self.ledger is not None:
            stopped = budget.stop_reason(self.agent.settings, self.ledger) or run_stop.stop_reason(
                self.agent.settings, self.ledger
            )
        if stopped is not None:  # never cached: a run with a higher budget, more time or no stop asks it
            record = Reply(BUDGET, reason=stopped).to_dict()
            return {"backend": "openai", **record, "cache_key": key, "cache_hit": False}
        if settings.get("serve"):
            settings = _served(settings, self.agent.name, self.server_logs)
        seed = settings.get("seed")
        started = time.time()
        ledger = self.ledger
        reply = call_openai(
            settings,
            messages,
            agent_name=self.agent.name,
            seed=None if seed is None else int(seed) + self.sample,
            abandon=None if ledger is None else lambda: run_stop.abandoned(ledger),
            reply_share=None if writes_code else PROSE_SHARE,
        )
        if self.ledger is not None and reply.cost_usd:
            budget.charge(self.ledger, reply.cost_usd, key)
        record = {"backend": "openai", **reply.to_dict(), "requested_at": started, "answered_at": time.time()}
        if reply.status != CONTEXT:  # a refusal depends on the server's window too: asked again next time
            try:
                cache.put(key, record, force=self.force)
            except FileExistsError:  # the same request, asked by another job at the same time, was cached first
                return {**cache.get(key), "cache_key": key, "cache_hit": True}
        return {**record, "cache_key": key, "cache_hit": False}


def _served(settings: dict[str, Any], agent_name: str, log_dir: Path | None) -> dict[str, Any]:
    """``settings`` pointed at the local server of their ``serve`` (started when it is not running); its ``n_ctx``
    is the context window unless ``context_tokens`` says otherwise (``backends.context.stated_window``)."""
    from simcodebench.agents.backends.local_server import base_url

    return {**settings, "base_url": base_url(settings["serve"], agent_name, log_dir), "api_key_env": None}


def attempt_record(
    agent: Agent, payload: dict[str, Any], calls: list[dict[str, Any]], outcome: Outcome
) -> dict[str, Any]:
    """The content of ``response.json``.

    Its top level is the last code-writing call (its ``text`` is what extraction reads), with tokens, cost,
    latency and tries summed over every call; ``calls`` keeps each call (role, model, messages, reply, tokens,
    cost, latency); ``carry`` is what later attempts need. An attempt the strategy stopped before any code was
    asked is ``skipped`` with the strategy's reason.
    """
    code = [c for c in calls if agent.strategy.role(c["role"]).writes_code]
    if code and outcome.stopped is None:
        main = code[-1]
        record = {k: v for k, v in main.items() if k not in ("role", "messages", "raw")}
        asked = main["messages"]
    else:
        record = {**_record(agent.backend, None), "status": "skipped", "reason": outcome.stopped}
        asked = payload["messages"]
    costs = [c["cost_usd"] for c in calls if c.get("cost_usd") is not None]
    record.update(
        usage={name: sum(int(c["usage"].get(name) or 0) for c in calls) for name in TOKENS},
        cost_usd=sum(costs) if costs else None,
        latency_s=sum(float(c.get("latency_s") or 0.0) for c in calls),
        tries=sum(int(c.get("tries") or 0) for c in calls),
        strategy=payload["strategy"],
        stage=payload["stage"],
        verdict=outcome.verdict,
        carry=outcome.carry,
        calls=calls,
    )
    cached = [c["cache_hit"] for c in calls if "cache_hit" in c]
    if cached:
        record["cache_hit"] = all(cached)
    record["hashes"] = {
        "messages": sha256_text(canonical_json(asked)),
        "reply": sha256_text(record["text"]) if record["text"] is not None else None,
    }
    return record


def generate(
    agent: Agent,
    case: Case,
    sample: int,
    attempt: int,
    payload: dict[str, Any],
    cache_root: Path,
    tau_time: float | None = None,
    force: bool = False,
    ledger: Path | None = None,
    server_logs: Path | None = None,
) -> dict[str, Any]:
    """Make the calls of one attempt as its strategy directs (``payload`` is its ``messages.json``) and
    return the attempt's record (the content of ``response.json``); requests are charged to ``ledger``, and a
    served agent's server logs to ``server_logs``."""
    caller = Caller(agent, case, sample, attempt, cache_root, tau_time, force, ledger, server_logs)
    outcome = agent.strategy.respond(payload, caller.ask)
    return attempt_record(agent, payload, caller.calls, outcome)
