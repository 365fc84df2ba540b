"""Oracle calibration over the imported PDEAgent-Bench records: all 645 (PER_FAMILY 0) or a stratified sample.

Imports ``../shared/upstream/pdeagent-bench/benchmark_v2.jsonl`` into a scratch suite, draws PER_FAMILY records
of each of the 11 families (seeded), runs ``snakemake calibrate`` (reference, warm-up, k timed oracle runs) and
then the oracle through every gate, and prints the benchmarks/results/fem.md section: the e_base distribution beside the
paper's Table 7 (median 2.3e-4), the records our oracles fail on or drop and why, the CV of the timed runs, the
pass rate of the oracle on the calibrated records and the core-hours. A failed job's reason is the last line of
its log (``results/logs/reference|calibration/...``).

Usage: python benchmarks/fem_import_calibration.py [dealii] [PER_FAMILY] [SEED] [CORES] [CHUNK]
(PER_FAMILY 0: all 645 records; CHUNK, default 40: records per Snakemake run)
       python benchmarks/fem_import_calibration.py report [dealii] [PER_FAMILY] [SEED]
(only the report, from what the work folder holds: a run spread over several sessions is reported whole)

``dealii``: the 313 deal.II records imported with ``--library dealii`` (suite ``pdeagent-dealii``, work folder
``./fem_dealii_import_calibration_work``), sampled among the 2-D manufactured records that ``oracle_dealii.cc``
solves (:func:`simcodebench.suites.fem.dealii_records.oracle_covers`): a refined one adds two compiled reference
levels, and one run of a 3-D one (UMFPACK on Q2 at the record's resolution: 68,921 unknowns, 2 GB) took over
5 minutes here. Reaction-diffusion gets at most DEALII_CAPS records: each of its runs reassembles and refactors
on 120-190^2 cells for 40-80 steps (35-65 s a run, five runs a record).

It works in ./fem_import_calibration_work, kept so that a rerun resumes; delete it after changing the oracle
(the import copies it). The records go through Snakemake CHUNK at a time (calibration, then the oracle through
every gate, per chunk): with all 645 in one DAG of about 2,600 jobs, Snakemake's own bookkeeping after each
finished job took half a core for the whole run.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import yaml
from _common import REPO, SNAKEMAKE, machine, workdir

from simcodebench.suites.fem.dealii_records import ORACLE_FAMILIES

UPSTREAM = REPO.parent / "shared" / "upstream" / "pdeagent-bench" / "benchmark_v2.jsonl"
SUITE = "pdeagent-bench"
LIBRARIES = {"dolfinx": "pdeagent-bench", "dealii": "pdeagent-dealii"}
DEALII_CAPS = {"reaction_diffusion": 3}


def select_library(library: str) -> Path:
    """Make ``library``'s suite the one this script works on; return its work folder."""
    global SUITE
    SUITE = LIBRARIES[library]
    return Path("fem_import_calibration_work" if library == "dolfinx" else "fem_dealii_import_calibration_work")


def dealii_eligible(case: dict) -> bool:
    """A 2-D manufactured record whose problem ``oracle_dealii.cc`` solves (its family; a linear reaction)."""
    spec = case["visible"]["spec"]["case_spec"]
    pde = spec["pde"]
    reaction = pde["params"].get("reaction") or {"type": "linear"}
    return (
        pde["type"] in ORACLE_FAMILIES
        and reaction.get("type") == "linear"
        and case["hidden"]["reference"]["generator"] == "manufactured"
        and "nz" not in spec["eval_grid"]
    )


def stratified(suite_dir: Path, per_family: int, seed: int) -> dict[str, str]:
    """``per_family`` case ids of each family (id -> family), drawn with ``random.Random(seed)``; every record
    when ``per_family`` is 0."""
    by_family: dict[str, list[str]] = defaultdict(list)
    for path in sorted(suite_dir.glob("*/case.yaml")):
        case = yaml.safe_load(path.read_text())
        if LIBRARIES["dealii"] == SUITE and not dealii_eligible(case):
            continue
        by_family[case["visible"]["spec"]["family"]].append(case["id"])
    rng = random.Random(seed)
    caps = DEALII_CAPS if LIBRARIES["dealii"] == SUITE else {}
    return {
        case: family
        for family in sorted(by_family)
        for case in (
            by_family[family]
            if per_family <= 0
            else rng.sample(by_family[family], min(per_family, caps.get(family, per_family), len(by_family[family])))
        )
    }


