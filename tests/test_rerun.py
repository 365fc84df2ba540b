"""`make rerun CASE=suite/case AGENT=name` executes and scores that case again (the batches that hold its samples)
and touches nothing else: no prompt is rebuilt and no reply asked, even where the rerun changes the feedback a
retry attempt was built on (nor does a later run ask)."""

from __future__ import annotations

import time

import pytest
from openai_server import OpenAIServer
from pipeline import REPO, make_workdir, scores, snakemake
from rerun import make_rerun, rerun_scope, snapshot, stray_changes

pytestmark = pytest.mark.slow

KEY = {"SCB_TEST_KEY": "sk-test-rerun"}
CRASH = "```python\nimport random, sys\nsys.exit(f'crashed, {random.random()}')\n```\n"


def reply(request: dict) -> str:
    """First attempts: a crash whose stderr, which the retry's feedback quotes, differs from run to run (F-Exec);
    retries: the case's reference solution (Pass)."""
    prompt = [m["content"] for m in request["messages"] if m["role"] == "user"]
    if len(prompt) == 1:
        return CRASH
    case = "keyhole" if "keyhole" in prompt[0].lower() else "hilbert"
    return f"```python\n{(REPO / 'cases' / 're4' / case / 'reference_solution.py').read_text()}```\n"


def test_rerun_touches_one_case_and_asks_nothing(tmp_path, python_env, monkeypatch):
    monkeypatch.setenv("SCB_TEST_KEY", KEY["SCB_TEST_KEY"])
    with OpenAIServer(responder=reply) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": "SCB_TEST_KEY"}
        config = {
            "suites": ["re4"],
            "cases": {"re4": ["hilbert", "keyhole"]},
            "agents": {"model": {**agent, "samples": 2, "attempts": 2}, "oracle": {"backend": "oracle"}},
            "samples_per_job": 2,  # the model's batches hold one case each
        }
        work = make_workdir(tmp_path, config)
        snakemake(work, env=KEY)
        assert server.count == 8
        frame = scores(work)
        assert list(frame[frame.agent == "model"].sort_values("attempt").failure_class) == 4 * ["F-Exec"] + 4 * ["Pass"]
        before = snapshot(work)
        summary = (work / "results" / "summary" / "scores.csv").stat().st_mtime_ns
        time.sleep(0.05)
        make_rerun(work, "re4/hilbert", "model")
        assert server.count == 8  # no reply asked again
    after = snapshot(work)
    changed = {path for path in before if after.get(path, (None,))[0] != before[path][0]}
    rerun = {
        f"runs/model/re4/hilbert/{s}/{a}/{leaf}"
        for s in (0, 1)
        for a in (0, 1)
        for leaf in ("run/run.json", "score.json")
    }
    assert rerun <= changed
    scope = rerun_scope(work, "model", "re4/hilbert")
    assert scope[0] == {"runs/model/re4/hilbert/0/", "runs/model/re4/hilbert/1/"}  # no other case's samples
    stray = stray_changes(before, after, scope)
    assert not stray, sorted(stray)
    assert set(after) >= set(before)
    assert (work / "results" / "summary" / "scores.csv").stat().st_mtime_ns > summary
    assert len(scores(work)) == 10
    again = snakemake(work, "-n", env=KEY)
    assert "Nothing to be done" in again.stdout + again.stderr  # nor will a later run ask anything
