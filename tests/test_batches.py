"""Batches: which (case, sample) one ``evaluate`` job executes and scores (and the ``ask`` job of the same name
asks), what it asks of a cluster, and that a (sample, attempt) is at most two Snakemake jobs on its path (its
shares of an ``ask`` and an ``evaluate``)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest
from pipeline import make_workdir, snakemake

from simcodebench.agents.settings import load_agents
from simcodebench.core.cases import load_suite_cases
from simcodebench.pipeline.batching import batch_id
from simcodebench.pipeline.plan import Plan

AGENT = {"backend": "openai", "base_url": "http://127.0.0.1:9", "model": "m", "api_key_env": "SCB_TEST_KEY"}
RESOURCES = {
    "hilbert": {"wall_s": 60, "mem_mb": 1000, "cpus": 1},  # short: 2 min asked
    "lid_driven": {"wall_s": 120, "mem_mb": 3000, "cpus": 1},  # short, same key as hilbert: 3 min asked
    "keyhole": {"wall_s": 60, "mem_mb": 1000, "cpus": 2},  # short, another key (two cores)
    "sod": {"wall_s": 600, "mem_mb": 1000, "cpus": 1},  # long: alone
    "burgers": {"wall_s": 60, "mem_mb": 1000, "cpus": 1, "tasks": 4},  # MPI: alone
}


def _plan(repo: Path, per_job: int, **samples: int) -> Plan:
    """The cases of :data:`RESOURCES`, and one agent per keyword (its name: its samples per case)."""
    cases = {c.id: c for c in load_suite_cases(repo / "cases" / "re4")}
    chosen = {
        ("re4", name): dataclasses.replace(cases[name], resources={**cases[name].resources, **res})
        for name, res in RESOURCES.items()
    }
    agents = load_agents({"agents": {name: {**AGENT, "samples": n} for name, n in samples.items()}})
    return Plan(agents=agents, cases=chosen, samples_per_job=per_job)


def test_batches_share_one_resource_key_and_hold_every_sample_once(repo):
    plan = _plan(repo, per_job=3, m=7)
    batches = list(plan.batches("re4", 0).values())
    hilbert = [("m", "hilbert", i) for i in range(7)]
    lid = [("m", "lid_driven", i) for i in range(7)]
    keyhole = [("m", "keyhole", i) for i in range(7)]
    assert (
        sorted(batches)
        == sorted(
            [
                hilbert[0:3],
                hilbert[3:6],
                [hilbert[6], *lid[0:2]],  # short cases of one key share batches, in case order
                lid[2:5],
                lid[5:7],  # what is left of the key (2 < 3) is a shared remainder
                keyhole[0:3],
                keyhole[3:6],
                keyhole[6:7],
                *[[("m", "sod", i)] for i in range(7)],  # a long run goes alone
                *[[("m", "burgers", i)] for i in range(7)],  # so does an MPI run
            ]
        )
    )
    members = Counter(m for batch in batches for m in batch)
    assert set(members) == {("m", c, i) for c in RESOURCES for i in range(7)} and set(members.values()) == {1}
    for agent, case, sample in members:
        batch = plan.batch_of(agent, "re4", case, str(sample), 0)
        assert plan.batch_members("re4", 0, batch).count((agent, case, sample)) == 1
        assert batch == batch_id(plan.batch_members("re4", 0, batch))


def test_agents_share_the_remainders_of_their_batches(repo):
    plan = _plan(repo, per_job=4, a=3, b=1)
    shared = [b for b in plan.batches("re4", 0).values() if {agent for agent, _, _ in b} == {"a", "b"}]
    # a's 3 + 3 of one key (hilbert, lid_driven) fill one batch of its own (4) and leave 2; b's 1 + 1 join them;
    # a's 3 keyhole samples (another key) fill none, and b's one joins them
    assert shared == [
        [("a", "lid_driven", 1), ("a", "lid_driven", 2), ("b", "hilbert", 0), ("b", "lid_driven", 0)],
        [("a", "keyhole", 0), ("a", "keyhole", 1), ("a", "keyhole", 2), ("b", "keyhole", 0)],
    ]
    assert [("a", "hilbert", 0), ("a", "hilbert", 1), ("a", "hilbert", 2), ("a", "lid_driven", 0)] in list(
        plan.batches("re4", 0).values()
    )


def test_adding_an_agent_keeps_every_batch_of_whole_own_samples(repo):
    """A batch's id is its members' hash: an agent added to the selection regroups only the shared remainders,
    so the finished batches of the others keep their records and are not evaluated again."""
    before = _plan(repo, per_job=3, a=7).batches("re4", 0)
    after = _plan(repo, per_job=3, a=7, new=7).batches("re4", 0)
    owned = {b: m for b, m in before.items() if len(m) == 3 or m[0][1] in ("sod", "burgers")}
    assert owned and all(after.get(b) == m for b, m in owned.items())
    changed = set(before) - set(after)
    assert changed and all(len(before[b]) < 3 and before[b][0][1] not in ("sod", "burgers") for b in changed)


def test_a_later_attempt_batches_only_the_agents_that_have_it(repo):
    plan = _plan(repo, per_job=20, one=1)
    two = {**AGENT, "samples": 1, "attempts": 2, "strategy": "feedback"}
    plan = dataclasses.replace(plan, agents=load_agents({"agents": {"one": {**AGENT, "samples": 1}, "two": two}}))
    assert {a for b in plan.batches("re4", 1).values() for a, _, _ in b} == {"two"}
    assert {a for b in plan.batches("re4", 0).values() for a, _, _ in b} == {"one", "two"}


def test_a_batch_asks_for_its_members_times_added_and_their_largest_memory(repo):
    plan = _plan(repo, per_job=3, m=7)
    mixed = plan.batch_of("m", "re4", "hilbert", 6, 0)  # hilbert 6 (2 min), lid_driven 0 and 1 (3 min each)
    assert plan.batch_resources("re4", 0, mixed) == {
        "runtime": (2 + 1) + (3 + 1) + (3 + 1),  # and one minute of scoring each
        "mem_mb": 3000 + 512,
        "cpus_per_task": 1,
        "tasks": None,
        "mpi": None,
        "gpu": None,
    }
    assert plan.batch_resources("re4", 0, plan.batch_of("m", "re4", "keyhole", 0, 0))["cpus_per_task"] == 2
    mpi = plan.batch_resources("re4", 0, plan.batch_of("m", "re4", "burgers", 0, 0))
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
    assert jobs == Counter({"ask": evaluations, "evaluate": evaluations, **per_case}), jobs  # an ask per batch
    assert (jobs["ask"] + jobs["evaluate"]) / sample_attempts <= 2
