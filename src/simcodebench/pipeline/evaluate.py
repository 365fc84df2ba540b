"""The ``evaluate`` stage (``workflow/rules/evaluate.smk``): one job executes [+ converges] + scores each member
of a batch (at once up to its cores locally, in turn in a one-core cluster job), then writes the batch record. A
kill loses no finished member: each is appended to ``<batch>.partial.json`` with a hash of its inputs, and a
restarted job keeps the members listed there whose inputs did not change."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.io import read_json, sha256_file, write_json
from simcodebench.core.layout import MANIFEST
from simcodebench.core.logs import job_log
from simcodebench.execution.harness_runs import using
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution, write_run_record
from simcodebench.execution.slots import Slots, shared
from simcodebench.pipeline.convergence import make_convergence
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.score import make_score
from simcodebench.pipeline.status import refresh as refresh_status

log = logging.getLogger("simcodebench")

SHARED = 0
"""``workers`` of :func:`evaluate_batch` that run every member at once on the process's shared core slots."""


def partial_path(record: Path) -> Path:
    """``<batch>.partial.json`` beside the batch record ``<batch>.json``."""
    return record.with_name(f"{record.stem}.partial.json")


def member_inputs_hash(paths: list[Path], digests: dict[Path, str]) -> str:
    """One SHA-256 over the member's inputs (``digests`` memoises the files that members share)."""
    total = hashlib.sha256()
    for path in paths:
        if path not in digests:
            digests[path] = sha256_file(path)
        total.update(f"{path.name}:{digests[path]}\n".encode())
    return total.hexdigest()


def evaluate_batch(
    plan: Plan, suite: str, attempt: int, batch: str, out: Path, mpi: str | None, workers: int = 1
) -> None:
    """Evaluate every member of the batch not already finished with the same inputs (``workers`` > 1: that many
    CPU-busy members at once; :data:`SHARED`: as many as the shared slots allow; :mod:`..execution.slots`), then
    write ``out`` atomically and remove the partial record. The record lists the members in batch order, whatever
    order they finished in."""
    partial = partial_path(out)
    finished = {}
    if partial.is_file():
        finished = {(m["agent"], m["case"], m["sample"]): m for m in read_json(partial)["members"]}
    members = plan.batch_members(suite, attempt, batch)
    digests: dict[Path, str] = {}
    records: dict[int, dict[str, Any]] = {}
    todo: list[tuple[int, dict[str, Path], str]] = []
    for index, (agent, case_id, sample) in enumerate(members):
        paths = _member_paths(plan, agent, suite, case_id, sample, attempt)
        inputs = member_inputs_hash(
            [paths["manifest"], paths["ref_json"], paths["ref_h5"], paths["calibration"]], digests
        )
        kept = finished.get((agent, case_id, sample))
        if kept is not None and kept["inputs"] == inputs and paths["score"].is_file():
            log.info(
                "evaluate %s %s/%s sample %d attempt %d: kept from the interrupted job",
                agent,
                suite,
                case_id,
                sample,
                attempt,
            )
            records[index] = kept
        else:
            todo.append((index, paths, inputs))
    lock = threading.Lock()
    slots = shared() if workers == SHARED else Slots(workers) if workers > 1 else None

    def one(index: int, paths: dict[str, Path], inputs: str) -> None:
        agent, case_id, sample = members[index]
        record = _evaluate_member(plan, agent, suite, case_id, sample, attempt, paths, mpi, slots) | {"inputs": inputs}
        with lock:
            records[index] = record
            write_json(partial, {"members": list(records.values())})

    if slots is None:
        for job in todo:
            one(*job)
    else:
        with ThreadPoolExecutor(max(1, len(todo)), "evaluate") as pool:
            for future in [pool.submit(one, *job) for job in todo]:
                future.result()
    ordered = [records[i] for i in range(len(members))]
    write_json(out, {"suite": suite, "attempt": attempt, "batch": batch, "members": ordered})
    partial.unlink(missing_ok=True)


