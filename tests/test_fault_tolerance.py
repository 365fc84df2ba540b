"""kill -9 at any point loses nothing finished: the rerun keeps finished samples (inside an interrupted batch
too), redoes the rest, and asks the endpoint for no reply twice; a forced rerun of the batch redoes every member;
a writer killed mid-write (between writing an entry's temporary file and renaming it) never leaves a
half-written reply-cache entry."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import openai_server
import pytest
from openai_server import OpenAIServer
from pipeline import REPO, SNAKEMAKE, make_workdir, scores, snakemake

from simcodebench.agents.backends.cache import ReplyCache
from simcodebench.pipeline.batching import batch_id

SAMPLES = 10
SLOW_ORACLE = "```python\nimport time\ntime.sleep(1.0)\n{source}```\n"


def _cached(work: Path) -> int:
    return sum(1 for _ in (work / "results" / "cache" / "replies").glob("*/*.json"))


BATCH = f"results/batches/re4/0/{batch_id([('m', 'hilbert', i) for i in range(SAMPLES)])}.json"
"""The one batch (10 samples: fewer than the default ``samples_per_job``) that evaluates every sample."""


def _finished(work: Path) -> list[int]:
    """The samples that the interrupted batch lists as finished in its partial record."""
    partial = work / BATCH.replace(".json", ".partial.json")
    return [m["sample"] for m in json.loads(partial.read_text())["members"]] if partial.is_file() else []


def _mtimes(work: Path, samples: list[int]) -> dict[Path, int]:
    """The mtimes of the samples' score.json and run.json."""
    base = work / "results" / "runs" / "m" / "re4" / "hilbert"
    files = [base / str(s) / "0" / leaf for s in samples for leaf in ("score.json", "run/run.json")]
    return {f: f.stat().st_mtime_ns for f in files}


@pytest.mark.slow
def test_kill_9_mid_batch_then_rerun_keeps_finished_work_and_forcerun_redoes_all(tmp_path, python_env):
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
            while not (_cached(work) == SAMPLES and len(_finished(work)) >= 2):
                assert first.poll() is None, "the run ended before it could be killed"
                assert time.monotonic() < deadline, "the run made no progress"
                time.sleep(0.05)
            first.send_signal(signal.SIGKILL)
        finally:
            first.kill()
            first.wait()
        finished = _finished(work)
        assert 2 <= len(finished) < SAMPLES, "killed too late to leave unfinished samples"
        assert not (work / BATCH).exists()
        kept = _mtimes(work, finished)
        assert server.count == SAMPLES

        snakemake(work, "--unlock")
        snakemake(work, env=env)
        assert server.count == SAMPLES  # every reply came from the cache, none was asked twice
        assert _mtimes(work, finished) == kept  # the batch's finished members were kept, not run again
        record = json.loads((work / BATCH).read_text())
        assert [m["sample"] for m in record["members"]] == list(range(SAMPLES)) and not _finished(work)
        frame = scores(work)
        assert len(frame) == SAMPLES and (frame.failure_class == "Pass").all(), frame[["sample", "failure_class"]]

        before = _mtimes(work, list(range(SAMPLES)))
        snakemake(work, "--forcerun", "evaluate", env=env)
        assert server.count == SAMPLES
    after = _mtimes(work, list(range(SAMPLES)))
    assert not [f for f in before if after[f] == before[f]]  # a forced rerun redoes every member of the batch


@pytest.mark.slow
def test_kill_9_mid_ask_batch_loses_no_reply_received(tmp_path):
    """An ``ask`` job asks its batch's members a few at a time; killed half-way, its rerun asks only the members
    whose reply had not come back (every reply received is in the cache before its extraction)."""
    samples = 20  # 5 cfd-query cases x 4: one ask job
    with OpenAIServer(default=openai_server.delay(0.5, text="2")) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": None, "samples": 4}
        cases = {"cfd-query": [f"q0{i}" for i in range(1, 6)]}
        work = make_workdir(tmp_path, {"suites": ["cfd-query"], "cases": cases, "agents": {"m": agent}})
        command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work)]
        first = subprocess.Popen(
            [*command, "--profile", str(REPO / "profiles" / "local"), "--resources", "llm_openai=2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 600
            while _cached(work) < 4:
                assert first.poll() is None and time.monotonic() < deadline, "the run ended or made no progress"
                time.sleep(0.02)
            first.send_signal(signal.SIGKILL)
        finally:
            first.kill()
            first.wait()
        cached, asked = _cached(work), server.count
        assert 4 <= cached < samples and asked - cached <= 2  # at most the cap's requests were in flight
        snakemake(work, "--unlock")
        snakemake(work, "--resources", "llm_openai=2")
        assert server.count - asked == samples - cached  # only the replies not received are asked
    assert len(scores(work)) == samples


WRITER = """
import os, sys, time
from pathlib import Path
from simcodebench.agents.backends.cache import ReplyCache
cache, record = ReplyCache(sys.argv[1]), {"text": "x" * 4_000_000}
for i in range(3):
    cache.put(f"{i:064x}", record)
real_fsync = os.fsync
def stall(fd):  # the fourth entry is written to its temporary file, not yet renamed: say so, wait for SIGKILL
    real_fsync(fd)
    Path(sys.argv[2]).touch()
    time.sleep(3600)
os.fsync = stall
cache.put(f"{3:064x}", record)
"""


def test_a_writer_killed_mid_write_leaves_no_half_written_entry(tmp_path):
    root, stalled = tmp_path / "replies", tmp_path / "stalled"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(root), str(stalled)])
    try:
        while not stalled.exists():  # three entries written, the fourth in the middle of its write
            assert writer.poll() is None, "the writer ended before its fourth write"
            time.sleep(0.05)
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
    keys = [f"{i:064x}" for i in range(4)]
    entries = sorted(root.glob("*/*.json"))
    assert [entry.stem for entry in entries] == keys[:3]
    assert all(len(json.loads(entry.read_text())["text"]) == 4_000_000 for entry in entries)
    assert len(list(root.glob("*/.*.tmp"))) == 1  # the killed write: a hidden temporary file, never an entry
    cache = ReplyCache(root)
    assert cache.get(keys[3]) is None and cache.get(keys[0]) == {"text": "x" * 4_000_000}
