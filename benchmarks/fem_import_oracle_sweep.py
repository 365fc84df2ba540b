"""One oracle run per imported PDEAgent-Bench record: which records can the oracle not run at all, and why.

The full calibration (``fem_import_calibration.py`` with every record: reference, warm-up, three timed runs)
costs about 6 core-hours. This sweep is the cheap first pass: it imports the 645 upstream records into a scratch
suite and runs the oracle ONCE per record at the record's own calibration configuration (``params.oracle``),
untimed, with the shared compiled-form cache. For a manufactured record it also measures the run's error against
the exact solution (an e_base without the timed repeats). It does not run the refined records' finer levels L1
and L2, so a crash only at those levels (memory) or a refinement-filter drop is not seen here.

Each record's result is a JSON file in ``fem_import_oracle_sweep_work/records/`` (status, seconds, the error's
last lines, e_base where it applies), so a rerun resumes; ``--retry-failed`` runs the failed records again (after
a fix to the oracle: the scratch suite's copy of the oracle is refreshed from ``cases/fem`` on every start).
Records run round-robin over the families, so a partial sweep covers every family. ``--coarse`` is a quicker
first pass (``records_coarse/``): at most 12 cells across and 4 time steps, the rest of the record's configuration
kept, so the same forms, meshes and data are built; a crash there that the record's own settings do not share
(Newton on a mesh too coarse for the data) is checked again at its own settings.

Usage: nice -n 10 python benchmarks/fem_import_oracle_sweep.py [--coarse] [--retry-failed] [--limit N] [--report]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from itertools import zip_longest
from pathlib import Path

import numpy as np
import yaml
from _common import REPO, machine

from simcodebench.core.cases import load_case, load_suite
from simcodebench.execution.environments import envs_root
from simcodebench.suites.fem import grid
from simcodebench.suites.fem.oracle_runs import jit_cache, run_oracle
from simcodebench.suites.fem.reference import manufactured_reference

UPSTREAM = REPO.parent / "shared" / "upstream" / "pdeagent-bench" / "benchmark_v2.jsonl"
SUITE = "pdeagent-bench"
ROOT = Path("fem_import_oracle_sweep_work").resolve()
COARSE, COARSE_STEPS = 12, 4


def imported_suite() -> Path:
    """The scratch suite (imported once), with the current oracle copied in."""
    suite_dir = ROOT / "cases" / SUITE
    if not suite_dir.is_dir():
        executable = str(Path(sys.executable).with_name("simcodebench"))
        subprocess.run([executable, "import", SUITE, str(UPSTREAM), "--out", str(suite_dir)], check=True)
    shutil.copy(REPO / "cases" / "fem" / "oracle_dolfinx.py", suite_dir / "oracle_dolfinx.py")
    return suite_dir


def round_robin(suite_dir: Path) -> list[Path]:
    """The case folders, one of each family in turn (families and records in name order)."""
    by_family: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(suite_dir.glob("*/case.yaml")):
        by_family[yaml.safe_load(path.read_text())["visible"]["spec"]["family"]].append(path.parent)
    return [folder for row in zip_longest(*by_family.values()) for folder in row if folder is not None]


def coarsened(config: dict, spec: dict) -> dict:
    """``config`` at most COARSE cells across (mesh size at least 1/COARSE) and at most COARSE_STEPS time steps:
    the same forms, meshes and boundary data as the record's own configuration, at a fraction of the cost."""
    out = {**config, "resolution": min(int(config["resolution"]), COARSE)}
    if config.get("char_length"):
        out["char_length"] = max(float(config["char_length"]), 1.0 / COARSE)
    if "time" in spec["pde"]:
        span = float(spec["pde"]["time"]["t_end"]) - float(spec["pde"]["time"].get("t0", 0.0))
        out["dt"] = max(float(config.get("dt") or span / 50), span / COARSE_STEPS)
    return out


def run_record(suite_dir: Path, folder: Path, coarse: bool) -> dict:
    """Run the oracle once on one record; its status, seconds, error and (manufactured, own settings) e_base."""
    case = load_case(load_suite(suite_dir), folder)
    reference = case.hidden.reference
    row = {"id": case.id, "family": case.visible.spec["family"], "reference": reference["generator"]}
    config = reference["params"]["oracle"]
    if coarse:
        config = coarsened(config, case.visible.spec["case_spec"])
    start = time.perf_counter()
    try:
        field = run_oracle(case, config)
    except Exception as error:  # every failure is recorded, the sweep goes on
        row.update(status="error", error=str(error)[-1500:])
    else:
        row["status"] = "ok"
        if reference["generator"] == "manufactured" and not coarse:
            exact = manufactured_reference(case).fields["u"]
            row["e_base"] = grid.relative_l2(field, exact)
        elif not np.all(np.isfinite(field[grid.domain_mask(case.visible.spec["case_spec"])])):
            row.update(status="error", error="the field is not finite on the domain")
    row["seconds"] = round(time.perf_counter() - start, 2)
    return row


