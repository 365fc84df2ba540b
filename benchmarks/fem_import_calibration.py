"""Oracle calibration over a stratified sample of the 645 imported PDEAgent-Bench records.

Imports ``../shared/upstream/pdeagent-bench/benchmark_v2.jsonl`` into a scratch suite, draws PER_FAMILY records
of each of the 11 families (seeded), runs ``snakemake calibrate`` (reference, warm-up, k timed oracle runs) and
then the oracle through every gate, and prints the BENCHMARKS.md section: the e_base distribution beside the
paper's Table 7 (median 2.3e-4), the records our oracles fail on or drop and why, the CV of the timed runs, the
pass rate of the oracle on the calibrated records and the core-hours. A failed job's reason is the last line of
its log (``results/logs/reference|calibration/...``).

Usage: python benchmarks/fem_import_calibration.py [PER_FAMILY] [SEED] [CORES] [CHUNK]
(PER_FAMILY 0: all 645 records; CHUNK, default 40: records per Snakemake run)

It works in ./fem_import_calibration_work, kept so that a rerun resumes; delete it after changing the oracle
(the import copies it). The records go through Snakemake CHUNK at a time (calibration, then the oracle through
every gate, per chunk): with all 645 in one DAG of about 2,600 jobs, Snakemake's own bookkeeping after each
finished job took half a core for the whole run.
"""

from __future__ import annotations

import csv
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

UPSTREAM = REPO.parent / "shared" / "upstream" / "pdeagent-bench" / "benchmark_v2.jsonl"
SUITE = "pdeagent-bench"


def stratified(suite_dir: Path, per_family: int, seed: int) -> dict[str, str]:
    """``per_family`` case ids of each family (id -> family), drawn with ``random.Random(seed)``; every record
    when ``per_family`` is 0."""
    by_family: dict[str, list[str]] = defaultdict(list)
    for path in sorted(suite_dir.glob("*/case.yaml")):
        case = yaml.safe_load(path.read_text())
        by_family[case["visible"]["spec"]["family"]].append(case["id"])
    rng = random.Random(seed)
    return {
        case: family
        for family in sorted(by_family)
        for case in (
            by_family[family]
            if per_family <= 0
            else rng.sample(by_family[family], min(per_family, len(by_family[family])))
        )
    }


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
    """The last line of the reference or calibration log of ``case`` that says what went wrong."""
    for stage in ("reference", "calibration"):
        log = work / "results" / "logs" / stage / SUITE / f"{case}.log"
        if log.is_file():
            lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
            if lines:
                return f"{stage}: {lines[-1][:160]}"
    return "not run yet, or an upstream job failed (no reference or calibration log)"


def quantiles(values: list[float]) -> str:
    """min, p5, median, p95, max of ``values`` in one table row."""
    points = np.percentile(values, [0, 5, 50, 95, 100])
    return " | ".join(f"{value:.2e}" for value in points)


def main(per_family: int = 10, seed: int = 0, cores: int = 1, chunk: int = 40) -> None:
    root = Path("fem_import_calibration_work").resolve()  # kept: a rerun resumes, the logs stay readable
    suite_dir = root / "cases" / SUITE
    if not suite_dir.is_dir():  # imported once: a new import would make every job out of date
        subprocess.run(
            [
                str(Path(sys.executable).with_name("simcodebench")),
                "import",
                SUITE,
                str(UPSTREAM),
                "--out",
                str(suite_dir),
            ],
            check=True,
            capture_output=True,
        )
    sample = stratified(suite_dir, per_family, seed)
    work = root / "work"
    calibrate_s = evaluate_s = 0.0
    classes: Counter = Counter()
    records = list(sample)
    for start in range(0, len(records), chunk):
        chunk_records = records[start : start + chunk]
        config = {
            "cases_dir": str(root / "cases"),
            "suites": [SUITE],
            "cases": {SUITE: chunk_records},
            "agents": {"oracle": {"backend": "oracle"}},
        }
        workdir(work, config)
        calibrate_s += run_snakemake(work, cores, "calibrate")
        # the oracle runs on the calibrated records only, so that the summary table is written
        calibrated = [case for case in chunk_records if calibration_of(work, case) is not None]
        if calibrated:
            workdir(work, {**config, "cases": {SUITE: calibrated}})
            evaluate_s += run_snakemake(work, cores, "all")
            classes.update(oracle_classes(work))
        print(f"records {start + 1}-{start + len(chunk_records)} of {len(records)} done", file=sys.stderr, flush=True)
    report(work, sample, classes, calibrate_s, evaluate_s, cores, per_family, seed)


