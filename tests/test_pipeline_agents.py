"""End to end with real model-facing backends: an OpenAI-protocol server on 127.0.0.1 and a replay file."""

from __future__ import annotations

import json
import shutil

import pytest
from openai_server import OpenAIServer, ok, status
from pipeline import REPO, make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

SECRET = "sk-test-do-not-leak-4242"


def _oracle_reply(case: str) -> str:
    source = (REPO / "cases" / "re4" / case / "reference_solution.py").read_text()
    return f"Here is my solution.\n\n```python\n{source}```\n"


def _openai_agent(url: str, samples: int, **extra) -> dict:
    """An agent of the test server at ``url``, its key in SCB_TEST_KEY."""
    return {
        "backend": "openai",
        "base_url": url,
        "model": "test-model",
        "api_key_env": "SCB_TEST_KEY",
        "samples": samples,
        "backoff_s": 0.01,
        **extra,
    }


def test_openai_agent_is_asked_once_and_cached(tmp_path, python_env):
    with OpenAIServer(responder=lambda request: _oracle_reply("hilbert")) as server:
        price = {"prompt_per_1m": 1.0, "completion_per_1m": 2.0}
        agent = _openai_agent(server.url, 2, temperature=0.0, max_tokens=4000, price=price)
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
        snakemake(work, "--forcerun", "ask", "--config", "force_reply=True", env=env)
        assert server.count == 4

    for path in (work / "results").rglob("*"):
        if path.is_file() and path.suffix in (".json", ".md", ".txt", ".csv"):
            assert SECRET not in path.read_text(errors="replace"), path


def test_batches_of_a_large_sweep_ask_each_sample_once_and_the_last_summarises_all(tmp_path, python_env):
    """docs/running.md, "Very large sweeps": ``--batch aggregate=i/n`` plans and runs part of the samples, without the
    summary; the last batch runs its own part, asks nothing already asked and summarises every sample."""
    with OpenAIServer(responder=lambda request: _oracle_reply("hilbert")) as server:
        agent = _openai_agent(server.url, 4)
        config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"m": agent}, "samples_per_job": 2}
        work = make_workdir(tmp_path, config)  # two batches (aggregate's inputs) of two samples each
        env = {"SCB_TEST_KEY": SECRET}
        snakemake(work, "--batch", "aggregate=1/2", env=env)
        assert server.count == 2 and not (work / "results" / "summary" / "scores.csv").exists()
        snakemake(work, "--batch", "aggregate=2/2", env=env)
        assert server.count == 4
        frame = scores(work)
        assert sorted(frame["sample"]) == [0, 1, 2, 3] and set(frame.failure_class) == {"Pass"}


def _line(sample: int, attempt: int, response: str, **extra) -> dict:
    return {"suite": "re4", "case": "hilbert", "sample": sample, "attempt": attempt, "response": response, **extra}


ZEROS = (
    "```python\nimport numpy as np\n"
    "np.savez('solution.npz', **{f'x_{n}': np.zeros(n) for n in (5, 10, 15, 20, 25)})\n```"
)


def test_replay_agent_scores_replies_as_they_deserve(tmp_path, python_env):
    replies = tmp_path / "replies.jsonl"
    lines = [
        _line(0, 0, _oracle_reply("hilbert"), model="recorded-model"),  # passes; attempt 1 is skipped
        _line(0, 1, "never asked: attempt 0 passed"),
        _line(1, 0, "I would use Cholesky."),  # no code block
        _line(1, 1, "Still no code."),
        _line(2, 0, ZEROS),  # runs, wrong answer; attempt 1 repairs it
        _line(2, 1, _oracle_reply("hilbert")),
        # sample 3 has no line at all: "no response", not a harness error
    ]
    replies.write_text("".join(json.dumps(line) + "\n" for line in lines))
    agent = {"backend": "replay", "file": str(replies), "samples": 4, "attempts": 2}
    work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"rec": agent}})
    snakemake(work)
    frame = scores(work).sort_values(["sample", "attempt"])
    observed = [
        (r.sample, r.attempt, r.status, r.failure_class if r.status == "scored" else None) for r in frame.itertuples()
    ]
    assert observed == [
        (0, 0, "scored", "Pass"),
        (0, 1, "skipped", None),
        (1, 0, "scored", "F-Extract"),
        (1, 1, "scored", "F-Extract"),
        (2, 0, "scored", "F-Acc"),
        (2, 1, "scored", "Pass"),
        (3, 0, "scored", "F-NoResponse"),
        (3, 1, "scored", "F-NoResponse"),
    ]
    finals = frame[frame.final]
    assert list(zip(finals["sample"], finals["attempt"], strict=True)) == [(0, 0), (1, 1), (2, 1), (3, 1)]
    retry = json.loads((work / "results/runs/rec/re4/hilbert/2/1/messages.json").read_text())["messages"]
    assert retry[-2] == {"role": "assistant", "content": ZEROS}
    assert "F-Acc" in retry[-1]["content"] and "1.000e+00" in retry[-1]["content"]
    assert "threshold" not in retry[-1]["content"] and "1.000e-02" not in retry[-1]["content"]