def run_batch(suite_dir: Path, folders: list[Path], records: Path, coarse: bool) -> None:
    """Run the oracle on ``folders`` in DOLFINx worker processes (:mod:`fem_oracle_batch_worker`), one after the
    other; a worker that dies costs only the record it was running (recorded as such), the next one goes on."""
    raw = records.with_name(records.name + "_raw")
    raw.mkdir(exist_ok=True)
    suite = load_suite(suite_dir)
    cases = {folder.name: load_case(suite, folder) for folder in folders}
    jobs = []
    for case in cases.values():
        config = case.hidden.reference["params"]["oracle"]
        spec = case.visible.spec["case_spec"]
        jobs.append({"id": case.id, "spec": spec, "config": coarsened(config, spec) if coarse else config})
    (raw / "jobs.json").write_text(json.dumps(jobs))
    case = next(iter(cases.values()))
    environment = {**os.environ, "XDG_CACHE_HOME": str(jit_cache(case)), "OMP_NUM_THREADS": "1"}
    python = str(envs_root() / case.suite.environment / "bin" / "python")
    worker = str(Path(__file__).with_name("fem_oracle_batch_worker.py"))
    oracle = str(suite_dir / "oracle_dolfinx.py")
    while not all((raw / f"{job['id']}.json").is_file() for job in jobs):
        (raw / "current").unlink(missing_ok=True)
        done = subprocess.run([python, worker, oracle, str(raw / "jobs.json"), str(raw)], env=environment)
        current = raw / "current"
        if done.returncode != 0 and current.is_file() and not (raw / f"{current.read_text()}.json").is_file():
            died = {"id": current.read_text(), "status": "error", "seconds": 0.0}
            died["error"] = f"WorkerDied: the oracle's process ended with {done.returncode}"
            (raw / f"{died['id']}.json").write_text(json.dumps(died))
        elif done.returncode != 0:
            raise SystemExit(f"the batch worker failed with {done.returncode} outside any record")
    for job in jobs:
        row = json.loads((raw / f"{job['id']}.json").read_text())
        case = cases[job["id"]]
        row.update(family=case.visible.spec["family"], reference=case.hidden.reference["generator"])
        (records / f"{job['id']}.json").write_text(json.dumps(row, indent=1))


def failure_kind(error: str) -> str:
    """The error's last meaningful line with numbers and quoted names masked: one kind per cause."""
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    last = next((line for line in reversed(lines) if re.match(r"\w*(Error|Exception)\b", line)), lines[-1])
    return re.sub(r"\d+(\.\d+)?(e-?\d+)?", "N", last)[:200]


def report(records: Path, total: int) -> None:
    """Print the sweep's state: done, failed by kind (with the records), e_base of the manufactured ones."""
    rows = [json.loads(p.read_text()) for p in sorted(records.glob("*.json"))]
    failed = [r for r in rows if r["status"] != "ok"]
    print(f"machine: {machine()}")
    print(f"records run: {len(rows)} of {total}; oracle ran: {len(rows) - len(failed)}; failed: {len(failed)}")
    print(f"oracle seconds (sum): {sum(r['seconds'] for r in rows):.0f}")
    done = Counter(r["family"] for r in rows)
    lost = Counter(r["family"] for r in failed)
    print("per family (run, failed):", {family: (n, lost[family]) for family, n in sorted(done.items())})
    kinds: dict[str, list[str]] = defaultdict(list)
    for row in failed:
        kinds[failure_kind(row["error"])].append(row["id"])
    for kind, ids in sorted(kinds.items(), key=lambda item: -len(item[1])):
        print(f"- {len(ids)} x {kind}: {', '.join(ids)}")
    e_base = [r["e_base"] for r in rows if "e_base" in r]
    if e_base:
        points = np.percentile(e_base, [0, 50, 100])
        print(f"manufactured e_base ({len(e_base)}): min {points[0]:.2e}, median {points[1]:.2e}, max {points[2]:.2e}")
        print("e_base >= 0.05:", [r["id"] for r in rows if r.get("e_base", 0) >= 0.05])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retry-failed", action="store_true", help="run the records that failed again")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many new runs")
    parser.add_argument("--report", action="store_true", help="only print the state of the sweep")
    parser.add_argument("--coarse", action="store_true", help="a coarsened configuration (records_coarse/)")
    parser.add_argument("--batch", action="store_true", help="many records per DOLFINx process, no harness")
    args = parser.parse_args()
    suite_dir = imported_suite()
    records = ROOT / ("records_coarse" if args.coarse else "records")
    records.mkdir(parents=True, exist_ok=True)
    folders = round_robin(suite_dir)
    if args.batch and not args.report:
        pending = [
            folder
            for folder in folders
            if not (records / f"{folder.name}.json").is_file()
            or (args.retry_failed and json.loads((records / f"{folder.name}.json").read_text())["status"] != "ok")
        ]
        for folder in pending[: args.limit]:
            (records.with_name(records.name + "_raw") / f"{folder.name}.json").unlink(missing_ok=True)
        run_batch(suite_dir, pending[: args.limit], records, args.coarse)
    runs = 0
    for folder in folders if not (args.report or args.batch) else []:
        path = records / f"{folder.name}.json"
        if path.is_file() and not (args.retry_failed and json.loads(path.read_text())["status"] != "ok"):
            continue
        if args.limit is not None and runs >= args.limit:
            break
        row = run_record(suite_dir, folder, args.coarse)
        path.write_text(json.dumps(row, indent=1))
        runs += 1
        print(f"{row['id']}: {row['status']} {row['seconds']} s {row.get('error', '')[-200:]!r}", flush=True)
    report(records, len(folders))


if __name__ == "__main__":
    main()
