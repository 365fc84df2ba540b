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

from simcodebench.agents.backends.cache import ReplyCache, reply_key
from simcodebench.agents.backends.openai_backend import call_openai
from simcodebench.agents.backends.reply import Reply
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
