"""Batches: which (case, sample) one ``evaluate`` job executes and scores, what it asks of a cluster, and that a
(sample, attempt) is at most two Snakemake jobs on its path (``ask`` and its share of an ``evaluate``)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest
from pipeline import make_workdir, snakemake

from simcodebench.agents import load_agents
from simcodebench.cases import load_suite_cases
from simcodebench.plan import Plan

AGENT = {"backend": "openai", "base_url": "http://127.0.0.1:9", "model": "m", "api_key_env": "SCB_TEST_KEY"}
RESOURCES = {
    "hilbert": {"wall_s": 60, "mem_mb": 1000, "cpus": 1},  # short: 2 min asked
    "lid_driven": {"wall_s": 120, "mem_mb": 3000, "cpus": 1},  # short, same key as hilbert: 3 min asked
    "keyhole": {"wall_s": 60, "mem_mb": 1000, "cpus": 2},  # short, another key (two cores)
    "sod": {"wall_s": 600, "mem_mb": 1000, "cpus": 1},  # long: alone
    "burgers": {"wall_s": 60, "mem_mb": 1000, "cpus": 1, "tasks": 4},  # MPI: alone
}


def _plan(repo: Path, samples: int, per_job: int) -> Plan:
    cases = {c.id: c for c in load_suite_cases(repo / "cases" / "re4")}
    chosen = {
        ("re4", name): dataclasses.replace(cases[name], resources={**cases[name].resources, **res})
        for name, res in RESOURCES.items()
    }
    agents = load_agents({"agents": {"m": {**AGENT, "samples": samples}}})
    return Plan(agents=agents, cases=chosen, samples_per_job=per_job)


def test_batches_share_one_resource_key_and_hold_every_sample_once(repo):
    plan = _plan(repo, samples=7, per_job=3)
    batches = plan.batches("m", "re4")
    hilbert = [("hilbert", i) for i in range(7)]
    lid = [("lid_driven", i) for i in range(7)]
    keyhole = [("keyhole", i) for i in range(7)]
    assert (
        batches
        == [
            hilbert[0:3],
            hilbert[3:6],
            [hilbert[6], *lid[0:2]],  # short cases of one key share batches, in case order
            lid[2:5],
            lid[5:7],
            keyhole[0:3],
            keyhole[3:6],
            keyhole[6:7],
            *[[("sod", i)] for i in range(7)],  # a long run goes alone
            *[[("burgers", i)] for i in range(7)],  # so does an MPI run
        ]
    )
    members = Counter(m for batch in batches for m in batch)
    assert set(members) == {(c, i) for c in RESOURCES for i in range(7)} and set(members.values()) == {1}
    assert all(batches[plan.batch_of("m", "re4", c, str(i))].count((c, i)) == 1 for c, i in members)


def test_a_batch_asks_for_its_members_times_added_and_their_largest_memory(repo):
    plan = _plan(repo, samples=7, per_job=3)
    # batch 2: hilbert 6 (2 min), lid_driven 0 and 1 (3 min each), one minute of scoring each
    assert plan.batch_resources("m", "re4", 2) == {
        "runtime": (2 + 1) + (3 + 1) + (3 + 1),
        "mem_mb": 3000 + 512,
        "cpus_per_task": 1,
        "tasks": None,
        "mpi": None,
        "gpu": None,
    }
    assert plan.batch_resources("m", "re4", 5)["cpus_per_task"] == 2
    mpi = plan.batch_resources("m", "re4", plan.batch_of("m", "re4", "burgers", 0))
    assert (mpi["tasks"], mpi["mpi"], mpi["runtime"]) == (4, "mpiexec", 2 + 1)


def _job_counts(work: Path) -> Counter:
    """Jobs per rule of ``snakemake -n`` in ``work`` (its "Job stats" table)."""
    done = snakemake(work, "-n", "--quiet", "rules")
    return Counter({m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", done.stdout, re.M) if m[1] != "total"})


@pytest.mark.parametrize(("per_job", "evaluations"), [(10, 2), (1, 2 * 3 * 2)])
def test_a_sample_attempt_is_at_most_two_jobs(tmp_path, per_job, evaluations):
    agent = {**AGENT, "samples": 3, "attempts": 2, "strategy": "feedback"}
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert", "keyhole"]}, "agents": {"m": agent}}
    work = make_workdir(tmp_path, {**config, "samples_per_job": per_job})
    jobs = _job_counts(work)
    sample_attempts = 2 * 3 * 2  # cases x samples x attempts
    per_case = {"reference": 2, "calibration": 2, "aggregate": 1, "all": 1}
    assert jobs == Counter({"ask": sample_attempts, "evaluate": evaluations, **per_case}), jobs
    assert (jobs["ask"] + jobs["evaluate"]) / sample_attempts <= 2
