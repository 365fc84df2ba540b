"""Runs upstream's DOLFINx oracle and ours on one imported PDEAgent-Bench record, in process, in one DOLFINx
process (started by ``fem_upstream_oracle.py``); no upstream code lives here: it is imported from the scratch
copy named on the command line.

Upstream's oracle runs once in this process, after the imports, as ``scripts/run_benchmark.py`` runs it (its
result is cached there, never run again); ours twice: ``cold`` (the compiled-form cache of the process's
``XDG_CACHE_HOME`` does not yet hold this record's forms, as for a first run) and ``warm`` (the same solve again).
Upstream's own ``baseline_time`` (its ``perf_counter`` around mesh, spaces, solve(s) and grid sampling, its
reference solve included for a no-exact record) and ``baseline_error`` are kept as upstream returns them; ours is
timed around ``solve(case_spec)``. Our field of the warm run goes to ``OUT_DIR/<id>.npy`` (the driver scores it).

Usage (in the dolfinx environment): python fem_upstream_oracle_worker.py SCRATCH ORACLE JOB OUT_DIR
SCRATCH: the folder holding upstream's ``pdebench`` package (adapted to DOLFINx 0.11) and, in ``SCRATCH/deps``,
the packages it needs that our environment lacks (pygmsh, meshio); ORACLE: our
``oracle_dolfinx.py``; JOB: a JSON file ``{"id", "upstream": oracle_config, "spec": case_spec, "config"}``.
"""

import json
import sys
import time
import traceback
from pathlib import Path

import numpy as np
from mpi4py import MPI  # noqa: F401  (first: it loads the MPI library that the DOLFINx wheel links against)


def timed(call) -> tuple[object, float]:
    """``call()``'s result and its wall seconds."""
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def upstream_runs(scratch: str, oracle_config: dict) -> dict:
    """Upstream's oracle once: its baseline_error, its baseline_time and our wall time around the call."""
    sys.path[:0] = [scratch, str(Path(scratch) / "deps")]  # deps: what upstream needs beyond our environment
    from pdebench.oracle import OracleSolver

    result, wall = timed(lambda: OracleSolver().solve(oracle_config, solver_library="dolfinx"))
    return {
        "baseline_error": float(result.baseline_error),
        "baseline_time": float(result.baseline_time),
        "wall": wall,
        "num_dofs": int(result.num_dofs),
    }


def our_runs(oracle: str, spec: dict, config: dict, field_path: Path) -> dict:
    """Our oracle twice (cold, warm) at ``config``; the warm run's field is saved to ``field_path``."""
    namespace = {"__name__": "oracle"}
    exec(compile(Path(oracle).read_text(), oracle, "exec"), namespace)
    namespace["ORACLE_CONFIG"].clear()
    namespace["ORACLE_CONFIG"].update(config)
    row: dict = {}
    for run in ("cold", "warm"):
        result, wall = timed(lambda: namespace["solve"](spec))
        row[run] = {"wall": wall}
    np.save(field_path, np.asarray(result["u"], dtype=float))
    row["solver_info"] = {
        key: value for key, value in result["solver_info"].items() if isinstance(value, (int, float, str))
    }
    return row


def main(scratch: str, oracle: str, job_file: str, out_dir: str) -> None:
    job = json.loads(Path(job_file).read_text())
    out = Path(out_dir)
    row: dict = {"id": job["id"]}
    for side, call in (
        ("upstream", lambda: upstream_runs(scratch, job["upstream"])),
        ("ours", lambda: our_runs(oracle, job["spec"], job["config"], out / f"{job['id']}.npy")),
    ):
        try:
            row[side] = call()
        except Exception:  # each side's failure is recorded, the other side still runs
            row[side] = {"error": traceback.format_exc()[-1500:]}
    (out / f"{job['id']}.json").write_text(json.dumps(row, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:5])
