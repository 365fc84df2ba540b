"""A run that ends with its summary (issue 37): the time limit (``max_minutes``) and Ctrl-C on ``simcodebench
eval`` stop the asking, the samples left are counted apart, the summary is written and the next run asks them;
the summary's replies section (time to first token, tokens a second, requests in flight at once)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
import yaml
from openai_server import OpenAIServer, ok
from pipeline import make_workdir, scores, snakemake

from simcodebench.agents import run_stop
from simcodebench.report.replies import in_flight

CASES = ["q01", "q02", "q03", "q04", "q05"]
EVAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "  # the worst case: inherited ignored
    "from simcodebench.cli import main; sys.exit(main(sys.argv[1:]))"
)


def _agent(url: str, **extra) -> dict:
    return {"backend": "openai", "base_url": url, "model": "m", "api_key_env": None, **extra}


def test_in_flight_counts_the_overlaps_and_the_time_weighted_mean():
    assert in_flight([]) == (0, 0.0)
    # two overlapping requests, then one alone: 30 s of requests over 30 s
    assert in_flight([(0, 10), (5, 15), (20, 30)]) == (2, 1.0)
    # three at once for a second: (4 + 1 + 2) request-seconds over 4 s
    assert in_flight([(0, 4), (1, 2), (1, 3)]) == (3, 1.75)
    # one ends as the next starts: never two in flight
    assert in_flight([(0, 1), (1, 2)]) == (1, 1.0)


def test_the_time_limit_counts_from_the_runs_start(tmp_path, monkeypatch):
    ledger = tmp_path / "cache" / "spend" / "a.jsonl"
    monkeypatch.setenv(run_stop.RUN_STARTED, repr(time.time() - 90))
    assert run_stop.stop_reason({"max_minutes": 2}, ledger) is None
    reason = run_stop.stop_reason({"max_minutes": 1}, ledger)
    assert reason.startswith("not asked: stopped by its time limit after 1.5 min (max_minutes 1)")
    assert (ledger.parent / "a.stopped").is_file()  # the next run asks what this one left
    (tmp_path / "cache" / "stop-asking").touch()
    assert "stopped by the user" in run_stop.stop_reason({}, ledger)


@pytest.mark.slow
def test_a_time_limit_stops_asking_writes_the_summary_and_the_next_run_asks_the_rest(tmp_path):
    with OpenAIServer(default=ok(text="The answer is 2.", gap=0.05)) as server:
        config = {"suites": ["cfd-query"], "cases": {"cfd-query": CASES}, "agents": {"timed": _agent(server.url)}}
        config["agents"]["timed"]["max_minutes"] = 0
        work = make_workdir(tmp_path, config)
        snakemake(work, "--resources", "llm_openai=1")
        assert server.count == 0
        frame = scores(work)
        assert frame.failure_class.eq("F-Budget").all() and len(frame) == len(CASES)
        summary = (work / "results" / "summary" / "summary.md").read_text()
        assert "**timed**: stopped by its time limit" in summary and "5 samples not asked (cfd-query 5)" in summary

        del config["agents"]["timed"]["max_minutes"]
        (work / "config" / "config.yaml").write_text(
            yaml.safe_dump({**yaml.safe_load((work / "config" / "config.yaml").read_text()), **config})
        )
        snakemake(work, "--resources", "llm_openai=1")
        assert server.count == len(CASES)
    frame = scores(work)
    assert not frame.failure_class.eq("F-Budget").any()
    assert frame.first_token_s.notna().all() and frame.tokens_per_s.notna().all()
    spans = [span for text in frame.requests for span in json.loads(text)]
    assert len(spans) == len(CASES) and in_flight(spans)[0] == 1  # llm_openai=1: one at a time
    summary = (work / "results" / "summary" / "summary.md").read_text()
    assert "## Replies received in this run" in summary and "| timed | 5 |" in summary


def _eval(work, url: str) -> subprocess.Popen:
    argv = ["eval", "--model", "m", "--base-url", url, "--suites", "cfd-query", "--limit", str(len(CASES))]
    argv += ["--run-dir", str(work), "--max-connections", "1", "--cores", "2"]
    return subprocess.Popen([sys.executable, "-c", EVAL, *argv], env=os.environ, stdout=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_ctrl_c_on_eval_stops_asking_writes_the_summary_and_the_next_eval_resumes(tmp_path):
    """SIGINT reaches ``simcodebench eval`` alone, as the terminal's Ctrl-C does (the workflow runs in a session
    of its own): the reply in flight finishes, nothing more is asked, the summary is written. The eval process
    starts with SIGINT ignored, as a job started with `&` from a script (or a test runner's worker) inherits it:
    the full suite once saw all five asked that way; ``run_stoppable`` takes SIGINT back."""
    with OpenAIServer(default=ok(text="The answer is 2.", gap=0.3)) as server:
        process = _eval(tmp_path, server.url)
        deadline = time.monotonic() + 120
        while server.count < 2:  # the preflight's request, then the workflow's first
            assert process.poll() is None and time.monotonic() < deadline, "the workflow asked nothing"
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0, out
        asked = server.count - 1
        assert 1 <= asked < len(CASES)
        frame = pd.read_csv(tmp_path / "results" / "summary" / "scores.csv")
        assert frame.failure_class.eq("F-Budget").sum() == len(CASES) - asked
        assert "stopped by the user (Ctrl-C" in (tmp_path / "results" / "summary" / "summary.md").read_text()
        assert not (tmp_path / "results" / "cache" / "stop-asking").exists()

        again = _eval(tmp_path, server.url)
        out, _ = again.communicate(timeout=300)
        assert again.returncode == 0, out
        assert server.count == 1 + len(CASES) + 1  # a second preflight, then only the samples left
    frame = pd.read_csv(tmp_path / "results" / "summary" / "scores.csv")
    assert not frame.failure_class.eq("F-Budget").any() and len(frame) == len(CASES)
