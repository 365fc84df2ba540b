"""Per-sample overhead of a DOLFINx run: interpreter start, imports and JIT against the solve itself.

For each case the oracle is run exactly as an agent's submission is (the suite's runner next to ``solver.py``
and ``case_spec.json``, the dolfinx environment's interpreter, one thread), REPEATS times each of:

- ``python -c pass``: interpreter start;
- ``python -c "import mpi4py.MPI, dolfinx, dolfinx.fem.petsc, ufl, basix, gmsh"``: start plus imports;
- the oracle with an empty JIT cache (``XDG_CACHE_HOME`` fresh, as every agent run has): the whole run;
- the oracle again with the cache the previous run left: the whole run without form compilation.

From the medians: imports = imports run - start; JIT = cold - warm; solve = warm - imports run (mesh, assembly,
linear solves, sampling on the grid, writing the outputs). No sandbox (bubblewrap adds ~10 ms, see
``sandbox_startup.py``). Run it on an otherwise idle machine.

Usage: python benchmarks/dolfinx_overhead.py [REPEATS] [CASE...]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, machine

from simcodebench.core.cases import get_case
from simcodebench.execution.environments import get_environment
from simcodebench.suites.fem.harness import oracle_source, prepare_run

CASES = ["poisson_square_kappa", "heat_square", "elasticity_square", "stokes_square", "helmholtz_circle"]
IMPORTS = "import mpi4py.MPI, dolfinx, dolfinx.fem.petsc, ufl, basix, gmsh"
THREADS = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall seconds of ``command``; raise with its stderr when it fails."""
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed in {cwd}:\n{result.stderr[-2000:]}")
    return elapsed


def measure(case_id: str, python: Path, repeats: int) -> dict[str, float]:
    """Median seconds of start, imports, cold run and warm run of ``case_id``'s oracle."""
    case = get_case("fem", case_id, REPO / "cases")
    times: dict[str, list[float]] = {"start": [], "imports": [], "cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp)
        prepare_run(case, run_dir)
        (run_dir / "solver.py").write_text(oracle_source(case), encoding="utf-8")
        env = {"PATH": f"{python.parent}:{os.environ['PATH']}", "HOME": tmp, **THREADS}
        env["XDG_CACHE_HOME"] = str(run_dir / ".cache")
        run = [str(python), case.suite.entrypoint]
        for _ in range(repeats):
            times["start"].append(timed([str(python), "-c", "pass"], run_dir, env))
            times["imports"].append(timed([str(python), "-c", IMPORTS], run_dir, env))
            shutil.rmtree(run_dir / ".cache", ignore_errors=True)
            times["cold"].append(timed(run, run_dir, env))
            times["warm"].append(timed(run, run_dir, env))
    return {name: statistics.median(values) for name, values in times.items()}


def main(repeats: int = 3, cases: list[str] | None = None) -> None:
    python = get_environment("dolfinx").python
    print(f"machine: {machine()}; {repeats} repeats, medians; one thread, no sandbox")
    print("\n| case | total (cold cache) | interpreter start | imports | JIT | solve | overhead share |")
    print("|---|---|---|---|---|---|---|")
    for case_id in cases or CASES:
        m = measure(case_id, python, repeats)
        imports, jit, solve = m["imports"] - m["start"], m["cold"] - m["warm"], m["warm"] - m["imports"]
        share = (m["cold"] - solve) / m["cold"]
        print(
            f"| {case_id} | {m['cold']:.2f} s | {m['start']:.2f} s | {imports:.2f} s | {jit:.2f} s | "
            f"{solve:.2f} s | {100 * share:.0f} % |"
        )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(int(arguments[0]) if arguments else 3, arguments[1:] or None)