def _member_paths(plan: Plan, agent: str, suite: str, case_id: str, sample: int, attempt: int) -> dict[str, Path]:
    files = {
        "response": "response.json",
        "manifest": MANIFEST,
        "run": "run/run.json",
        "converge": "converge/converge.json",
        "score": "score.json",
    }
    return {
        key: Path(plan.layout.attempt_file(agent, suite, case_id, sample, attempt, name)) for key, name in files.items()
    } | {name: Path(path) for name, path in plan.case_outputs(suite, case_id).items()}


def _evaluate_member(
    plan: Plan,
    agent: str,
    suite: str,
    case_id: str,
    sample: int,
    attempt: int,
    paths: dict[str, Path],
    mpi: str | None,
    slots: Slots | None = None,
) -> dict[str, Any]:
    """Execute [+ converge] + score one (case, sample, attempt), each step holding a core slot of ``slots`` when
    given; its outcome and where its time went."""
    case = plan.case(suite, case_id)
    hold = slots.held if slots is not None else nullcontext
    start = time.perf_counter()
    with hold():
        make_run(case, paths["manifest"], paths["run"], plan.runtime, mpi, plan.images)
    converge_s = None
    convergence = "convergence" in case.suite.data
    if convergence:
        converge_start = time.perf_counter()
        with hold():
            _converge(plan, case, paths, mpi)
        converge_s = time.perf_counter() - converge_start
    with hold():
        make_score(
            plan.agent(agent, suite),
            case,
            sample,
            attempt,
            paths["response"],
            paths["manifest"],
            paths["run"],
            paths["ref_json"],
            paths["ref_h5"],
            paths["calibration"],
            paths["score"],
            paths["converge"] if convergence else None,
        )
    total_s = time.perf_counter() - start
    score, run = read_json(paths["score"]), read_json(paths["run"])
    run_s = run.get("wall_s") or 0.0
    return {
        "agent": agent,
        "case": case_id,
        "sample": sample,
        "status": score["status"],
        "failure_class": score["failure_class"],
        "passed": score["passed"],
        "seconds": {
            "total": total_s,
            "run": run_s,
            "converge": converge_s,
            "harness": total_s - run_s - (converge_s or 0.0),
        },
    }


def _converge(plan: Plan, case: Case, paths: dict[str, Path], mpi: str | None) -> None:
    """The member's convergence rerun (suites that check convergence)."""
    make_convergence(
        case,
        paths["manifest"],
        paths["run"],
        paths["ref_json"],
        paths["ref_h5"],
        paths["calibration"],
        paths["converge"],
        plan.runtime,
        mpi,
        plan.images,
    )


def make_run(
    case: Case,
    manifest_path: Path,
    out_run: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> None:
    """Execute the artifact (when there is one; ``mpi``: the job's MPI launcher; ``images``: apptainer images)
    and write ``run/run.json``."""
    manifest = read_json(manifest_path)
    concrete = resolve_runtime(runtime, case.suite.environment, images)
    if manifest["status"] != "ok":
        write_run_record(out_run, None, case, concrete, f"no artifact ({manifest['status']})")
        return
    result = execute_solution(case, manifest_path.parent, out_run.parent, concrete, mpi, images)
    write_run_record(out_run, result, case, concrete)


def run(plan: Plan, wildcards: Any, output: Any, threads: int, resources: Any, log: Any) -> None:
    """Rule ``evaluate``: execute [+ converge] + score every member of the batch: at once on the shared core slots
    where the job claims no thread (local profile, ``Plan.batch_threads``), else as many at a time as its
    ``threads`` hold its members' cores (one after another in a one-core cluster job); then the run's status
    file (:func:`.status.refresh`, on the node where the job ran)."""
    cores = max(1, int(resources.get("cpus_per_task") or 1))
    workers = SHARED if int(threads) == 0 and shared() is not None else max(1, int(threads) // cores)
    with job_log(Path(log[0])), using(plan.runtime, plan.images):
        evaluate_batch(
            plan,
            wildcards.suite,
            int(wildcards.attempt),
            wildcards.batch,
            Path(output[0]),
            resources.get("mpi"),
            workers,
        )
    refresh_status(plan)
