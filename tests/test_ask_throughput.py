"""Requests in flight are bounded by the endpoint's cap (``--resources llm_openai=N``), not by the cores: an ``ask``
job waits on the network in threads and holds no core (issue 27). Timings are measured in
``benchmarks/ask_throughput.py``, never asserted here."""

from __future__ import annotations

import json

import pytest
from openai_server import OpenAIServer, delay
from pipeline import make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

SAMPLES = 4  # x 25 cfd-query cases: 100 samples, 5 ask jobs of 20


def test_a_slow_server_sees_the_cap_in_flight_and_every_sample_is_scored(tmp_path):
    with OpenAIServer(default=delay(1.0, text="The answer is 2.")) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": None, "samples": SAMPLES}
        work = make_workdir(tmp_path, {"suites": ["cfd-query"], "agents": {"slow": agent}})
        snakemake(work, "--resources", "llm_openai=16")
        assert server.count == 25 * SAMPLES  # each asked once
        assert server.peak_in_flight >= 12, server.peak_in_flight
        assert server.peak_in_flight <= 16
    frame = scores(work)
    assert len(frame) == 25 * SAMPLES
    assert frame.failure_class.isin(["Pass", "F-Acc"]).all(), frame.failure_class.value_counts()
    records = sorted((work / "results" / "asks" / "cfd-query" / "0").glob("*.json"))
    assert len(records) == 5 and all(len(json.loads(r.read_text())["members"]) == 20 for r in records)


def test_the_default_cap_is_eight_without_resources(tmp_path):
    with OpenAIServer(default=delay(0.5, text="2")) as server:
        agent = {"backend": "openai", "base_url": server.url, "model": "m", "api_key_env": None, "samples": 1}
        work = make_workdir(tmp_path, {"suites": ["cfd-query"], "agents": {"slow": agent}, "samples_per_job": 25})
        snakemake(work)
        assert server.count == 25 and server.peak_in_flight == 8
    assert len(scores(work)) == 25
