"""The log reading of ``benchmarks/harness_cost.py``: phases of a SLURM job from hand-made log lines whose stamps
give known seconds, job times from squeue's columns, and jobs per sample-attempt from ``snakemake -n``'s table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from harness_cost import COUNT, job_stats, per_sample_jobs, sample_attempts, slurm_profile  # noqa: E402
from slurm_job_log import member_phases, parse_members  # noqa: E402


def banner(date: str) -> str:
    return (
        f"\nSNAKEMAKE\n=========\n  Date: 2026-11-24 {date}\n  Snakemake version: 9.27.1\n\nBuilding DAG of jobs...\n"
    )


def inner(date: str, rules: list[tuple[str, str, str]], elapsed: str) -> str:
    """An inner Snakemake process: its banner, then each rule's start and finish stamps."""
    text = banner(date) + "Select jobs to execute...\n"
    for rule, start, end in rules:
        text += f"\n[Tue Nov 24 {start} 2026]\nlocalrule {rule}:\n    jobid: 0\n    wildcards: agent=a, sample=0\n"
        text += f"[Tue Nov 24 {end} 2026]\nFinished jobid: 0 (Rule: {rule})\n1 of 2 steps (50%) done\n"
    return text + f"Storing output in storage.\nElapsed time: {elapsed}\n"


def dispatch(stamp: str) -> str:
    """The job step dispatching a group member (execute and score of one sample)."""
    return (
        f"[Tue Nov 24 {stamp} 2026] Group job short (jobs in lexicogr. order):\n\n"
        f"    [Tue Nov 24 {stamp} 2026]\n    rule execute:\n        jobid: 5\n"
        f"    [Tue Nov 24 {stamp} 2026]\n    rule score:\n        jobid: 4\n"
        "srun: cluster configuration lacks support for cpu binding\n"
    )


def handed_back(stamp: str) -> str:
    return (
        f"[Tue Nov 24 {stamp} 2026]\nFinished jobid: 5 (Rule: execute)\n"
        f"[Tue Nov 24 {stamp} 2026]\nFinished jobid: 4 (Rule: score)\n2 of 16 steps (12%) done\n"
    )


# Job step banner 10:00:01; member 1 dispatched 10:00:02, its process up 10:00:05 (start-up 3 s), execute
# 10:00:07-10:00:14 (DAG 2 s, body 7 s), score 10:00:15-10:00:17 (1 s between, body 2 s), handed back 10:00:19
# (2 s), member 2 dispatched 10:00:20 (gap 1 s): up 10:00:22 (2 s), execute 10:00:23-10:00:33 (DAG 1 s, 10 s),
# score 10:00:33-10:00:34 (0 s between, 1 s), handed back 10:00:36 (2 s), the log's last stamp 10:00:37 (1 s).
LOG = (
    banner("10:00:01")
    + "Provided remote nodes: 1\nExecute 1 jobs...\n"
    + dispatch("10:00:02")
    + inner("10:00:05", [("execute", "10:00:07", "10:00:14"), ("score", "10:00:15", "10:00:17")], "0:00:12.500000")
    + handed_back("10:00:19")
    + "Select jobs to execute...\n"
    + dispatch("10:00:20")
    + inner("10:00:22", [("execute", "10:00:23", "10:00:33"), ("score", "10:00:33", "10:00:34")], "0:00:12.250000")
    + handed_back("10:00:36")
    + "[Tue Nov 24 10:00:37 2026]\nFinished jobid: 0 (Rule: short)\nElapsed time: 0:00:36.000000\n"
)
MEMBER_1 = {"start-up": 3, "DAG": 2, "rule bodies": 9, "between rules": 1, "hand-back": 2, "job step gap": 1}
MEMBER_2 = {"start-up": 2, "DAG": 1, "rule bodies": 11, "between rules": 0, "hand-back": 2, "job step gap": 1}


def test_phases_of_each_member_match_the_hand_computation() -> None:
    log = parse_members(LOG)
    assert len(log.members) == 2
    assert [m.elapsed_s for m in log.members] == [12.5, 12.25]
    first, second = member_phases(log)
    assert first == {**MEMBER_1, "body: execute": 7, "body: score": 2}
    assert second == {**MEMBER_2, "body: execute": 10, "body: score": 1}


def test_profile_adds_the_job_steps_start_and_tail_from_squeue(tmp_path: Path) -> None:
    folder = tmp_path / "results" / "logs" / "slurm" / "group_short_execute_score"
    folder.mkdir(parents=True)
    (folder / "7.log").write_text(LOG)
    reference = tmp_path / "results" / "logs" / "slurm" / "rule_reference" / "re4_a"
    reference.mkdir(parents=True)
    (reference / "6.log").write_text(
        banner("09:59:00") + "[Tue Nov 24 09:59:01 2026]\nrule reference:\n" + inner("09:59:03", [], "0:00:01.0")
    )
    squeue = "6|2026-11-24T09:58:59|2026-11-24T09:59:05|reference\n7|2026-11-24T09:59:58|2026-11-24T10:00:39|x\n"
    found = slurm_profile(tmp_path, squeue + "8|N/A|N/A|pending\n")
    assert (found["jobs"], found["members"], found["elapsed_s"]) == (1, 2, 41)  # the reference job ran no sample
    expected = {key: MEMBER_1[key] + MEMBER_2[key] for key in MEMBER_1}
    assert found["phases"] == {"job step start-up": 3, "job step DAG": 1, **expected, "job step tail": 2}
    assert sum(found["phases"].values()) == found["elapsed_s"]
    assert found["bodies"] == {"execute": 17, "score": 3}


STATS = """Building DAG of jobs...
Job stats:
job            count
-----------  -------
ask               16
reference          2
calibration        2
evaluate           3
aggregate          1
all                1
total             25

Reasons:
"""


def test_jobs_per_sample_attempt_from_the_dry_run_table() -> None:
    stats = job_stats(STATS)
    assert stats["total"] == 25 and sample_attempts(stats) == 16
    assert per_sample_jobs(stats) == pytest.approx({"ask": 1.0, "evaluate": 3 / 16, "total": 19 / 16})
    old = job_stats(STATS.replace("ask   ", "execute").replace("evaluate  ", "score     "))
    assert sample_attempts(old) == 16 and per_sample_jobs(old)["total"] == pytest.approx(19 / 16)
    # an ask job per batch (issue 27): the dry run counts the sample-attempts from the plan
    batched = {**job_stats(STATS.replace("ask               16", "ask                3")), COUNT: 16}
    assert sample_attempts(batched) == 16
    assert per_sample_jobs(batched) == pytest.approx({"ask": 3 / 16, "evaluate": 3 / 16, "total": 6 / 16})
