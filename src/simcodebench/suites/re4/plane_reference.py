"""References of Re^4's 2-D PDE cases: DOLFINx solves at three discretisation levels, the finest kept.

``hidden.reference.params`` holds the problem (``problem``, its data, ``box`` and ``disks``), the evaluation
grid (``grid: [nx, ny]``: a uniform grid on the box, masked to the domain) and ``levels``, coarse to fine, each
``{h, degree}`` (plus ``dt`` for the transient case). :mod:`.dolfinx_reference` runs in the ``dolfinx``
environment, once for all levels. The reference is the finest level at the grid points that lie in the domain
(points that no cell of the finest mesh holds, a handful on curved boundaries, are dropped and counted). The
refinement study is kept in the scalars: for each field the gaps ``g01 = ||f_0 - f_1|| / ||f_1||`` and
``g12 = ||f_1 - f_2|| / ||f_2||`` over the evaluation points; the reference is refused unless the primary field
converges (``g12 < g01``).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.references import Reference
from simcodebench.execution.harness_runs import python_request, run_harness_program
from simcodebench.suites.re4 import plane

SOLVER = Path(__file__).with_name("dolfinx_reference.py")
FLOW_FIELDS = ("u", "v", "p")
WALL_S = 3600.0
"""The solve's wall limit: all levels of the finest 2-D case take minutes on one core."""
MEM_MB = 8192


def field_names(problem: str) -> tuple[str, ...]:
    """The fields the solver reports for ``problem``."""
    return FLOW_FIELDS if problem in ("lid_driven", "unsteady_ns") else ("u",)


def run_levels(problem: str, params: dict, levels: list[dict], points: np.ndarray) -> tuple[dict, list[dict]]:
    """Run :data:`SOLVER` in the ``dolfinx`` environment (the run's image, or the one provisioned here); the
    fields ``<name>_<level>`` at ``points`` and each level's solver details."""
    with tempfile.TemporaryDirectory(prefix=f"re4-{problem}-") as tmp:
        work = Path(tmp)
        np.save(work / "points.npy", points)
        job = {"problem": problem, "params": params, "levels": levels, "points": "points.npy"}
        (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
        shutil.copy2(SOLVER, work / SOLVER.name)
        request = python_request("dolfinx", [SOLVER.name, "job.json", "out.npz"], work, WALL_S, MEM_MB)
        done = run_harness_program("dolfinx", request)
        if done.status != "ok":
            stderr = (work / "stderr.txt").read_text(errors="replace")[-3000:]
            raise InfrastructureError(f"re4 {problem}: the DOLFINx reference solve ended {done.status}: {stderr}")
        with np.load(work / "out.npz") as data:
            results = {name: data[name] for name in data.files if name != "info"}
            details = json.loads(str(data["info"]))
    return results, details


def gap(coarse: np.ndarray, fine: np.ndarray) -> float:
    """``||coarse - fine|| / ||fine||`` over the points."""
    return float(np.linalg.norm(coarse - fine) / np.linalg.norm(fine))


def plane_reference(case: Case) -> Reference:
    """The case's reference (module docstring)."""
    params = dict(case.hidden.reference["params"])
    problem, levels = params["problem"], params["levels"]
    domain = plane.Domain.from_params(params)
    points = domain.grid(*(int(n) for n in params["grid"]))
    data = {k: v for k, v in params.items() if k not in ("problem", "levels", "grid")}
    results, details = run_levels(problem, data, levels, points)
    names = field_names(problem)
    last = len(levels) - 1
    found = np.all([np.isfinite(results[f"{name}_{last}"]) for name in names], axis=0)
    fields = {name: results[f"{name}_{last}"][found] for name in names}
    if problem == "lid_driven":
        for index in range(len(levels)):
            results[f"speed_{index}"] = plane.speed(results[f"u_{index}"], results[f"v_{index}"])
        fields["speed"] = plane.speed(fields["u"], fields["v"])
    usable = found & np.all([np.isfinite(results[f"{name}_{i}"]) for name in names for i in range(last)], axis=0)
    gaps = {
        name: {
            f"g{i}{i + 1}": gap(results[f"{name}_{i}"][usable], results[f"{name}_{i + 1}"][usable]) for i in range(last)
        }
        for name in fields
    }
    primary = case.hidden.scoring["primary"]
    if last >= 2 and not gaps[primary]["g12"] < gaps[primary]["g01"]:
        raise InfrastructureError(f"{case.key}: the refinement does not converge: {gaps[primary]}")
    return Reference(
        fields={"x": points[found, 0], "y": points[found, 1], **fields},
        scalars={"refinement": gaps, "points": int(found.sum()), "dropped_points": int((~found).sum())},
        meta={
            "method": "DOLFINx (dolfinx_reference.py) at the finest of the levels; gaps between levels in scalars",
            "levels": details,
            "params": params,
            "solver_seconds": round(sum(level["seconds"] for level in details), 2),
        },
    )
