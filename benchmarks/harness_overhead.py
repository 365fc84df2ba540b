"""Harness overhead per (sample, attempt) beyond the solver's own wall time (target <= 0.3 s).

A replay agent answers every sample of re4/hilbert with a trivial script that writes the contract's file.
The workflow runs on the local profile (2 cores); overhead = (workflow wall time - reference and calibration
time - sum of the solutions' own wall times * (1 / cores)) / sample-attempts. Also reported: the in-process cost
of the step functions alone (what each rule's body costs, without Snakemake's scheduling).

Usage: python benchmarks/harness_overhead.py [SAMPLES]

``benchmarks/harness_cost.py`` (issue 18's before/after) runs :func:`measure` beside its other measurements.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import machine, snakemake, workdir

TRIVIAL = (
    "```python\nimport numpy as np\nnp.savez('solution.npz', **{f'x_{n}': np.ones(n) "
    "for n in (5, 10, 15, 20, 25)})\n```\n"
)


@dataclass
class Overhead:
    """One measurement: sample-attempts, seconds of reference+calibration, of the pipeline, of the solvers."""

    samples: int
    setup_s: float
    pipeline_s: float
    solver_s: float

    @property
    def per_sample_s(self) -> float:
        """Harness seconds per sample-attempt on 2 cores, the solvers' time / 2 removed."""
        return (self.pipeline_s - self.solver_s / 2) / self.samples


def measure(samples: int) -> Overhead:
    """Run ``samples`` trivial replayed solutions of re4/hilbert through the workflow (local profile, 2 cores)."""
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
    return Overhead(samples, setup, total, solver)


def main(samples: int = 200) -> None:
    found = measure(samples)
    print(f"machine: {machine()}")
    print(
        f"samples: {samples}; reference+calibration: {found.setup_s:.1f} s; pipeline: {found.pipeline_s:.1f} s; "
        f"solver wall time (sum): {found.solver_s:.1f} s"
    )
    print(f"harness overhead per sample-attempt (2 cores, solver time / 2 removed): {found.per_sample_s:.3f} s")
    print(f"per sample-attempt including the solver: {found.pipeline_s / samples:.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
