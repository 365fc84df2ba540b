"""What a case asks of a cluster (time, memory, cores, MPI ranks, GPUs, grouping) and how the SLURM profile
takes the site's partition and account from the environment."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from snakemake.profiles import ProfileConfigFileParser

from simcodebench.core.cases import load_suite_cases
from simcodebench.pipeline.plan import Plan


def _plan(repo: Path, **resources) -> Plan:
    case = next(c for c in load_suite_cases(repo / "cases" / "re4") if c.id == "hilbert")
    case = dataclasses.replace(case, resources={**case.resources, **resources})
    return Plan(agents={}, cases={("re4", "hilbert"): case}, mpi="srun --mpi=pmix")


def test_a_short_single_rank_cpu_run_is_grouped_and_asks_no_ranks_or_gpus(repo):
    plan = _plan(repo, wall_s=60, mem_mb=2048, cpus=2, tasks=1, gpu=0)
    assert plan.resources("re4", "hilbert") == {
        "runtime": 2,
        "mem_mb": 2560,
        "cpus_per_task": 2,
        "tasks": None,
        "mpi": None,
        "gpu": None,
    }
    assert plan.grouped("re4", "hilbert")


@pytest.mark.parametrize(
    ("resources", "asked"),
    [
        ({"tasks": 4}, {"tasks": 4, "mpi": "srun --mpi=pmix", "gpu": None}),
        ({"gpu": 1}, {"tasks": None, "mpi": None, "gpu": 1}),
        ({"wall_s": 600}, {"runtime": 11, "tasks": None}),
    ],
)
def test_mpi_gpu_and_long_runs_go_alone_with_what_they_ask(repo, resources, asked):
    plan = _plan(repo, **resources)
    assert plan.resources("re4", "hilbert").items() >= asked.items()
    assert not plan.grouped("re4", "hilbert")


def _profile(repo: Path) -> dict[str, object]:
    with open(repo / "slurm" / "config.yaml") as stream:
        return dict(ProfileConfigFileParser().parse(stream))


def test_slurm_profile_takes_partition_and_account_from_the_environment(repo, monkeypatch):
    assert (repo / "slurm").resolve() == (repo / "profiles" / "slurm").resolve()
    monkeypatch.setenv("SIMCODEBENCH_SLURM_PARTITION", "gpu-long")
    monkeypatch.setenv("SIMCODEBENCH_SLURM_ACCOUNT", "proj42")
    monkeypatch.setenv("SIMCODEBENCH_SLURM_STATUS_COMMAND", "squeue")
    profile = _profile(repo)
    assert {"slurm_partition=gpu-long", "slurm_account=proj42"} <= set(profile["default-resources"])
    assert (profile["executor"], profile["slurm-no-account"], profile["slurm-status-command"]) == (
        "slurm",
        "False",
        "squeue",
    )
    assert {"retries", "keep-going", "rerun-incomplete", "latency-wait", "slurm-logdir"} <= profile.keys()
    assert "group-components" not in profile and "group_slot" not in str(profile)  # batches replace groups


def test_slurm_profile_without_site_settings_leaves_them_to_the_cluster(repo, monkeypatch):
    for name in ("PARTITION", "ACCOUNT", "STATUS_COMMAND"):
        monkeypatch.delenv(f"SIMCODEBENCH_SLURM_{name}", raising=False)
    profile = _profile(repo)
    # None is dropped by Snakemake: no -p, no -A, the plugin's own status command
    assert {"slurm_partition=None", "slurm_account=None"} <= set(profile["default-resources"])
    assert profile["slurm-no-account"] == "True"
    assert "slurm-status-command" not in profile
