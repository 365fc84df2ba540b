"""Runner of the fem suite (PDEAgent-Bench App. J), copied next to the submission and started in the sandbox.

It reads ``case_spec.json`` (the agent-visible case spec), imports ``solver.py``, calls ``solve(case_spec)`` and
checks the result is ``{"u": array, "solver_info": dict}``; rank 0 then writes ``solution.npz`` (``u`` as
returned, plus the grid axes ``x``, ``y`` and ``z``) and ``meta.json`` (``wall_time_sec`` from the runner's
start, ``solve_time_sec`` around ``solve(case_spec)`` alone, ``status``, ``solver_info``). Any exception, or a
result that breaks the contract, ends the run with a non-zero status.
It runs under the solver environment's interpreter and uses nothing but numpy and the standard library.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

START = time.perf_counter()

try:  # the DOLFINx wheel needs mpi4py's MPI loaded before any other binding
    from mpi4py import MPI

    RANK = MPI.COMM_WORLD.rank
except ImportError:
    RANK = 0


def fail(message):
    """Stop the run with a contract violation."""
    print(f"contract violation: {message}", file=sys.stderr)
    sys.exit(3)


def grid_axes(eval_grid):
    """The evaluation grid's axes, by name."""
    box = eval_grid["bbox"]
    names = [n for n in ("x", "y", "z") if f"n{n}" in eval_grid]
    return {n: np.linspace(box[2 * i], box[2 * i + 1], int(eval_grid[f"n{n}"])) for i, n in enumerate(names)}


def main():
    case_spec = json.loads(Path("case_spec.json").read_text(encoding="utf-8"))
    sys.path.insert(0, str(Path.cwd()))
    import solver

    if not callable(getattr(solver, "solve", None)):
        fail("solver.py defines no function solve(case_spec)")
    solve_start = time.perf_counter()
    result = solver.solve(case_spec)
    solve_time = time.perf_counter() - solve_start
    if not isinstance(result, dict) or "u" not in result:
        fail('solve(case_spec) must return a dict with the keys "u" and "solver_info"')
    if not isinstance(result.get("solver_info"), dict):
        fail('the result\'s "solver_info" must be a dict')
    try:
        u = np.asarray(result["u"], dtype=float)
    except (TypeError, ValueError) as exc:
        fail(f'the result\'s "u" is not a numeric array ({exc})')
    if RANK == 0:
        np.savez("solution.npz", u=u, **grid_axes(case_spec["eval_grid"]))
        meta = {
            "wall_time_sec": time.perf_counter() - START,
            "solve_time_sec": solve_time,
            "status": "ok",
            "solver_info": result["solver_info"],
        }
        Path("meta.json").write_text(json.dumps(meta, indent=2, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
