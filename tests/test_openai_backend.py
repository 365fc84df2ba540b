"""The openai backend against a scripted chat-completions server over real HTTP, and the reply cache."""

from __future__ import annotations

import json
import socket
import stat
from pathlib import Path
from typing import Any

import pytest
from openai_server import (
    OpenAIServer,
    default_text,
    delay,
    malformed,
    ok,
    openai_server_fixture,  # noqa: F401
    status,
)

from simcodebench.agents.backends import openai_backend
from simcodebench.agents.backends.cache import ReplyCache, reply_key
from simcodebench.agents.backends.openai_backend import call_openai
from simcodebench.agents.backends.reply import Reply
from simcodebench.agents.extract import extract_code
from simcodebench.core.errors import EndpointError, InputError

KEY_ENV = "SIMCODEBENCH_TEST_KEY"
KEY = "sk-test-secret-0123456789"
MESSAGES = [
    {"role": "system", "content": "You write code."},
    {"role": "user", "content": "Solve u_t = u_xx."},
]


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


def make_agent(server: OpenAIServer, **overrides: Any) -> dict[str, Any]:
    agent = {
        "backend": "openai",
        "model": "test-model",
        "base_url": server.url,
        "api_key_env": KEY_ENV,
        "temperature": 0.2,
        "max_tokens": 256,
        "seed": 7,
        "timeout_s": 5,
        "max_retries": 2,
        "backoff_s": 0.001,
    }
    agent.update(overrides)
    return agent


def call(agent: dict[str, Any], seed: int | None = 11) -> Reply:
    return call_openai(agent, MESSAGES, agent_name="tester", seed=seed)


