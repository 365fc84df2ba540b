"""The ceiling on every reply (a suite's default ``max_tokens``, and where each role's value comes from, as
``eval_config.yaml`` shows it), and a prompt refitted into the window a refusal states, then sent once more."""

from __future__ import annotations

import json

import yaml
from openai_server import OpenAIServer, status
from pipeline import REPO

from simcodebench.agents.fit_context import FIT_CHARS_PER_TOKEN
from simcodebench.agents.settings import Agent
from simcodebench.cli import build_parser
from simcodebench.core.cases import get_case
from simcodebench.pipeline.ask import prompt_and_reply
from simcodebench.pipeline.plan import Plan
from simcodebench.run.eval_config import config_text, default_config, resolve_config
from simcodebench.run.reply_limits import reply_limit_lines

SUITES = ["cfd-query", "cfd-code", "re4", "fem"]


def _lines(*options: str) -> dict[str, str]:
    args = build_parser().parse_args(
        ["eval", "--model", "m", "--base-url", "http://x/v1", "--suites", *SUITES, "--limit", "1", *options]
    )
    config = resolve_config(args, default_config())
    lines = reply_limit_lines(Plan.from_config(config))
    assert config_text(config, [], [], lines).count("\n#   m ") == len(lines)  # each a comment of eval_config.yaml
    return {line.split(":", 1)[0]: line.split(": ", 1)[1] for line in lines}


def _stated(suite: str) -> int:
    """The suite's default ``max_tokens``, as its ``suite.yaml`` states it."""
    return int(yaml.safe_load((REPO / "cases" / suite / "suite.yaml").read_text())["reply_tokens"]["default"])


def test_every_role_of_every_suite_is_sent_a_ceiling_and_says_where_it_came_from():
    paper = _lines("--protocol", "paper")
    assert set(paper) == {
        "m cfd-query programmer",
        "m cfd-code programmer",
        "m re4 consultant",
        "m re4 programmer",
        "m re4 reviewer",
        "m fem programmer",
    }
    assert paper["m cfd-code programmer"].startswith("max_tokens 8000 (the paper's protocol")
    for role in ("consultant", "programmer", "reviewer"):  # the paper leaves Re4's limit out: the suite's default
        assert paper[f"m re4 {role}"].startswith(f"max_tokens {_stated('re4')} (the suite's default")
    assert paper["m fem programmer"].startswith(f"max_tokens {_stated('fem')} (the suite's default")
    basis = yaml.safe_load((REPO / "cases" / "cfd-query" / "suite.yaml").read_text())["reply_tokens"]["basis"]
    expected = f"(the suite's default (cases/cfd-query/suite.yaml reply_tokens: {basis}))"
    assert _lines()["m cfd-query programmer"] == f"max_tokens {_stated('cfd-query')} {expected}"
    own = _lines("--max-tokens", "300")
    assert set(own.values()) == {"max_tokens 300 (agents.m.max_tokens)"}
    assert _lines("--max-tokens", "300", "--protocol", "paper")["m cfd-code programmer"].startswith("max_tokens 8000")


def test_a_refusal_that_states_the_window_refits_the_prompt_and_sends_it_once_more(tmp_path):
    """The server states no window; its refusal of the whole fem prompt names 3000 tokens: the guide's optional
    sections are dropped to fit 3000 less the reply, and the second request fits."""
    refusal = "This model's maximum context length is 3000 tokens. However, you requested 9000 tokens"
    case = get_case("fem", "navier_stokes_square")
    settings = {"backend": "openai", "model": "m", "api_key_env": None, "max_tokens": 500, "max_retries": 0}
    with OpenAIServer() as server:
        server.queue(status(400, {"error": {"message": refusal, "type": "invalid_request_error"}}))
        agent = Agent(name="m", settings={**settings, "base_url": server.url})
        prompt_and_reply(agent, case, 0, 0, tmp_path, [None] * 3, tmp_path / "cache")
    first, second = (sum(len(m["content"]) for m in r.json["messages"]) for r in server.requests)
    payload = json.loads((tmp_path / "messages.json").read_text())
    response = json.loads((tmp_path / "response.json").read_text())
    assert server.count == 2 and response["status"] == "ok"
    assert payload["context_fit"]["window_tokens"] == 3000 and payload["context_fit"]["dropped"]
    assert first / FIT_CHARS_PER_TOKEN > 3000 >= second / FIT_CHARS_PER_TOKEN + 500
    assert server.requests[1].json["max_tokens"] == response["extra"]["max_tokens_sent"] <= 500
