"""Samples per sbatch with batches vs without, and the smoke config's wall time locally vs on SLURM.

Starts the one-node SLURM cluster of the tests (``tests/slurm_cluster.py``; root on Debian, installs
slurm-wlm and munge when missing) and runs the smoke config of ``tests/test_slurm.py`` (re4 hilbert and
keyhole, oracle and mutants: 16 samples) from scratch: on the local profile, on the SLURM profile with the
default ``samples_per_job`` (20: the 16 samples of both agents in one ``evaluate`` job), with
``samples_per_job=8`` (the mutants' own 8, then their 6 left with the oracle's 2) and with ``1`` (one sample's
execution and scoring per job: no batching).

``benchmarks/harness_cost.py`` (issue 18) measures the SLURM cost per sample from the jobs' logs and squeue, beside
the other before/after numbers; this script still compares group sizes.

Usage: python benchmarks/slurm_grouping.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, SNAKEMAKE, machine

sys.path.insert(0, str(REPO / "tests"))
from pipeline import make_workdir  # noqa: E402
from slurm_cluster import SlurmCluster, provision  # noqa: E402
from test_slurm import SMOKE, STATUS_ARGS  # noqa: E402


def timed(work: Path, env: dict[str, str], *args: str) -> float:
    """Seconds the workflow takes in ``work`` with ``args``."""
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work), *args]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"snakemake failed:\n{done.stderr[-4000:]}")
    return time.perf_counter() - started


def jobs_since(cluster: SlurmCluster, first: int) -> list[str]:
    """The comments (rule and wildcards) of the cluster's jobs numbered ``first`` or later."""
    out = subprocess.run(["squeue", "-h", "-t", "all", "-o", "%i %k"], capture_output=True, text=True, env=cluster.env)
    rows = [line.split(maxsplit=1) for line in out.stdout.splitlines()]
    return [comment for job, comment in rows if int(job) >= first]


def main() -> None:
    reason = provision()
    if reason:
        raise SystemExit(f"no SLURM cluster here: {reason}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        local = make_workdir(root / "local", SMOKE, wall_s=10.0)
        local_s = timed(local, dict(os.environ), "--profile", str(REPO / "profiles" / "local"))
        samples = len(list((local / "results" / "runs").glob("*/*/*/*/final.json")))
        print(f"machine: {machine()}")
        print(f"smoke config ({samples} samples), local profile (2 cores): {local_s:.0f} s")
        with SlurmCluster(root / "cluster") as cluster:
            next_job = 1
            for label, extra in (
                ("default (samples_per_job=20)", ("--config", "samples_per_job=20")),
                ("samples_per_job=8", ("--config", "samples_per_job=8")),
                ("samples_per_job=1", ("--config", "samples_per_job=1")),
            ):
                work = make_workdir(root / label.split()[0], SMOKE, wall_s=10.0)
                wall = timed(work, cluster.env, "--profile", str(REPO / "slurm"), *STATUS_ARGS, *extra)
                jobs = jobs_since(cluster, next_job)
                next_job += len(jobs)
                executions = sum("evaluate" in comment for comment in jobs)
                print(
                    f"SLURM profile, batches {label}: {wall:.0f} s; {len(jobs)} sbatch jobs, {executions} of them "
                    f"executing samples: {samples / executions:.1f} samples per sbatch"
                )


if __name__ == "__main__":
    main()
