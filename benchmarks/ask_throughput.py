"""Requests in flight and wall time of the ``ask`` stage against a slow OpenAI-compatible server (issue 27).

A scripted server (``tests/openai_server.py``) answers every request after ``--delay`` seconds and counts the
requests in flight; an ``openai`` agent answers the 25 cfd-query cases (no solver runs), ``samples`` of them in
all, with the local profile (2 cores) and ``--resources llm_openai=CAP``. Reported per configuration: the most
requests in flight, their mean over the ask span (first request to last reply), the ask span and the whole
run's wall time (Snakemake's start, references and calibrations, scoring and the summary included).

``--tree DIR`` runs another checkout's Snakefile and package (e.g. main's, to measure the design before), so
the alternatives are measured by the same script. Where a configuration's ask span would pass ``--budget``
seconds, fewer samples are measured (a multiple of 25, at least 25, or fewer cases) and the ask span is
extrapolated linearly to the asked number (``extrapolated`` in the output): the wall time then is the measured
wall time plus the extra ask span.

Usage: nice -n 10 python benchmarks/ask_throughput.py [--samples 100,1000] [--delays 1,10] [--caps 2,16,64]
       [--tree DIR] [--label NAME] [--in-flight-bound N] [--budget 150] [--out results.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml
from _common import REPO, SNAKEMAKE, machine

sys.path.insert(0, str(REPO / "tests"))
from openai_server import OpenAIServer, delay  # noqa: E402

CASES = 25


class TimedServer(OpenAIServer):
    """The scripted server, recording each request's start and end (perf_counter seconds)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.spans: list[tuple[float, float]] = []
        self._spans_lock = threading.Lock()

    def answer(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, bytes]:
        start = time.perf_counter()
        try:
            return super().answer(path, headers, raw)
        finally:
            with self._spans_lock:
                self.spans.append((start, time.perf_counter()))


def measured_samples(samples: int, seconds: float, cap: int, bound: int, budget: float) -> int:
    """How many samples to measure so that the ask span stays near ``budget`` seconds, at ``min(cap, bound)``
    requests in flight."""
    in_flight = max(1, min(cap, bound))
    if samples / in_flight * seconds <= budget:
        return samples
    wanted = max(1, int(budget / seconds * in_flight))
    return wanted if wanted < CASES else (wanted // CASES) * CASES


def config(samples: int, url: str) -> dict:
    """``samples`` cfd-query samples: ``samples / 25`` per case, or one per case of the first ``samples``."""
    cases = [f"q{i:02d}" for i in range(1, CASES + 1)]
    per_case = max(1, samples // CASES)
    agent = {"backend": "openai", "base_url": url, "model": "m", "api_key_env": None, "samples": per_case}
    return {"suites": ["cfd-query"], "cases": {"cfd-query": cases[: min(samples, CASES)]}, "agents": {"slow": agent}}


def measure(tree: Path, samples: int, seconds: float, cap: int, root: Path) -> dict:
    """One run from scratch in a new folder under ``root``."""
    work = Path(tempfile.mkdtemp(prefix=f"s{samples}-d{seconds:g}-c{cap}-", dir=root))
    (work / "config").mkdir(parents=True)
    with TimedServer(default=delay(seconds, text="The answer is 2.")) as server:
        (work / "config" / "config.yaml").write_text(yaml.safe_dump(config(samples, server.url)))
        command = [SNAKEMAKE, "--snakefile", str(tree / "Snakefile"), "--directory", str(work)]
        command += ["--profile", str(tree / "profiles" / "local"), "--resources", f"llm_openai={cap}"]
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"snakemake failed:\n{done.stderr[-4000:]}")
        spans = sorted(server.spans)
    span = max(end for _, end in spans) - spans[0][0]
    scored = len((work / "results" / "summary" / "scores.csv").read_text().splitlines()) - 1
    return {
        "samples": samples,
        "delay_s": seconds,
        "cap": cap,
        "requests": len(spans),
        "scored": scored,
        "peak_in_flight": server.peak_in_flight,
        "mean_in_flight": sum(end - start for start, end in spans) / span,
        "ask_span_s": span,
        "wall_s": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", default="100,1000")
    parser.add_argument("--delays", default="1,10")
    parser.add_argument("--caps", default="2,16,64")
    parser.add_argument("--tree", type=Path, default=REPO, help="the checkout whose Snakefile and src/ run")
    parser.add_argument("--label", default="this tree")
    parser.add_argument("--in-flight-bound", type=int, default=64, help="expected in flight at most (budgeting)")
    parser.add_argument("--budget", type=float, default=150.0, help="seconds of ask span to measure at most")
    parser.add_argument("--out", type=Path, help="append one JSON line per configuration")
    args = parser.parse_args()
    print(f"machine: {machine()}; load {os.getloadavg()[0]:.1f}; {args.label}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for seconds in (float(d) for d in args.delays.split(",")):
            for samples in (int(s) for s in args.samples.split(",")):
                for cap in (int(c) for c in args.caps.split(",")):
                    measured = measured_samples(samples, seconds, cap, args.in_flight_bound, args.budget)
                    row = {"label": args.label, **measure(args.tree, measured, seconds, cap, Path(tmp))}
                    if measured != samples:
                        extra = row["ask_span_s"] * (samples / measured - 1)
                        row.update(measured=measured, samples=samples, extrapolated=True)
                        row.update(ask_span_s=row["ask_span_s"] + extra, wall_s=row["wall_s"] + extra)
                    row["load"] = round(os.getloadavg()[0], 1)
                    print(json.dumps(row), flush=True)
                    if args.out:
                        with args.out.open("a") as out:
                            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
