"""Streamed replies, silence timeouts, the per-endpoint cap and what servers say of themselves, against the
scripted server over real HTTP (a one-slot server, 429s and 503s, silence, a server that does not stream)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from openai_server import OpenAIServer, ok, stall, status

from simcodebench.agents.backends import endpoint_cap
from simcodebench.agents.backends.context import learnt_window
from simcodebench.agents.backends.endpoint_cap import EndpointCap
from simcodebench.agents.backends.openai_backend import call_openai, reply_ceiling, tokens_per_second
from simcodebench.agents.backends.server_info import server_info, window_in
from simcodebench.core.errors import EndpointError

MESSAGES = [{"role": "user", "content": "Solve u_t = u_xx."}]
TEN_WORDS = "one two three four five six seven eight nine ten"


def _agent(server: OpenAIServer, **overrides: Any) -> dict[str, Any]:
    agent = {
        "model": "m",
        "base_url": server.url,
        "api_key_env": None,
        "max_tokens": 64,
        "timeout_s": 5,
        "max_retries": 0,
        "backoff_s": 0.01,
    }
    return {**agent, **overrides}


def _call(agent: dict[str, Any]):
    return call_openai(agent, MESSAGES, agent_name="tester", seed=None)


def test_a_streamed_reply_is_assembled_timed_and_counted_by_the_servers_usage():
    usage = {"prompt_tokens": 7, "completion_tokens": 10, "total_tokens": 17}
    with OpenAIServer() as server:
        server.queue(ok(TEN_WORDS, usage=usage, gap=0.05, reasoning="thinking first"))
        reply = _call(_agent(server))
    sent = server.requests[0].json
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True} and sent["max_tokens"] == 64
    assert (reply.status, reply.text, reply.reasoning, reply.finish_reason) == (
        "ok",
        TEN_WORDS,
        "thinking first",
        "stop",
    )
    assert reply.streamed is True and reply.usage == usage and reply.tries == 1
    # the reasoning chunk comes first, then ten words 0.05 s apart: nine gaps after the first token
    assert reply.first_token_s < 0.5 and reply.latency_s - reply.first_token_s >= 0.45
    assert reply.tokens_per_s == pytest.approx(10 / (reply.latency_s - reply.first_token_s))


def test_a_reply_may_run_past_the_silence_timeout_while_its_tokens_keep_coming():
    with OpenAIServer() as server:
        server.queue(ok(TEN_WORDS, gap=0.15))
        reply = _call(_agent(server, timeout_s=0.5))
    assert reply.text == TEN_WORDS and reply.latency_s > 1.3 and server.count == 1


def test_silence_fails_the_request_and_closes_its_connection():
    with OpenAIServer() as server:
        server.queue(stall(1.5), stall(1.5))
        with pytest.raises(EndpointError, match=r"no byte from the server in 0.3 s"):
            _call(_agent(server, timeout_s=0.3, max_retries=1))
        assert server.count == 2
        deadline = time.monotonic() + 5
        while server.disconnects < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert server.disconnects == 2  # the server found both clients gone when it wrote its first token


def test_a_server_that_does_not_stream_is_read_as_a_plain_reply():
    with OpenAIServer(streams=False) as server:
        reply = _call(_agent(server))
    assert reply.status == "ok" and reply.streamed is False and reply.first_token_s is None
    assert reply.usage["completion_tokens"] > 0 and server.count == 1


def test_a_server_that_refuses_stream_options_is_asked_again_without_them():
    refusal = {"error": {"message": "Unrecognized request argument supplied: stream_options", "type": "invalid"}}
    with OpenAIServer() as server:
        server.queue(status(400, refusal), ok(TEN_WORDS))
        reply = _call(_agent(server))  # max_retries 0: the second request is not a retry
    assert reply.text == TEN_WORDS and server.count == 2 and "stream_options" not in server.requests[1].json
    assert reply.extra.get("usage_counted_from_chunks") and reply.usage["completion_tokens"] == 10


def _together(agents: list[dict[str, Any]]) -> list[Any]:
    """Call the agents at once, each from its own thread; their replies (or exceptions) in order."""
    results: list[Any] = [None] * len(agents)

    def one(i: int) -> None:
        try:
            results[i] = _call(agents[i])
        except Exception as exc:  # noqa: BLE001 - returned for the test to look at
            results[i] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(agents))]
    for i, thread in enumerate(threads):
        thread.start()
        time.sleep(0.1 * (i > 0))
    for thread in threads:
        thread.join(30)
    return results


def test_a_one_slot_server_that_says_so_gets_one_request_at_a_time():
    """llama.cpp's /props says one slot: the second request is not sent until the first reply is whole, however
    long that takes past the silence timeout."""
    props = {"total_slots": 1, "default_generation_settings": {"n_ctx": 4096}}
    with OpenAIServer(slots=1, pages={"/props": props}, default=ok(TEN_WORDS, gap=0.1)) as server:
        info = server_info(server.url + "/", "none", "m")
        replies = _together([_agent(server, timeout_s=0.5)] * 2)
    assert (info.capacity, info.window) == (1, 4096) and "GET /props" in info.capacity_source
    assert [r.text for r in replies] == [TEN_WORDS] * 2 and [r.tries for r in replies] == [1, 1]
    assert server.peak_arrived == 1 and server.count == 2


def test_a_request_queued_behind_a_streaming_one_is_not_a_failed_try_and_lowers_the_cap(caplog):
    """The server does not say its capacity: both go; the second waits in its queue without a byte, times out
    while the first is streaming, and is asked again only once the first reply is whole (max_retries 0: a
    counted failure would have raised); the cap, lowered to 1, climbs back to 2 with the first reply."""
    with OpenAIServer(slots=1, default=ok(TEN_WORDS, gap=0.15)) as server:
        replies = _together([_agent(server, timeout_s=0.6)] * 2)
        cap = endpoint_cap.endpoint_cap(server.url + "/", None, None)
    assert [r.text for r in replies] == [TEN_WORDS] * 2
    assert sorted(r.tries for r in replies) == [1, 2] and server.peak_in_flight == 1
    assert "requests in flight capped at 1 (was None)" in caplog.text and cap.cap == 2


@pytest.mark.parametrize("code", [429, 503])
def test_a_refusal_for_load_lowers_the_cap_and_is_retried(code, caplog):
    with OpenAIServer() as server:
        server.queue(status(code, headers={"Retry-After": "0"}), ok("fine"))
        reply = _call(_agent(server, max_retries=1))
        cap = endpoint_cap.endpoint_cap(server.url + "/", None, None)
    assert reply.text == "fine" and reply.tries == 2
    assert f"HTTP {code}; requests in flight capped at 1" in caplog.text and cap.cap == 2  # 1, then the reply


def test_the_cap_falls_on_load_and_climbs_back_one_at_a_time(monkeypatch):
    monkeypatch.setattr(endpoint_cap, "QUEUED_S", 0.0)
    cap = EndpointCap("http://x/v1/")
    with cap.slot() as a, cap.slot(), cap.slot() as c:
        assert cap.cap is None
        cap.refused(c, "HTTP 503")  # three in flight, one refused: two
        assert cap.cap == 2
        cap.token(a)  # a streams; b and c wait without a token: queued, so one at a time
        assert cap.cap == 1
    for expected in (2, 2, 3, 3, 3):  # one more after as many replies in a row as the cap
        cap.replied()
        assert cap.cap == expected
    stated = EndpointCap("http://y/v1/", capacity=2)
    for _ in range(5):
        stated.replied()
    assert stated.cap == 2  # never above what the server says


def test_a_refusal_that_states_the_window_teaches_it():
    message = "This model's maximum context length is 8192 tokens. However, you requested 61801 tokens"
    with OpenAIServer() as server:
        server.queue(status(400, {"error": {"message": message, "type": "invalid_request_error"}}))
        reply = _call(_agent(server))
        learnt = learnt_window(server.url, "m")
    assert reply.status == "context" and reply.extra["window_tokens"] == 8192 and learnt == 8192
    assert window_in('{"code":400,"message":"the request exceeds the available context size","n_ctx":4096}') == 4096
    assert window_in("Requested tokens (9000) exceed context window of 2048") == 2048
    assert window_in("HTTP 400: bad temperature") is None


def test_the_reply_ceiling_leaves_the_prompt_its_room():
    prompt = [{"content": "x" * 3000}]  # 1000 tokens at 3 characters a token, 1250 with the margin
    assert reply_ceiling(10_000, 8192, prompt) == 6942
    assert reply_ceiling(10_000, 8192, prompt, share=0.25) == 2048  # a reply that later prompts embed
    assert reply_ceiling(2048, 8192, prompt) == 2048
    assert reply_ceiling(2048, None, prompt) == 2048 and reply_ceiling(None, 8192, prompt) is None
    assert reply_ceiling(2048, 1000, prompt) == 16  # nothing left: the least, and the server says the rest
    assert tokens_per_second(100, 12.0, 2.0) == 10.0 and tokens_per_second(100, 4.0, None) == 25.0
    assert tokens_per_second(0, 4.0, 1.0) is None


def test_the_window_sent_with_the_reply_ceiling_reaches_the_server():
    with OpenAIServer(windows={"m": 1024}) as server:
        reply = _call(_agent(server, max_tokens=4096))
    assert server.requests[0].json["max_tokens"] == reply.extra["max_tokens_sent"] < 1024


@pytest.mark.parametrize(
    ("pages", "capacity", "window", "named"),
    [
        ({"/slots": [{"id": 0, "n_ctx": 2048}, {"id": 1, "n_ctx": 2048}]}, 2, 2048, "GET /slots"),
        ({"/openapi.json": {"info": {"title": "🦙 llama.cpp Python API"}}}, 1, None, "llama-cpp-python"),
        ({"/metrics": 'vllm:num_requests_running{model_name="m"} 0.0\n'}, None, None, None),
        ({"/metrics": 'vllm:scheduler_config_info{max_num_seqs="64",model_name="m"} 1.0\n'}, 64, None, "max_num_seqs"),
        ({"/api/ps": {"models": [{"name": "m", "model": "m", "context_length": 32768}]}}, None, 32768, "Ollama"),
        ({"/api/v0/models": {"data": [{"id": "m", "loaded_context_length": 16384}]}}, None, 16384, "LM Studio"),
    ],
)
def test_what_each_server_says_of_itself_is_read_and_named(pages, capacity, window, named):
    with OpenAIServer(pages=pages) as server:
        info = server_info(server.url + "/", "none", "m")
    assert (info.capacity, info.window) == (capacity, window)
    if named:
        assert named in (info.capacity_source or info.window_source)


def test_an_abandoned_run_closes_the_streaming_reply():
    with OpenAIServer() as server:
        server.queue(ok(TEN_WORDS, gap=0.2))
        with pytest.raises(EndpointError, match="abandoned"):
            call_openai(_agent(server), MESSAGES, agent_name="tester", seed=None, abandon=lambda: True)
        deadline = time.monotonic() + 5
        while server.disconnects < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert server.count == 1 and server.disconnects == 1  # asked once, left at once: the server saw it go
