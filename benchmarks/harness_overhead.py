"""Harness overhead per (sample, attempt) beyond the solver's own wall time (target <= 0.3 s).

A replay agent answers every sample of re4/hilbert with a trivial script that writes the contract's file.
The workflow runs on the local profile (2 cores); overhead = (workflow wall time - reference and calibration
time - sum of the solutions' own wall times * (1 / cores)) / sample-attempts. Also reported: the in-process cost
of the step functions alone (what each rule's body costs, without Snakemake's scheduling).

Usage: python benchmarks/harness_overhead.py [SAMPLES]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from _common import machine, snakemake, workdir

TRIVIAL = (
    "```python\nimport numpy as np\nnp.savez('solution.npz', **{f'x_{n}': np.ones(n) "
    "for n in (5, 10, 15, 20, 25)})\n```\n"
)


def main(samples: int = 200) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        replies = root / "replies.jsonl"
        replies.write_text(
            "".join(
                json.dumps({"suite": "re4", "case": "hilbert", "sample": i, "attempt": 0, "response": TRIVIAL}) + "\n"
                for i in range(samples)
            )
        )
        config = {
            "suites": ["re4"],
            "cases": {"re4": ["hilbert"]},
            "runtime": "local",
            "agents": {"trivial": {"backend": "replay", "file": str(replies), "samples": samples}},
        }
        work = workdir(root / "work", config)
        started = time.perf_counter()
        snakemake(work, "--cores", "2", "calibrate")
        setup = time.perf_counter() - started
        started = time.perf_counter()
        snakemake(work, "--cores", "2")
        total = time.perf_counter() - started
        solver = sum(
            json.loads(p.read_text())["wall_s"] for p in (work / "results" / "runs").glob("*/*/*/*/*/run/run.json")
        )
        overhead = (total - solver / 2) / samples
        print(f"machine: {machine()}")
        print(
            f"samples: {samples}; reference+calibration: {setup:.1f} s; pipeline: {total:.1f} s; "
            f"solver wall time (sum): {solver:.1f} s"
        )
        print(f"harness overhead per sample-attempt (2 cores, solver time / 2 removed): {overhead:.3f} s")
        print(f"per sample-attempt including the solver: {total / samples:.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