def test_success(openai_server: OpenAIServer) -> None:
    openai_server.queue(
        ok("hello world", usage={"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500})
    )
    agent = make_agent(openai_server, price={"prompt_per_1m": 2.0, "completion_per_1m": 8.0}, extra_body={"top_k": 5})
    reply = call(agent)
    assert reply.status == "ok"
    assert reply.text == "hello world"
    assert reply.model == "test-model"
    assert reply.usage == {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    assert reply.cost_usd == pytest.approx(1000 * 2.0 / 1e6 + 500 * 8.0 / 1e6)
    assert reply.latency_s > 0
    assert reply.tries == 1
    assert reply.finish_reason == "stop"
    assert reply.raw is not None and reply.raw["choices"][0]["message"]["content"] == "hello world"
    assert openai_server.count == 1
    sent = openai_server.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.has_authorization
    assert sent.json["model"] == "test-model"
    assert sent.json["messages"] == MESSAGES
    assert sent.json["temperature"] == 0.2
    assert sent.json["max_tokens"] == 256
    assert sent.json["seed"] == 11
    assert sent.json["top_k"] == 5


def test_agent_seed_without_sample_seed_and_no_price(openai_server: OpenAIServer) -> None:
    reply = call(make_agent(openai_server), seed=None)
    assert openai_server.requests[0].json["seed"] == 7
    assert reply.text == default_text(openai_server.requests[0].json)
    assert reply.cost_usd is None


def test_responder_and_empty_reply(openai_server: OpenAIServer) -> None:
    openai_server.responder = lambda request: f"{len(request['messages'])} messages"
    assert call(make_agent(openai_server)).text == "2 messages"
    openai_server.queue(ok(""))
    assert call(make_agent(openai_server)).status == "no_response"


def test_rate_limit_then_success(openai_server: OpenAIServer) -> None:
    openai_server.queue(status(429), ok("fine"))
    reply = call(make_agent(openai_server))
    assert (reply.text, reply.tries, openai_server.count) == ("fine", 2, 2)


def test_retry_after_of_429_and_503_is_waited_capped(
    openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(openai_backend.time, "sleep", waits.append)
    openai_server.queue(
        status(429, headers={"Retry-After": "7"}),
        status(503, headers={"Retry-After": "600"}),  # capped at MAX_BACKOFF_S
        status(500, headers={"Retry-After": "5"}),  # only 429 and 503 are read: the backoff
        status(429, headers={"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}),  # a date: the backoff
        ok("fine"),
    )
    reply = call(make_agent(openai_server, max_retries=4))
    assert (reply.text, reply.tries) == ("fine", 5)
    assert waits[:2] == [7.0, openai_backend.MAX_BACKOFF_S]  # the backend's waits come first, in order
    assert all(wait < 1 for wait in waits[2:4])  # (the server's own sleep(0) may follow)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({}, "max_tokens"),
        ({"model": "o3-mini"}, "max_completion_tokens"),
        ({"model": "openai/gpt-5"}, "max_completion_tokens"),
        ({"model": "gpt-4.1"}, "max_tokens"),
        ({"token_limit_field": "max_completion_tokens"}, "max_completion_tokens"),
        ({"model": "o3", "token_limit_field": "max_tokens"}, "max_tokens"),
    ],
)
def test_max_tokens_goes_in_the_field_the_model_takes(openai_server: OpenAIServer, overrides, field) -> None:
    call(make_agent(openai_server, **overrides))
    sent = openai_server.requests[-1].json
    other = ({"max_tokens", "max_completion_tokens"} - {field}).pop()
    assert sent[field] == 256 and other not in sent


UNSUPPORTED = "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens'."


def test_a_400_naming_the_token_field_is_tried_once_with_the_other(openai_server: OpenAIServer) -> None:
    openai_server.queue(status(400, {"error": {"message": UNSUPPORTED, "type": "invalid_request_error"}}), ok("fine"))
    reply = call(make_agent(openai_server))
    assert (reply.text, reply.tries) == ("fine", 2)
    first, second = (r.json for r in openai_server.requests)
    assert first["max_tokens"] == 256 and "max_completion_tokens" not in first
    assert second["max_completion_tokens"] == 256 and "max_tokens" not in second


def test_the_token_field_is_swapped_only_once(openai_server: OpenAIServer) -> None:
    refusal = status(400, {"error": {"message": UNSUPPORTED + " max_completion_tokens too", "type": "x"}})
    openai_server.queue(refusal, refusal, ok("never"))
    with pytest.raises(EndpointError, match="HTTP 400"):
        call(make_agent(openai_server))
    assert openai_server.count == 2


DRAFT, FINAL = "```python\ndraft = 1\n```", "```python\nfinal = 2\n```"


@pytest.mark.parametrize(
    ("behaviour", "text", "reasoning"),
    [
        (ok(f"<think>\n{DRAFT}\n</think>\n\n{FINAL}"), FINAL, DRAFT),
        (ok(f"{DRAFT}\n</think>\n{FINAL}"), FINAL, DRAFT),  # the template opened <think> in the prompt
        (ok(FINAL, reasoning=DRAFT), FINAL, DRAFT),  # reasoning_content, as vLLM and DeepSeek send it
        (ok(f"<think>{DRAFT}", finish_reason="length"), None, DRAFT),  # cut while thinking: no answer
        (ok(FINAL), FINAL, None),
    ],
)
def test_reasoning_is_kept_apart_from_the_answer(openai_server: OpenAIServer, behaviour, text, reasoning) -> None:
    openai_server.queue(behaviour)
    reply = call(make_agent(openai_server))
    assert (reply.text, reply.reasoning) == (text, reasoning)
    assert reply.status == ("ok" if text else "no_response")
    if text:
        assert extract_code(reply.text, "python") == "final = 2\n"


def test_a_prompt_over_the_stated_window_is_refused_unsent(openai_server: OpenAIServer) -> None:
    reply = call(make_agent(openai_server, context_tokens=5))  # MESSAGES: 32 characters, about 8 tokens
    assert (reply.status, reply.text, reply.tries, openai_server.count) == ("context", None, 0, 0)
    assert "about 8 tokens" in reply.reason and "context window of 5 tokens" in reply.reason


def test_the_window_the_server_reports_is_read(openai_server: OpenAIServer) -> None:
    openai_server.windows = {"other-model": 10_000, "test-model": 5}
    reply = call(make_agent(openai_server))
    assert (reply.status, openai_server.count) == ("context", 0)
    assert call(make_agent(openai_server, context_tokens=100)).status == "ok"  # a stated window wins


def test_a_400_naming_the_context_length_is_the_samples_failure(openai_server: OpenAIServer) -> None:
    message = "This model's maximum context length is 4096 tokens. However, you requested 60784 tokens."
    openai_server.queue(status(400, {"error": {"message": message, "type": "invalid_request_error"}}))
    reply = call(make_agent(openai_server))
    assert (reply.status, reply.text, reply.tries, openai_server.count) == ("context", None, 1, 1)
    assert "context window" in reply.reason and "HTTP 400" in reply.reason and "4096" in reply.reason


def test_persistent_server_error(openai_server: OpenAIServer) -> None:
    openai_server.queue(*[status(500)] * 3)
    with pytest.raises(EndpointError) as caught:
        call(make_agent(openai_server))
    assert openai_server.count == 3
    message = str(caught.value)
    assert "\n" not in message
    for part in (openai_server.url, "test-model", "HTTP 500", "tries: 3"):
        assert part in message


@pytest.mark.parametrize("body", ["this is not json {", {"id": "x", "object": "chat.completion"}, {"choices": []}])
def test_malformed_then_success(openai_server: OpenAIServer, body: Any) -> None:
    openai_server.queue(malformed(body), ok("recovered"))
    reply = call(make_agent(openai_server))
    assert (reply.text, reply.tries) == ("recovered", 2)


def test_persistent_malformed(openai_server: OpenAIServer) -> None:
    openai_server.queue(*[malformed()] * 3)
    with pytest.raises(EndpointError, match="malformed"):
        call(make_agent(openai_server))
    assert openai_server.count == 3


def test_timeout(openai_server: OpenAIServer) -> None:
    openai_server.queue(*[delay(1.0)] * 2)
    with pytest.raises(EndpointError, match="timed out"):
        call(make_agent(openai_server, timeout_s=0.3, max_retries=1))
    assert openai_server.count == 2


def test_connection_error_is_retried() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    agent = {
        "model": "m",
        "base_url": f"http://127.0.0.1:{port}/v1",
        "api_key_env": None,
        "max_retries": 1,
        "backoff_s": 0.001,
    }
    with pytest.raises(EndpointError, match="tries: 2; last error: connection error"):
        call(agent)


@pytest.mark.parametrize("code", [400, 401, 404])
def test_client_errors_fail_at_once(openai_server: OpenAIServer, code: int) -> None:
    openai_server.queue(status(code, {"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    with pytest.raises(EndpointError, match=f"HTTP {code}.*not retried; tries: 1") as caught:
        call(make_agent(openai_server))
    assert openai_server.count == 1
    assert KEY not in str(caught.value)


def test_missing_key_variable(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(InputError) as caught:
        call(make_agent(openai_server))
    assert caught.value.field == "agents.tester.api_key_env"
    assert KEY_ENV in str(caught.value) and "api_key_env: null" in caught.value.fix
    assert openai_server.count == 0


def test_no_key_server(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    reply = call(make_agent(openai_server, api_key_env=None))
    assert reply.status == "ok" and openai_server.requests[0].has_authorization


def test_key_never_in_reply(openai_server: OpenAIServer) -> None:
    reply = call(make_agent(openai_server))
    assert KEY not in json.dumps(reply.to_dict())
    assert all(KEY not in value for value in openai_server.requests[0].headers.values())
    assert Reply.from_dict(json.loads(json.dumps(reply.to_dict()))) == reply


def test_reply_key() -> None:
    agent = {"backend": "openai", "model": "m", "temperature": 0.0, "price": {"prompt_per_1m": 1.0}}
    key = reply_key(agent, MESSAGES, 0, 1)
    assert len(key) == 64 and key == reply_key(dict(agent), [dict(m) for m in MESSAGES], 0, 1)
    bookkeeping = {"price": {"prompt_per_1m": 9.0}, "timeout_s": 5, "samples": 3, "strategy": "feedback"}
    assert key == reply_key({**agent, **bookkeeping}, MESSAGES, 0, 1)
    others = {
        reply_key(agent, MESSAGES[:1], 0, 1),
        reply_key(agent, MESSAGES, 1, 1),
        reply_key(agent, MESSAGES, 0, 2),
        reply_key({**agent, "model": "n"}, MESSAGES, 0, 1),
        reply_key({**agent, "temperature": 0.5}, MESSAGES, 0, 1),
    }
    assert len(others) == 5 and key not in others


def test_cache_round_trip_and_read_only(tmp_path: Path) -> None:
    cache = ReplyCache(tmp_path)
    key = reply_key({"model": "m"}, MESSAGES, 0, 1)
    assert cache.get(key) is None
    record = Reply(status="ok", text="code", tries=1).to_dict()
    cache.put(key, record)
    path = tmp_path / key[:2] / f"{key}.json"
    assert path.exists() and cache.get(key) == record
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    with pytest.raises(FileExistsError):
        cache.put(key, {"text": "other"})
    assert cache.get(key) == record


def test_cache_force_keeps_old(tmp_path: Path) -> None:
    cache = ReplyCache(tmp_path)
    key = reply_key({"model": "m"}, MESSAGES, 0, 1)
    cache.put(key, {"text": "old"})
    cache.put(key, {"text": "new"}, force=True)
    assert cache.get(key) == {"text": "new"}
    kept = sorted(p.name for p in (tmp_path / key[:2]).iterdir() if p.name != f"{key}.json")
    assert len(kept) == 1 and kept[0].startswith(f"{key}.") and kept[0].endswith("Z.json")
    assert json.loads((tmp_path / key[:2] / kept[0]).read_text()) == {"text": "old"}
    for name in (f"{key}.json", kept[0]):
        assert stat.S_IMODE((tmp_path / key[:2] / name).stat().st_mode) == 0o444


def test_cache_rejects_bad_keys(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        ReplyCache(tmp_path).get("../escape")


def test_the_same_request_asked_twice_at_once_keeps_the_reply_cached_first(tmp_path: Path) -> None:
    """Two agents whose settings hash alike (an ablation's first role, say) ask the same request in two jobs
    at once: both replies arrive before either is cached; the second job takes the first's cached reply instead
    of failing on the entry it finds."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from simcodebench.agents.generation import Caller
    from simcodebench.agents.settings import Agent
    from simcodebench.core.cases import load_suite_cases

    hilbert = next(
        c for c in load_suite_cases(Path(__file__).resolve().parents[1] / "cases" / "re4") if c.id == "hilbert"
    )
    both_asked = threading.Barrier(2, timeout=10)
    answers = iter(["first", "second"])
    lock = threading.Lock()

    def respond(request: dict[str, Any]) -> str:
        both_asked.wait()
        with lock:
            return next(answers)

    with OpenAIServer(responder=respond) as server:
        settings = make_agent(server, strategy="single")
        agents = [Agent("plain", settings), Agent("ablation", {**settings, "without": ["nothing"]})]

        def ask(agent: Agent) -> tuple[str | None, bool]:
            caller = Caller(agent, hilbert, 0, 0, tmp_path / "cache")
            text = caller.ask("programmer", MESSAGES)
            return text, caller.calls[0]["cache_hit"]

        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(ask, agents))
    key = reply_key(agents[0].role_settings("programmer"), MESSAGES, 0, 0)
    cached = ReplyCache(tmp_path / "cache").get(key)
    assert cached is not None and server.count == 2
    assert sorted(hit for _, hit in results) == [False, True]
    assert {text for text, _ in results} == {cached["text"]}
