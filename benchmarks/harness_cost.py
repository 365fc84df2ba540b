"""The harness's cluster-scale cost (issue 18), in one run: what the before/after table of
benchmarks/results/cluster.md needs.

1. Jobs per sample-attempt: ``snakemake -n --quiet rules`` on the smoke config of ``tests/test_slurm.py``; the
   jobs of every rule but the shared ones (references, calibrations, aggregate, the target rules), divided by
   the sample-attempts (the ``ask`` jobs of the two-job workflow, else the ``execute`` jobs), and per rule.
2. ``snakemake -n`` time and the process's peak RSS at 20,000 sample-attempts (``dryrun_scale.py``'s config),
   beside stock Snakemake's floor (``snakemake_floor.py``'s two-rule workflow) for the same number of jobs.
3. Local harness overhead per sample-attempt (``harness_overhead.py``'s method, ``--overhead-samples``).
4. SLURM, on the one-node cluster of the tests (``tests/slurm_cluster.py``; root on Debian): the smoke config
   from scratch, locally and with ``--profile slurm`` (plus ``--group-components short=8`` where the workflow
   still has the group ``short``, as ``tests/test_slurm.py`` runs it). Reported: sbatch jobs per sample; the
   seconds per sample inside the cluster jobs that executed samples beyond the solvers' own runs, that is
   (sum of those jobs' elapsed time from squeue's start and end) - (sum of the samples' ``run.json`` wall_s),
   divided by the samples; whether the verdicts equal the local run's; and the profile of those jobs from
   their logs (``slurm_job_log.py``): start-up, DAG, rule bodies, gaps, per member and per sample.

The workflow is recognised by its rule names (``ask``/``evaluate``: one local job and one batch job per
sample-attempt; ``execute``/``score``/``finalize``: one job per step), so the same script measures before and
after. It prints progress, then a markdown block for benchmarks/results/cluster.md (machine, date, load average,
git commit).
This supersedes the SLURM per-sample numbers of ``slurm_grouping.py`` and the whole-plan line of
``dryrun_scale.py`` for issue 18; both still run on their own.

Usage: nice -n 10 python benchmarks/harness_cost.py [--parts jobs,dryrun,overhead,slurm] [--overhead-samples N]
       [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml
from _common import REPO, SNAKEMAKE, machine, workdir
from dryrun_scale import synthetic_config
from harness_overhead import measure
from slurm_job_log import PHASES, member_phases, parse_members, squeue_times
from snakemake_floor import SNAKEFILE

from simcodebench.pipeline.plan import Plan

sys.path.insert(0, str(REPO / "tests"))
from pipeline import make_workdir, scores  # noqa: E402
from pipeline import snakemake as run_locally  # noqa: E402
from slurm_cluster import SlurmCluster, provision  # noqa: E402
from test_slurm import SAME, SMOKE, STATUS_ARGS  # noqa: E402

SHARED_RULES = ("reference", "calibration", "calibrate", "aggregate", "all")
SAMPLE_RULES = ("execute", "evaluate")  # rules whose jobs run samples' solutions


def job_stats(text: str) -> dict[str, int]:
    """Rule -> job count from the ``Job stats:`` table of ``snakemake -n`` output (its last table)."""
    stats: dict[str, int] = {}
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.strip() != "Job stats:":
            continue
        stats = {}
        for row in lines[index + 3 :]:
            parts = row.split()
            if len(parts) != 2 or not parts[1].isdigit():
                break
            stats[parts[0]] = int(parts[1])
    return stats


def is_batched(stats: dict[str, int]) -> bool:
    """Whether the workflow is the two-job one (``ask`` + ``evaluate`` batches) rather than a job per step."""
    return "evaluate" in stats


COUNT = "sample-attempts"
"""The key :func:`dry_run` adds to the job stats: the plan's (sample, attempt) pairs, counted from its batches."""


