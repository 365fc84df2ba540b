"""A finished record stands for files that exist: delete part of ``results/`` and the same command redoes what is
missing and everything downstream of it, asks nothing already in the reply cache, and never crashes."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from openai_server import OpenAIServer
from pipeline import REPO, make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

KEY = "sk-test-deleted-results"


def _reply(request: dict) -> str:
    source = (REPO / "cases" / "re4" / "hilbert" / "reference_solution.py").read_text()
    return f"```python\n{source}```\n"


def _scores(work: Path) -> list[Path]:
    return sorted((work / "results" / "runs").rglob("score.json"))


DELETIONS = [
    ["runs"],
    ["runs", "summary"],
    ["batches"],
    ["summary"],
    ["references"],
    ["calibration"],
    ["references/re4/sod", "runs/oracle/re4/sod"],  # one case's part
]
"""What is deleted before each rerun, in turn, in one working directory."""


def _check_rerun(work: Path, server: OpenAIServer, deleted: list[str], env: dict[str, str]) -> None:
    asked, before, expected = server.count, scores(work), len(_scores(work))
    time.sleep(1.1)  # a file made again has a later mtime than any made before
    started = time.time()
    for part in deleted:
        shutil.rmtree(work / "results" / part)
    snakemake(work, env=env)
    assert server.count == asked, deleted  # every reply came from the cache
    for part in deleted:
        assert (work / "results" / part).is_dir(), f"results/{part} was not made again"
    assert len(_scores(work)) == expected
    assert (work / "results" / "summary" / "scores.csv").stat().st_mtime >= started, deleted
    if deleted != ["summary"]:  # the summary alone is written again from the scores as they stand
        redone = {p.parts[-4] for p in _scores(work) if p.stat().st_mtime >= started}  # their cases
        assert "sod" in redone, (deleted, redone)
    key = ["agent", "case", "sample", "attempt"]
    assert scores(work).sort_values(key)[[*key, "failure_class"]].values.tolist() == (
        before.sort_values(key)[[*key, "failure_class"]].values.tolist()
    )


def test_deleted_results_are_made_again(tmp_path, python_env):
    with OpenAIServer(responder=_reply) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": "SCB_KEY", "samples": 2}
        config = {
            "suites": ["re4"],
            "cases": {"re4": ["hilbert", "sod"]},
            "agents": {"model": agent, "oracle": {"backend": "oracle"}},
        }
        work = make_workdir(tmp_path, config, repeats=1)
        env = {"SCB_KEY": KEY}
        snakemake(work, env=env)
        assert server.count == 4 and len(_scores(work)) == 6  # 2 model samples and 1 oracle sample per case
        for deleted in DELETIONS:
            _check_rerun(work, server, deleted, env)