def oracle_classes(work: Path) -> Counter:
    """The failure classes of the oracle's samples in the last summary (``scores.csv``)."""
    scores_path = work / "results" / "summary" / "scores.csv"
    if not scores_path.is_file():
        return Counter()
    with scores_path.open() as handle:
        return Counter(row["failure_class"] for row in csv.DictReader(handle) if row["agent"] == "oracle")


def report(
    work: Path,
    sample: dict[str, str],
    classes: Counter,
    calibrate_s: float,
    evaluate_s: float,
    cores: int,
    per_family: int,
    seed: int,
) -> None:
    """Print the markdown section and keep the raw numbers next to this script's output (``classes``: the
    oracle's failure classes over every chunk; the elapsed times are this invocation's)."""
    calibrations, failures = {}, {}
    for case in sample:
        calibration = calibration_of(work, case)
        if calibration is not None:
            calibrations[case] = calibration
        else:
            failures[case] = failure_reason(work, case)
    e_base = [c["e_base"] for c in calibrations.values()]
    t_base = [c["t_base"] for c in calibrations.values()]
    cvs = [c["t_cv"] for c in calibrations.values()]
    run_seconds = sum(sum(c["wall_times"]) for c in calibrations.values())
    print(f"machine: {machine()}; snakemake --cores {cores}; {per_family} records per family, seed {seed}")
    print(f"sample: {len(sample)} records; calibrated {len(calibrations)}; failed or dropped {len(failures)}")
    print("\n| e_base | min | p5 | median | p95 | max |\n|---|---|---|---|---|---|")
    print(f"| ours ({len(e_base)} records) | {quantiles(e_base)} |")
    print("| paper, Table 7 | | | 2.3e-04 | | |")
    print("\n| family | records | median e_base | median t_base (s) |\n|---|---|---|---|")
    grouped: dict[str, list[dict]] = defaultdict(list)
    for case, calibration in calibrations.items():
        grouped[sample[case]].append(calibration)
    for family, rows in sorted(grouped.items()):
        print(
            f"| {family} | {len(rows)} | {statistics.median(r['e_base'] for r in rows):.2e} | "
            f"{statistics.median(r['t_base'] for r in rows):.2f} |"
        )
    print(
        f"\nt_base: median {statistics.median(t_base):.2f} s; CV of the timed runs per record: median "
        f"{100 * statistics.median(cvs):.1f}%, p95 {100 * float(np.percentile(cvs, 95)):.1f}%"
    )
    print(f"oracle through every gate: {dict(classes)}")
    print("\nfailed or dropped:")
    for case, reason in sorted(failures.items()):
        print(f"- {case}: {reason}")
    print(
        f"\ncore-hours: calibration {calibrate_s * cores / 3600:.2f} (elapsed {calibrate_s:.0f} s), "
        f"oracle evaluation {evaluate_s * cores / 3600:.2f} (elapsed {evaluate_s:.0f} s); "
        f"timed oracle runs alone {run_seconds / 3600:.2f}"
    )
    raw = {"calibrations": calibrations, "failures": failures, "classes": dict(classes)}
    Path("fem_import_calibration.json").write_text(json.dumps(raw, indent=1, default=str))


if __name__ == "__main__":
    args = [int(arg) for arg in sys.argv[1:]]
    main(*args)