def sample_attempts(stats: dict[str, int]) -> int:
    """(sample, attempt) pairs of a plan: :data:`COUNT` where the dry run counted them (an ``ask`` job per batch),
    else one ``ask`` each (the two-job workflow of issue 18), else one ``execute`` each (a job per step)."""
    if COUNT in stats:
        return stats[COUNT]
    return stats["ask"] if is_batched(stats) else stats["execute"]


def planned_sample_attempts(work: Path) -> int:
    """The (sample, attempt) pairs of the plan of ``work``'s config: the members of every batch."""
    plan = Plan.from_config(yaml.safe_load((work / "config" / "config.yaml").read_text()))
    attempts = max((agent.attempts for agent in plan.agents.values()), default=0)
    return sum(len(m) for s in plan.suites() for a in range(attempts) for m in plan.batches(s, a).values())


def per_sample_jobs(stats: dict[str, int]) -> dict[str, float]:
    """Jobs per sample-attempt, per rule on a sample's path and in all (key ``total``)."""
    count = sample_attempts(stats)
    rules = {rule: jobs / count for rule, jobs in stats.items() if rule not in (*SHARED_RULES, "total", COUNT)}
    return {**rules, "total": sum(rules.values())}


def timed_peak(command: list[str], cwd: Path | None = None) -> tuple[str, float, float, float]:
    """Run ``command``: its output, wall seconds, CPU seconds (user + system) and peak RSS in MB (of the process
    itself, from wait4). CPU seconds depend less on a shared machine's load than wall seconds."""
    with tempfile.TemporaryFile("w+") as out:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} ... failed:\n{text[-4000:]}")
    return text, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def dry_run(work: Path) -> tuple[dict[str, int], float, float, float]:
    """Job stats (with :data:`COUNT`), wall seconds, CPU seconds and peak MB of ``snakemake -n --quiet rules`` in
    ``work``."""
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work), "--force-use-threads"]
    text, seconds, cpu, peak = timed_peak([*command, "-n", "--quiet", "rules"])
    return {**job_stats(text), COUNT: planned_sample_attempts(work)}, seconds, cpu, peak


def floor(jobs: int, root: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak MB of ``snakemake -n`` on ``snakemake_floor.py``'s two-rule workflow
    with ``jobs``."""
    folder = root / "floor"
    folder.mkdir()
    (folder / "Snakefile").write_text(SNAKEFILE.format(pairs=jobs // 2))
    _, seconds, cpu, peak = timed_peak([SNAKEMAKE, "-n", "--quiet", "rules", "--cores", "1"], cwd=folder)
    return seconds, cpu, peak


def solver_seconds(work: Path) -> tuple[int, float]:
    """Samples executed in ``work`` and the sum of their runs' own wall time (``run.json`` wall_s)."""
    runs = list((work / "results" / "runs").glob("*/*/*/*/*/run/run.json"))
    return len(runs), sum(json.loads(path.read_text())["wall_s"] for path in runs)


def same_verdicts(local: Path, on_slurm: Path) -> bool:
    """Whether the two runs' score tables agree on every verdict column (``tests/test_slurm.py``'s ``SAME``)."""
    a, b = (scores(w).sort_values(SAME[:4]).reset_index(drop=True)[SAME] for w in (local, on_slurm))
    return a.equals(b)


def slurm_profile(work: Path, squeue: str) -> dict:
    """From the cluster run in ``work`` and its ``squeue`` dump: jobs, their elapsed time, and the phases of the
    jobs that executed samples (summed over their members), with the job step's own start-up (sbatch start to its
    banner: srun, interpreter, Snakemake import), DAG (to its first dispatch) and tail (last stamp to the end)."""
    times = squeue_times(squeue)
    phases = dict.fromkeys(("job step start-up", "job step DAG", *PHASES, "job step tail"), 0.0)
    bodies: dict[str, float] = {}
    elapsed = members = jobs = 0
    for path in sorted((work / "results" / "logs" / "slurm").rglob("*.log")):
        log = parse_members(path.read_text(errors="replace"))
        if not any(rule in SAMPLE_RULES for member in log.members for rule, _, _ in member.rules):
            continue
        start, end = times[path.stem]
        jobs += 1
        members += len(log.members)
        elapsed += (end - start).total_seconds()
        phases["job step start-up"] += ((log.started or start) - start).total_seconds()
        first = log.members[0].dispatched if log.members else log.last
        phases["job step DAG"] += ((first or start) - (log.started or start)).total_seconds()
        phases["job step tail"] += (end - (log.last or end)).total_seconds()
        for row in member_phases(log):
            for key, seconds in row.items():
                if key.startswith("body: "):
                    bodies[key[6:]] = bodies.get(key[6:], 0.0) + seconds
                else:
                    phases[key] += seconds
    return {"jobs": jobs, "members": members, "elapsed_s": elapsed, "phases": phases, "bodies": bodies}


def slurm(root: Path, group_args: tuple[str, ...]) -> dict:
    """The smoke config locally and on the one-node cluster (see the module docstring)."""
    reason = provision()
    if reason:
        raise SystemExit(f"no SLURM cluster here: {reason}")
    local = make_workdir(root / "local", SMOKE, wall_s=10.0)
    started = time.perf_counter()
    run_locally(local, timeout=1800)
    local_s = time.perf_counter() - started
    with SlurmCluster(root / "cluster") as cluster:
        work = make_workdir(root / "slurm", SMOKE, wall_s=10.0)
        command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work)]
        command += ["--profile", str(REPO / "slurm"), *STATUS_ARGS, "--slurm-keep-successful-logs", *group_args]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=cluster.env, timeout=3000)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"SLURM run failed:\n{done.stderr[-6000:]}\n{cluster.logs()}")
        squeue = subprocess.run(
            ["squeue", "-h", "-t", "all", "-o", "%i|%S|%e|%k"], capture_output=True, text=True, env=cluster.env
        ).stdout
    (root / "squeue.txt").write_text(squeue)
    samples, solver = solver_seconds(work)
    return {
        "local_s": local_s,
        "wall_s": wall,
        "sbatch": len(squeue_times(squeue)),
        "samples": samples,
        "solver_s": solver,
        "same_verdicts": same_verdicts(local, work),
        **slurm_profile(work, squeue),
    }


