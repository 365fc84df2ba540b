"""foam: each of our cases' oracle run as a sample (``auto`` runtime, its own resources), per family the slowest
wall time per cell and time step and the largest peak memory, written to ``cases/foam/family_runs.yaml``: what
``simcodebench import foambench`` derives an imported case's limits from (``suites/foam/limits.py``).

One case at a time. Usage: nice -n 19 python benchmarks/foam_family_runs.py
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path

import yaml
from _common import machine

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.agents.multifile import read_tree
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.io import atomic_write_text
from simcodebench.core.project import cases_root
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution
from simcodebench.suites.foam import case_size
from simcodebench.suites.foam.limits import FAMILY_RUNS

HEADER = """\
# Measured by benchmarks/foam_family_runs.py (each oracle case run once as a sample, one at a time): per family
# of cases/foam, the slowest wall time per cell and time step (seconds_per_cell_step, of the case in `case`),
# the largest peak memory (peak_rss_mb) and the solver. simcodebench import foambench derives an imported case's
# limits from them (src/simcodebench/suites/foam/limits.py; the rule in README.md, "Upstream FoamBench data").
"""


def main() -> None:
    rows: dict[str, list[dict]] = defaultdict(list)
    print("| case | cells | steps | wall (s) | s per cell-step | peak RSS (MB) |\n|---|---|---|---|---|---|")
    for case in load_suite_cases(cases_root() / "foam"):
        runtime = resolve_runtime("auto", case.suite.environment)
        files = read_tree(case.folder / case.hidden.oracle)
        cells, steps = case_size.block_cells(files), case_size.time_steps(files)
        with tempfile.TemporaryDirectory() as tmp:
            write_solution(extract_files(case, oracle_reply(case)), Path(tmp) / "solution")
            run = execute_solution(case, Path(tmp) / "solution", Path(tmp) / "run", runtime)
        if run.status != "ok" or cells is None or steps is None:
            raise SystemExit(f"{case.key}: {run.status} {run.message}, cells {cells}, steps {steps}")
        rate = run.wall_s / (cells * steps)
        rows[case.visible.spec["family"]].append(
            {"case": case.id, "cells": cells, "steps": steps, "wall_s": run.wall_s, "rate": rate}
            | {"peak": run.peak_rss_mb, "solver": case_size.application(files)}
        )
        print(f"| {case.id} | {cells} | {steps:g} | {run.wall_s:.2f} | {rate:.2e} | {run.peak_rss_mb:.0f} |")
    families = {}
    for family, runs in sorted(rows.items()):
        slowest = max(runs, key=lambda r: r["rate"])
        families[family] = {
            "solver": slowest["solver"],
            "cases": len(runs),
            "case": slowest["case"],
            "cells": slowest["cells"],
            "steps": slowest["steps"],
            "wall_s": round(slowest["wall_s"], 2),
            "seconds_per_cell_step": float(f"{slowest['rate']:.3g}"),
            "peak_rss_mb": round(max(r["peak"] for r in runs)),
        }
    document = {"measured": machine(), "families": families}
    path = cases_root() / "foam" / FAMILY_RUNS
    atomic_write_text(path, HEADER + yaml.safe_dump(document, sort_keys=False, width=120))
    print(f"\nwritten: {path}")


if __name__ == "__main__":
    main()