def round_robin(sample: dict[str, str]) -> list[str]:
    """The sampled records taking the families in turn, so that a run stopped early has covered every family."""
    by_family: dict[str, list[str]] = defaultdict(list)
    for case, family in sample.items():
        by_family[family].append(case)
    queues = [by_family[family] for family in sorted(by_family)]
    return [queue[i] for i in range(max(map(len, queues), default=0)) for queue in queues if i < len(queue)]


def run_snakemake(work: Path, cores: int, target: str) -> float:
    """Run ``target`` with --keep-going; return the elapsed seconds (failures are read from the logs)."""
    start = time.perf_counter()
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work), "--force-use-threads"]
    # a run killed earlier (e.g. at a session's end) leaves its lock and its unfinished job's output behind;
    # nothing else runs in this folder
    subprocess.run(command + ["--unlock", "--cores", "1"], capture_output=True, text=True)
    # greedy: the ILP scheduler re-solves over hundreds of ready jobs after each one ends (half a core here)
    subprocess.run(
        command + ["--cores", str(cores), "--keep-going", "--rerun-incomplete", "--scheduler", "greedy", target],
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start


def calibration_of(work: Path, case: str) -> dict | None:
    """The calibration record of ``case``, or None when it is missing or records a failure (F-Case)."""
    path = work / "results" / "calibration" / SUITE / f"{case}.json"
    record = json.loads(path.read_text()) if path.is_file() else None
    return None if record is None or "failed" in record else record


def failure_reason(work: Path, case: str) -> str:
    """What went wrong with ``case``: the last error line of its reference log, else of its calibration log
    (the message after "F-Case: " or "ERROR: ")."""
    for stage in ("reference", "calibration"):
        log = work / "results" / "logs" / stage / SUITE / f"{case}.log"
        lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
        errors = [line.strip() for line in lines if " ERROR: " in line]
        if errors:
            message = (
                errors[-1].split("F-Case: ", 1)[-1] if "F-Case: " in errors[-1] else errors[-1].split(" ERROR: ", 1)[1]
            )
            return f"{stage}: {message.replace(f'{SUITE}/{case}: ', '')[:200]}"
    return "not run yet, or killed (no error in its reference or calibration log)"


def quantiles(values: list[float]) -> str:
    """min, p5, median, p95, max of ``values`` in one table row."""
    points = np.percentile(values, [0, 5, 50, 95, 100])
    return " | ".join(f"{value:.2e}" for value in points)


def main(library: str = "dolfinx", per_family: int = 10, seed: int = 0, cores: int = 1, chunk: int = 40) -> None:
    root = select_library(library).resolve()  # kept: a rerun resumes, the logs stay readable
    suite_dir = root / "cases" / SUITE
    if not suite_dir.is_dir():  # imported once: a new import would make every job out of date
        subprocess.run(
            [
                str(Path(sys.executable).with_name("simcodebench")),
                "import",
                "pdeagent-bench",
                str(UPSTREAM),
                "--out",
                str(suite_dir),
                "--library",
                library,
            ],
            check=True,
            capture_output=True,
        )
    sample = stratified(suite_dir, per_family, seed)
    work = root / "work"
    records = round_robin(sample)
    for start in range(0, len(records), chunk):
        chunk_records = records[start : start + chunk]
        config = {
            "cases_dir": str(root / "cases"),
            "suites": [SUITE],
            "cases": {SUITE: chunk_records},
            "agents": {"oracle": {"backend": "oracle"}},
        }
        workdir(work, config)
        run_snakemake(work, cores, "calibrate")
        # the oracle runs on the calibrated records only, so that the summary table is written
        calibrated = [case for case in chunk_records if calibration_of(work, case) is not None]
        if calibrated:
            workdir(work, {**config, "cases": {SUITE: calibrated}})
            run_snakemake(work, cores, "all")
        print(f"records {start + 1}-{start + len(chunk_records)} of {len(records)} done", file=sys.stderr, flush=True)
    report(work, sample, per_family, seed)


def oracle_class(work: Path, case: str) -> str:
    """The failure class of the oracle's sample of ``case`` (its ``final.json``), or "not evaluated"."""
    final = work / "results" / "runs" / "oracle" / SUITE / case / "0" / "final.json"
    return json.loads(final.read_text())["failure_class"] if final.is_file() else "not evaluated"


def job_seconds(work: Path) -> dict[str, float]:
    """Seconds of the finished jobs of each rule, from Snakemake's records (``.snakemake/metadata``: one per
    output file, with its job's start and end), each job counted once: over every session that the work folder
    has seen. Each job here uses one core."""
    seconds: dict[str, float] = defaultdict(float)
    seen = set()
    for path in (work / ".snakemake" / "metadata").iterdir():
        record = json.loads(path.read_text())
        job = (record.get("rule"), record.get("starttime"), record.get("endtime"))
        if None in job or job in seen:
            continue
        seen.add(job)
        seconds[job[0]] += job[2] - job[1]
    return dict(seconds)


def report(work: Path, sample: dict[str, str], per_family: int, seed: int) -> None:
    """Print the markdown section from the work folder and keep the raw numbers next to this script's output."""
    calibrations, failures = {}, {}
    for case in sample:
        calibration = calibration_of(work, case)
        if calibration is not None:
            calibrations[case] = calibration
        else:
            failures[case] = failure_reason(work, case)
    classes = {case: oracle_class(work, case) for case in calibrations}
    e_base = [c["e_base"] for c in calibrations.values()]
    t_base = [c["t_base"] for c in calibrations.values()]
    cvs = [c["t_cv"] for c in calibrations.values()]
    run_seconds = sum(sum(c["wall_times"]) for c in calibrations.values())
    print(f"machine: {machine()}; suite {SUITE}; {per_family or 'all'} records per family, seed {seed}")
    print(f"sample: {len(sample)} records; calibrated {len(calibrations)}; failed or dropped {len(failures)}")
    print("\n| e_base | min | p5 | median | p95 | max |\n|---|---|---|---|---|---|")
    print(f"| ours ({len(e_base)} records) | {quantiles(e_base)} |")
    print("| paper, Table 7 | | | 2.3e-04 | | |")
    print(
        "\n| family | records | calibrated | dropped | e_base min | median | max | median t_base (s) | oracle Pass |"
        "\n|---|---|---|---|---|---|---|---|---|"
    )
    for family in sorted(set(sample.values())):
        cases = [c for c, f in sample.items() if f == family]
        rows = [calibrations[c] for c in cases if c in calibrations]
        values = [r["e_base"] for r in rows] or [float("nan")]
        passed = sum(classes[c] == "Pass" for c in cases if c in calibrations)
        print(
            f"| {family} | {len(cases)} | {len(rows)} | {len(cases) - len(rows)} | {min(values):.2e} | "
            f"{statistics.median(values):.2e} | {max(values):.2e} | "
            f"{statistics.median(r['t_base'] for r in rows) if rows else float('nan'):.2f} | {passed} |"
        )
    print(
        f"\nt_base: median {statistics.median(t_base):.2f} s; CV of the timed runs per record: median "
        f"{100 * statistics.median(cvs):.1f}%, p95 {100 * float(np.percentile(cvs, 95)):.1f}%"
    )
    print(f"oracle through every gate, over the calibrated records: {dict(Counter(classes.values()))}")
    print("\nfailed or dropped:")
    for case, reason in sorted(failures.items()):
        print(f"- {case} ({sample[case]}): {reason}")
    seconds = job_seconds(work)
    print(
        "\ncore-hours of the finished jobs, every session: "
        + ", ".join(f"{rule} {value / 3600:.2f}" for rule, value in sorted(seconds.items()))
        + f"; total {sum(seconds.values()) / 3600:.2f}; the timed oracle runs alone {run_seconds / 3600:.2f}"
    )
    raw = {"calibrations": calibrations, "failures": failures, "classes": classes, "job_seconds": seconds}
    Path(f"{work.parent.name.removesuffix('_work')}.json").write_text(json.dumps(raw, indent=1, default=str))


def report_only(library: str = "dolfinx", per_family: int = 0, seed: int = 0) -> None:
    """The report of what the library's work folder holds, running nothing."""
    root = select_library(library).resolve()
    sample = stratified(root / "cases" / SUITE, per_family, seed)
    report(root / "work", sample, per_family, seed)


def _arguments(args: list[str]) -> list:
    """The library (``dealii`` when named first, else ``dolfinx``) and the numbers after it."""
    library = args.pop(0) if args[:1] == ["dealii"] else "dolfinx"
    return [library, *[int(arg) for arg in args]]


if __name__ == "__main__":
    if sys.argv[1:2] == ["report"]:
        report_only(*_arguments(sys.argv[2:]))
    else:
        main(*_arguments(sys.argv[1:]))