def commit() -> str:
    """The last commit of the checkout that changed what is measured (the package, workflow, cases and
    profiles), with ``+changes`` when those files differ from HEAD."""
    measured = ["src", "workflow", "Snakefile", "cases", "profiles", "slurm"]
    last = subprocess.run(
        ["git", "-C", str(REPO), "log", "-1", "--format=%h", "--", *measured], capture_output=True, text=True
    )
    dirty = subprocess.run(["git", "-C", str(REPO), "diff", "--quiet", "HEAD", "--", *measured])
    return last.stdout.strip() + (" +changes" if dirty.returncode else "")


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " / ".join(f"{value:.1f}" for value in os.getloadavg())


def report(found: dict, loads: list[str]) -> str:
    """The markdown block for benchmarks/results/cluster.md."""
    lines = [
        f"Machine: {machine()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; workflow at commit {commit()}; "
        f"load average (1/5/15 min) at start {loads[0]}, at end {loads[-1]}.",
        "",
        "| measurement | value |",
        "|---|---|",
    ]
    if "jobs" in found:
        stats = found["jobs"]
        kind = "ask + evaluate batches" if is_batched(stats) else "a job per step (group `short` on SLURM)"
        shares = per_sample_jobs(stats)
        rules = ", ".join(f"{rule} {share:.2f}" for rule, share in shares.items() if rule != "total")
        lines.append(
            f"| workflow | {kind} |\n| jobs per sample-attempt, smoke config ({sample_attempts(stats)} "
            f"sample-attempts, {stats['total']} jobs) | {shares['total']:.2f} ({rules}) |"
        )
    if "dryrun" in found:
        d = found["dryrun"]
        lines.append(
            f"| `snakemake -n`, {sample_attempts(d['stats']):,} sample-attempts ({d['stats']['total']:,} jobs, "
            f"{per_sample_jobs(d['stats'])['total']:.2f} per sample-attempt) | {d['seconds']:.1f} s "
            f"({d['cpu_s']:.1f} s CPU), {d['peak_mb']:,.0f} MB peak RSS |\n"
            "| stock Snakemake's floor, same number of jobs (`snakemake_floor.py`'s workflow) "
            f"| {d['floor_s']:.1f} s ({d['floor_cpu_s']:.1f} s CPU), {d['floor_mb']:,.0f} MB |"
        )
    if "overhead" in found:
        o = found["overhead"]
        lines.append(
            f"| local harness overhead per sample-attempt ({o.samples} trivial re4/hilbert samples, 2 cores) "
            f"| {o.per_sample_s:.3f} s |"
        )
    if "slurm" in found:
        s = found["slurm"]
        beyond = (s["elapsed_s"] - s["solver_s"]) / s["samples"]
        lines.append(
            f"| SLURM smoke config: sbatch jobs (all / executing samples), per sample | {s['sbatch']} / {s['jobs']}, "
            f"{s['sbatch'] / s['samples']:.2f} / {s['jobs'] / s['samples']:.2f} |\n"
            f"| SLURM: seconds per sample inside the jobs executing samples, beyond the solver's run "
            f"(({s['elapsed_s']:.0f} s of job time - {s['solver_s']:.1f} s of runs) / {s['samples']}) "
            f"| {beyond:.2f} s |\n| SLURM: verdicts equal the local run's | {'yes' if s['same_verdicts'] else 'NO'} |\n"
            f"| SLURM / local wall time of the smoke config | {s['wall_s']:.0f} s / {s['local_s']:.0f} s |"
        )
        lines += [
            "",
            f"Profile of the {s['jobs']} jobs that executed samples ({s['members']} srun members, {s['samples']} "
            "samples), from their logs (one-second stamps):",
            "",
            "| phase | seconds (all jobs) | per sample |",
            "|---|---|---|",
        ]
        for phase, seconds in s["phases"].items():
            lines.append(f"| {phase} | {seconds:.0f} | {seconds / s['samples']:.2f} |")
        for rule, seconds in s["bodies"].items():
            lines.append(f"| of the rule bodies: {rule} | {seconds:.0f} | {seconds / s['samples']:.2f} |")
        lines.append(
            f"| of the rule bodies: the solvers' runs (`run.json` wall_s) | {s['solver_s']:.1f} "
            f"| {s['solver_s'] / s['samples']:.2f} |"
        )
        lines.append(f"| total (squeue elapsed) | {s['elapsed_s']:.0f} | {s['elapsed_s'] / s['samples']:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="jobs,dryrun,overhead,slurm", help="comma-separated parts to measure")
    parser.add_argument("--overhead-samples", type=int, default=100, help="samples of the local overhead run")
    parser.add_argument("--keep", type=Path, help="work in this (new) folder and keep it (logs, squeue dump)")
    args = parser.parse_args()
    parts = args.parts.split(",")
    loads = [load()]
    found: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        found["jobs"], _, _, _ = dry_run(make_workdir(root / "jobs", SMOKE, wall_s=10.0))
        print(f"jobs: {found['jobs']}", flush=True)
        if "dryrun" in parts:
            stats, seconds, cpu, peak = dry_run(workdir(root / "dryrun", synthetic_config(root)))
            floor_s, floor_cpu, floor_mb = floor(stats["total"], root)
            found["dryrun"] = {"stats": stats, "seconds": seconds, "cpu_s": cpu, "peak_mb": peak}
            found["dryrun"].update(floor_s=floor_s, floor_cpu_s=floor_cpu, floor_mb=floor_mb)
            print(f"dry run: {found['dryrun']}", flush=True)
        if "overhead" in parts:
            found["overhead"] = measure(args.overhead_samples)
            print(f"overhead: {found['overhead']}", flush=True)
        if "slurm" in parts:
            group_args = () if is_batched(found["jobs"]) else ("--group-components", "short=8")
            found["slurm"] = slurm(root, group_args)
            print(f"slurm: {found['slurm']}", flush=True)
        loads.append(load())
    print(report(found, loads))


if __name__ == "__main__":
    main()