def test_bad_agent_config_is_one_clear_line(tmp_path):
    work = make_workdir(tmp_path, {"suites": ["re4"], "agents": {"x": {"backend": "replay", "file": "missing.jsonl"}}})
    result = snakemake(work, "-n", check=False)
    assert result.returncode != 0
    assert "field 'agents.x.file': 'missing.jsonl' does not exist" in result.stdout + result.stderr


def test_replies_cut_at_max_tokens_are_scored_flagged_and_counted(tmp_path, python_env):
    """A reply cut at max_tokens (finish_reason length) is extracted up to the cut, scored, flagged in score.json
    and scores.csv, named in its message, and counted in the summary with a warning."""
    source = (REPO / "cases" / "re4" / "hilbert" / "reference_solution.py").read_text()
    cut = {
        0: f"```python\n{source}",  # complete but for its closing fence: runs and passes
        1: "```python\nimport numpy as np\nnp.savez('solution.npz', x_5=np.",  # cut mid-line
        2: "Let me think about the Hilbert matrix step by step. First,",  # cut before any code
    }
    with OpenAIServer(responder=lambda request: ok(cut[request["seed"]], finish_reason="length")) as server:
        agent = _openai_agent(server.url, 3, seed=0, max_tokens=50)
        work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"m": agent}})
        snakemake(work, env={"SCB_TEST_KEY": SECRET})
    frame = scores(work).sort_values("sample")
    assert list(frame.failure_class) == ["Pass", "F-Exec", "F-Extract"]
    assert frame.truncated.all() and set(frame.finish_reason) == {"length"}
    cut_first = "the reply was cut at max_tokens (finish_reason length)"
    assert frame.message.iloc[1].startswith(cut_first + ";")
    assert frame.message.iloc[2].startswith(cut_first + " before its code was complete: the reply has no fenced")
    score = json.loads((work / "results/runs/m/re4/hilbert/2/0/score.json").read_text())
    assert score["truncated"] and score["generation"]["finish_reason"] == "length"
    summary = (work / "results/summary/summary.md").read_text()
    assert "| m | 3 | 3 | 100.0% |" in summary and "**Warning:** 3 of 3 replies of agent `m`" in summary


def test_prompts_over_the_context_window_fail_their_samples_and_the_summary_is_written(tmp_path, python_env):
    """A prompt over the stated window is never sent, and one the endpoint refuses with a 400 naming the context
    length is not retried as is: it is sent once more with the reply's ceiling lowered to what the stated window
    leaves (the prompt, about 410 tokens, may fit 512 with a short reply), and refused again; both samples fail
    as F-Context, and the run goes on to its summary."""
    message = "This model's maximum context length is 512 tokens. However, you requested 2000 tokens."
    refusal = status(400, {"error": {"message": message, "type": "invalid_request_error"}})
    with OpenAIServer(default=refusal) as server:
        agents = {"small": _openai_agent(server.url, 1, context_tokens=10), "refused": _openai_agent(server.url, 1)}
        work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": agents})
        snakemake(work, env={"SCB_TEST_KEY": SECRET})
        assert server.count == 2  # the refused agent's two requests; the small one sent nothing
        first, second = (request.json.get("max_tokens") for request in server.requests)
        assert first > 512 and second <= 512 - 410
    frame = scores(work).set_index("agent")
    assert set(frame.failure_class) == {"F-Context"}
    assert "cannot fit the context window of 10 tokens" in frame.loc["small", "message"]
    assert "maximum context length is 512 tokens" in frame.loc["refused", "message"]
    summary = (work / "results/summary/summary.md").read_text()
    assert "| agent | F-Context | total |" in summary


def test_reasoning_is_kept_in_response_json_and_never_extracted(tmp_path, python_env):
    """A <think> block holding a longer, failing draft: the answer after it is what runs (Pass), and
    response.json keeps the draft apart, in ``reasoning``."""
    draft = "```python\nraise SystemExit('the draft')\n" + "# thinking it over\n" * 200 + "```"
    reply = f"<think>\n{draft}\n</think>\n\n{_oracle_reply('hilbert')}"
    with OpenAIServer(responder=lambda request: reply) as server:
        agents = {"m": _openai_agent(server.url, 1)}
        work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": agents})
        snakemake(work, env={"SCB_TEST_KEY": SECRET})
    assert list(scores(work).failure_class) == ["Pass"]
    response = json.loads((work / "results/runs/m/re4/hilbert/0/0/response.json").read_text())
    assert response["reasoning"] == draft and "<think>" not in response["text"] and "the draft" not in response["text"]
