"""Runs the fem oracle on many case specs in one DOLFINx process (started by ``fem_import_oracle_sweep.py
--batch``): the interpreter start and the imports are paid once, not per record.

Usage (in the dolfinx environment): python fem_oracle_batch_worker.py ORACLE JOBS OUT_DIR
JOBS is a JSON list of ``{"id", "spec", "config"}``; each result goes to ``OUT_DIR/<id>.json`` (status, seconds,
the traceback's last lines); ``OUT_DIR/current`` names the record in progress, so that a driver can tell which
record a crash of the whole process (a segfault, an MPI abort) belongs to.
"""

import json
import sys
import time
import traceback
from pathlib import Path

import numpy as np
from mpi4py import MPI  # noqa: F401  (first: it loads the MPI library that the DOLFINx wheel links against)


def main(oracle: str, jobs: str, out_dir: str) -> None:
    namespace = {"__name__": "oracle"}
    exec(compile(Path(oracle).read_text(), oracle, "exec"), namespace)
    out = Path(out_dir)
    for job in json.loads(Path(jobs).read_text()):
        target = out / f"{job['id']}.json"
        if target.is_file():
            continue
        (out / "current").write_text(job["id"])
        namespace["ORACLE_CONFIG"].clear()
        namespace["ORACLE_CONFIG"].update(job["config"])
        row = {"id": job["id"]}
        start = time.perf_counter()
        try:
            u = namespace["solve"](job["spec"])["u"]
            row["status"] = "ok"
            row["nan_fraction"] = float(np.isnan(u).mean())
        except Exception:  # every failure is recorded, the batch goes on
            row.update(status="error", error=traceback.format_exc()[-1500:])
        row["seconds"] = round(time.perf_counter() - start, 2)
        target.write_text(json.dumps(row))


if __name__ == "__main__":
    main(*sys.argv[1:4])
