"""Stock Snakemake's own cost per job in a dry run, with the simplest workflow there is.

Two rules (``a`` writes a file, ``b`` reads it) over N wildcard values, no input functions, no resources, no
configuration: what ``snakemake -n`` costs per job before any workflow adds anything. It bounds what a workflow
with one or more jobs per sample-attempt can reach (``benchmarks/dryrun_scale.py``).

Usage: python benchmarks/snakemake_floor.py [JOBS ...]   (default: 20000 40000)
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import SNAKEMAKE, machine

SNAKEFILE = """\
rule all:
    input:
        expand("out/{{s}}/b.txt", s=range({pairs})),


rule a:
    output:
        "out/{{s}}/a.txt",
    shell:
        "touch {{output}}"


rule b:
    input:
        "out/{{s}}/a.txt",
    output:
        "out/{{s}}/b.txt",
    shell:
        "touch {{output}}"
"""


def dry_run_seconds(jobs: int) -> float:
    """Seconds of ``snakemake -n`` on the two-rule workflow with ``jobs`` jobs (plus the target rule)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "Snakefile").write_text(SNAKEFILE.format(pairs=jobs // 2))
        started = time.perf_counter()
        subprocess.run([SNAKEMAKE, "-n", "--quiet", "rules", "--cores", "1"], cwd=tmp, check=True, capture_output=True)
        return time.perf_counter() - started


def main(sizes: list[int]) -> None:
    print(f"machine: {machine()}")
    for jobs in sizes:
        seconds = dry_run_seconds(jobs)
        print(f"{jobs} jobs: snakemake -n {seconds:.1f} s, {1000 * seconds / jobs:.2f} ms per job")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of the largest: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main([int(value) for value in sys.argv[1:]] or [20000, 40000])
