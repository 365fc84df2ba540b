"""Is the non-monotone refinement of two imported Stokes records a property of the record, or of our levels?

The paper's filter drops ``stokes_exp_gear_ten_teeth_source`` and ``stokes_exp_lshape_sinusoidal_source``
(g12 >= g01). Our levels mix two changes: L0 is the record's P2-P1 mesh, L1 and L2 are P3-P2 on finer meshes.
This script runs the oracle (through :func:`run_oracle`, as the reference job does) on a pure h-sequence at
L0's degree (L0's, L1's and L2's resolutions, all P2-P1) and a pure p-step (L0's mesh at P3-P2), and prints the
gaps on the scored grid points, so the two changes can be told apart; then our levels L1 and L2 themselves, with
the filter's gaps g01, g12 and e_base.

Usage: nice -n 10 python benchmarks/fem_stokes_refinement.py  (needs fem_import_oracle_sweep_work's import)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from _common import machine

from simcodebench.core.cases import load_case, load_suite
from simcodebench.suites.fem import grid
from simcodebench.suites.fem.oracle_runs import run_oracle
from simcodebench.suites.fem.reference import refinement_gaps

SUITE_DIR = Path("fem_import_oracle_sweep_work/cases/pdeagent-bench").resolve()
RECORDS = ("stokes_exp_lshape_sinusoidal_source", "stokes_exp_gear_ten_teeth_source")


def main(records: tuple[str, ...] = RECORDS) -> None:
    print(f"machine: {machine()}")
    results = {}
    for record in records:
        case = load_case(load_suite(SUITE_DIR), SUITE_DIR / record)
        params = case.hidden.reference["params"]
        mask = grid.domain_mask(case.visible.spec["case_spec"])
        base = params["oracle"]
        resolutions = [base["resolution"], params["intermediate"]["resolution"], params["reference"]["resolution"]]
        configs = {f"P2 n={n}": {**base, "resolution": n} for n in resolutions}
        configs[f"P3 n={base['resolution']}"] = {**base, "degree": 3, "degree_p": 2}
        configs["L1"], configs["L2"] = params["intermediate"], params["reference"]
        fields = {}
        for name, config in configs.items():
            start = time.perf_counter()
            fields[name] = np.where(mask, run_oracle(case, config), np.nan)
            print(f"{record} {name}: {time.perf_counter() - start:.0f} s", flush=True)
        names = list(fields)
        gaps = {
            "h: P2 L0 -> L1 resolution": grid.relative_l2(fields[names[0]], fields[names[1]]),
            "h: P2 L1 -> L2 resolution": grid.relative_l2(fields[names[1]], fields[names[2]]),
            "p: L0 mesh P2 -> P3": grid.relative_l2(fields[names[0]], fields[names[3]]),
            **refinement_gaps([fields[names[0]], fields["L1"], fields["L2"]], mask),
        }
        results[record] = gaps
        print(record, json.dumps({k: f"{v:.3e}" for k, v in gaps.items()}), flush=True)
    Path("fem_stokes_refinement.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or RECORDS)
