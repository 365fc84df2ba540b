"""End to end with real model-facing backends: an OpenAI-protocol server on 127.0.0.1 and a replay file."""

from __future__ import annotations

import json
import shutil

import pytest
from openai_server import OpenAIServer
from pipeline import REPO, make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

SECRET = "sk-test-do-not-leak-4242"


def _oracle_reply(case: str) -> str:
    source = (REPO / "cases" / "re4" / case / "reference_solution.py").read_text()
    return f"Here is my solution.\n\n```python\n{source}```\n"


def test_openai_agent_is_asked_once_and_cached(tmp_path, python_env):
    with OpenAIServer(responder=lambda request: _oracle_reply("hilbert")) as server:
        agent = {
            "backend": "openai",
            "base_url": server.url,
            "model": "test-model",
            "api_key_env": "SCB_TEST_KEY",
            "temperature": 0.0,
            "max_tokens": 4000,
            "samples": 2,
            "backoff_s": 0.01,
            "price": {"prompt_per_1m": 1.0, "completion_per_1m": 2.0},
        }
        work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"m": agent}})
        env = {"SCB_TEST_KEY": SECRET}
        snakemake(work, env=env)
        assert server.count == 2  # two samples, one request each
        frame = scores(work)
        assert list(frame.failure_class) == ["Pass", "Pass"]
        assert (frame.completion_tokens > 0).all() and (frame.cost_usd > 0).all()
        assert {r.json["model"] for r in server.requests} == {"test-model"}

        # deleting every run and rerunning asks nothing again: the reply cache answers
        shutil.rmtree(work / "results" / "runs")
        snakemake(work, env=env)
        assert server.count == 2
        assert list(scores(work).failure_class) == ["Pass", "Pass"]

        # forcing a new reply is one option
        snakemake(work, "--forcerun", "generate", "--config", "force_reply=true", env=env)
        assert server.count == 4

    for path in (work / "results").rglob("*"):
        if path.is_file() and path.suffix in (".json", ".md", ".txt", ".csv"):
            assert SECRET not in path.read_text(errors="replace"), path


def test_replay_agent_scores_replies_as_they_deserve(tmp_path, python_env):
    replies = tmp_path / "replies.jsonl"
    lines = [
        {
            "suite": "re4",
            "case": "hilbert",
            "sample": 0,
            "attempt": 0,
            "response": _oracle_reply("hilbert"),
            "model": "recorded-model",
        },
        {"suite": "re4", "case": "hilbert", "sample": 1, "attempt": 0, "response": "I would use Cholesky."},
        {
            "suite": "re4",
            "case": "hilbert",
            "sample": 2,
            "attempt": 0,
            "response": "```python\nimport numpy as np\nnp.savez('solution.npz', **{f'x_{n}': np.zeros(n) "
            "for n in (5, 10, 15, 20, 25)})\n```",
        },
        # sample 3 has no line: "no response", not a harness error
    ]
    replies.write_text("".join(json.dumps(line) + "\n" for line in lines))
    work = make_workdir(
        tmp_path,
        {
            "suites": ["re4"],
            "cases": {"re4": ["hilbert"]},
            "agents": {"rec": {"backend": "replay", "file": str(replies), "samples": 4}},
        },
    )
    snakemake(work)
    frame = scores(work).sort_values("sample")
    assert list(frame.failure_class) == ["Pass", "F-Extract", "F-Acc", "F-NoResponse"]


def test_bad_agent_config_is_one_clear_line(tmp_path):
    work = make_workdir(tmp_path, {"suites": ["re4"], "agents": {"x": {"backend": "replay", "file": "missing.jsonl"}}})
    result = snakemake(work, "-n", check=False)
    assert result.returncode != 0
    assert "field 'agents.x.file': 'missing.jsonl' does not exist" in result.stdout + result.stderr
