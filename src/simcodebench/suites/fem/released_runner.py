"""Runner of the fem suites' ``@released`` variant: PDEAgent-Bench's released contract, started in the sandbox.

As the released harness does, it reads ``case_spec.json`` (the released layout: the grid under
``output.grid``), imports ``solver.py``, calls ``solve(case_spec)`` (or ``solve_case``), takes the field from the
result's ``u`` (or ``u_grid``), requires a non-empty ``solver_info`` holding ``mesh_resolution``,
``element_degree``, ``ksp_type``, ``pc_type`` and ``rtol``, reshapes a flat array of the grid's size and rejects
any other shape. Rank 0 then writes ``solution.npz`` (``u`` and the grid axes) and ``meta.json``
(``wall_time_sec`` from the runner's start, ``solve_time_sec`` around the solver call alone, as the released
harness times its oracle, ``status``, ``solver_info``), the files the fem scorer reads. A contract violation ends the
run with status 3 and one line naming the file, the field and the fix. Only numpy and the standard library.
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

REQUIRED_INFO = ("mesh_resolution", "element_degree", "ksp_type", "pc_type", "rtol")
"""The ``solver_info`` keys the released harness requires."""


def fail(field, problem, fix):
    """Stop the run with one line naming the file, the field and the fix."""
    print(f"contract violation: solver.py: {field} {problem}; fix: {fix}", file=sys.stderr)
    sys.exit(3)


def grid_shape(grid):
    """The output grid's shape, ``(nz, ny, nx)`` in 3D, else ``(ny, nx)``."""
    if grid.get("nz") is not None and len(grid["bbox"]) == 6:
        return int(grid["nz"]), int(grid["ny"]), int(grid["nx"])
    return int(grid["ny"]), int(grid["nx"])


def grid_axes(grid):
    """The grid's axes by name, endpoints included."""
    box, names = grid["bbox"], ("x", "y", "z")[: len(grid_shape(grid))]
    return {n: np.linspace(box[2 * i], box[2 * i + 1], int(grid[f"n{n}"])) for i, n in enumerate(names)}


def solver_function(module):
    """``solve``, else ``solve_case``, as the released harness looks them up."""
    for name in ("solve", "solve_case"):
        if callable(getattr(module, name, None)):
            return getattr(module, name)
    return fail("solve", "is not defined", "define solve(case_spec) returning {'u': array, 'solver_info': dict}")


def field_of(result, shape):
    """The result's field as a float array of ``shape`` (a flat array of that size is reshaped)."""
    raw = result.get("u")
    if raw is None:
        raw = result.get("u_grid")
    if raw is None:
        fail('solve(case_spec)["u"]', "is missing", 'return the field on output.grid under "u"')
    try:
        u = np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as exc:
        fail('solve(case_spec)["u"]', f"is not a numeric array ({exc})", "return a numpy array of floats")
    if u.ndim == 1 and u.size == int(np.prod(shape)):
        u = u.reshape(shape)
    if u.shape != shape:
        fail('solve(case_spec)["u"]', f"has shape {u.shape}, the grid {shape}", "sample on output.grid's nx, ny, nz")
    return u


def checked_info(result):
    """The result's ``solver_info``, checked to be a non-empty dict with the required keys."""
    info = result.get("solver_info")
    if not isinstance(info, dict) or not info:
        fail('solve(case_spec)["solver_info"]', "is missing or empty", "return a dict with " + ", ".join(REQUIRED_INFO))
    for key in REQUIRED_INFO:
        if key not in info:
            fail(f'solve(case_spec)["solver_info"]["{key}"]', "is missing", f'add "{key}" to solver_info')
    return info


def main():
    case_spec = json.loads(Path("case_spec.json").read_text(encoding="utf-8"))
    grid = case_spec["output"]["grid"]
    sys.path.insert(0, str(Path.cwd()))
    import solver

    solve = solver_function(solver)
    solve_start = time.perf_counter()
    result = solve(case_spec)
    solve_time = time.perf_counter() - solve_start
    if not isinstance(result, dict):
        fail("solve(case_spec)", f"returned {type(result).__name__}", 'return a dict with "u" and "solver_info"')
    u = field_of(result, grid_shape(grid))
    info = checked_info(result)
    if RANK == 0:
        np.savez("solution.npz", u=u, **grid_axes(grid))
        meta = {
            "wall_time_sec": time.perf_counter() - START,
            "solve_time_sec": solve_time,
            "status": "ok",
            "solver_info": info,
        }
        Path("meta.json").write_text(json.dumps(meta, indent=2, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
