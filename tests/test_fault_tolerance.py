"""kill -9 at any point loses nothing finished: the rerun keeps finished samples, redoes the rest, and asks the
endpoint for no reply twice; a writer killed mid-write never leaves a half-written reply-cache entry."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openai_server import OpenAIServer
from pipeline import REPO, SNAKEMAKE, make_workdir, scores, snakemake

from simcodebench.backends.cache import ReplyCache

SAMPLES = 10
SLOW_ORACLE = "```python\nimport time\ntime.sleep(1.0)\n{source}```\n"


def _cached(work: Path) -> int:
    return sum(1 for _ in (work / "results" / "cache" / "replies").glob("*/*.json"))


def _finals(work: Path) -> list[Path]:
    return sorted((work / "results" / "runs").glob("m/re4/hilbert/*/final.json"))


@pytest.mark.slow
def test_kill_9_mid_run_then_rerun_keeps_finished_work(tmp_path, python_env):
    source = (REPO / "cases" / "re4" / "hilbert" / "reference_solution.py").read_text()
    env = {"SCB_TEST_KEY": "sk-test-kill"}
    with OpenAIServer(responder=lambda request: SLOW_ORACLE.format(source=source)) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": "SCB_TEST_KEY"}
        agent["samples"] = SAMPLES
        work = make_workdir(tmp_path, {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"m": agent}})
        command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work)]
        first = subprocess.Popen(
            [*command, "--profile", str(REPO / "profiles" / "local")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **env},
        )
        try:
            deadline = time.monotonic() + 600
            while not (_cached(work) == SAMPLES and len(_finals(work)) >= 2):
                assert first.poll() is None, "the run ended before it could be killed"
                assert time.monotonic() < deadline, "the run made no progress"
                time.sleep(0.05)
            first.send_signal(signal.SIGKILL)
        finally:
            first.kill()
            first.wait()
        finished = [p.parent for p in _finals(work)]
        assert 2 <= len(finished) < SAMPLES, "killed too late to leave unfinished samples"
        files = [f for sample in finished for f in (sample / "0" / "score.json", sample / "0" / "run" / "run.json")]
        kept = {f: f.stat().st_mtime_ns for f in files}
        assert server.count == SAMPLES

        snakemake(work, "--unlock")
        snakemake(work, env=env)
        assert server.count == SAMPLES  # every reply came from the cache, none was asked twice
    assert {f: f.stat().st_mtime_ns for f in kept} == kept
    frame = scores(work)
    assert len(frame) == SAMPLES and (frame.failure_class == "Pass").all(), frame[["sample", "failure_class"]]


WRITER = """
import sys
from simcodebench.backends.cache import ReplyCache
cache = ReplyCache(sys.argv[1])
record = {"text": "x" * 4_000_000}
for i in range(10_000):
    cache.put(f"{i:064x}", record)
"""


def test_a_killed_cache_writer_leaves_no_half_written_entry(tmp_path):
    root = tmp_path / "replies"
    for delay in (0.3, 0.5, 0.7):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(root)])
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        for entry in root.glob("*/*.json"):
            assert len(json.loads(entry.read_text())["text"]) == 4_000_000, entry
        cache = ReplyCache(root)
        assert all(cache.get(entry.stem)["text"] for entry in root.glob("*/*.json"))
        for leftover in root.glob("*/.*.tmp"):  # an unfinished write is a hidden temp file, never an entry
            leftover.unlink()
        for entry in root.glob("*/*.json"):
            entry.unlink()
