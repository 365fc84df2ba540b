"""`snakemake -n` on a synthetic config of 20,000 sample-attempts (targets: <= 30 s, <= 2 GB).

A replay agent (an empty replay file: every reply is "no response") with 1,250 samples x 4 attempts on 4 re4
cases (the suite's first four: it has 8 now) gives 20,000 sample-attempts (105,010 jobs today). Time and peak
RSS of the snakemake process are measured for the whole plan and for its first tenth (``--batch
aggregate=1/10``, how a sweep this large is run: see docs/running.md, "Very large sweeps").
``benchmarks/snakemake_floor.py`` gives stock Snakemake's own cost for the same number of jobs.

``benchmarks/harness_cost.py`` (issue 18's before/after) reuses this config and times the whole plan with the
floor beside it, each process's own peak RSS (here the peak is cumulative over the runs).

Usage: python benchmarks/dryrun_scale.py
"""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path

from _common import machine, snakemake, workdir

SAMPLES, ATTEMPTS = 1250, 4
CASES = ["burgers", "hilbert", "keyhole", "sod"]  # re4's first four; the suite has grown since


def synthetic_config(root: Path) -> dict:
    """The config of 20,000 sample-attempts, its (empty) replay file written under ``root``."""
    (root / "replies.jsonl").write_text("")
    return {
        "suites": ["re4"],
        "cases": {"re4": CASES},
        "agents": {
            "synthetic": {
                "backend": "replay",
                "file": str(root / "replies.jsonl"),
                "samples": SAMPLES,
                "attempts": ATTEMPTS,
            }
        },
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = synthetic_config(root)
        work = workdir(root / "work", config)
        print(f"machine: {machine()}")
        print(f"sample-attempts: {SAMPLES * ATTEMPTS * len(CASES)}")
        for label, extra in (("one batch of 10", ["--batch", "aggregate=1/10"]), ("whole plan", [])):
            started = time.perf_counter()
            result = snakemake(work, "-n", "--quiet", "rules", *extra)
            elapsed = time.perf_counter() - started
            peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            jobs = next((line.split()[-1] for line in result.stdout.splitlines() if line.startswith("total")), "?")
            print(f"{label}: {jobs} jobs, snakemake -n {elapsed:.1f} s; peak RSS so far {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
