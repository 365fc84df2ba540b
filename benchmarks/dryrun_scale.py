"""`snakemake -n` on a synthetic config of 20,000 sample-attempts (targets: <= 30 s, <= 2 GB).

A replay agent (an empty replay file: every reply is "no response") with 1,250 samples x 4 attempts on the 4
re4 cases gives 20,000 sample-attempts, each 6 jobs. Time and peak RSS of the snakemake process are measured.

Usage: python benchmarks/dryrun_scale.py
"""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path

from _common import machine, snakemake, workdir

SAMPLES, ATTEMPTS = 1250, 4


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "replies.jsonl").write_text("")
        config = {
            "suites": ["re4"],
            "agents": {
                "synthetic": {
                    "backend": "replay",
                    "file": str(root / "replies.jsonl"),
                    "samples": SAMPLES,
                    "attempts": ATTEMPTS,
                }
            },
        }
        work = workdir(root / "work", config)
        started = time.perf_counter()
        result = snakemake(work, "-n", "--quiet", "rules")
        elapsed = time.perf_counter() - started
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"machine: {machine()}")
        print(f"sample-attempts: {SAMPLES * ATTEMPTS * 4}; snakemake -n: {elapsed:.1f} s; peak RSS {peak_mb:.0f} MB")
        print(result.stdout[-600:])


if __name__ == "__main__":
    main()
