"""The convergence check (CFDCodeBench's M_conv): rerun a solution with a finer discretisation, require its error
to drop.

A suite asks for it with ``convergence`` in ``suite.yaml``. Only an attempt whose first run passes the run,
output and accuracy gates is rerun (the others fail earlier gates, so the check would not change their class).
The program is rewritten (:mod:`simcodebench.agents.rewrites`):

- ``rewrite: constants`` (our contract, ``cfd-code``): the top-level integer constants the case lists in
  ``spec.resolution`` (``NX``, ``NY``, ``NT``, ...) are multiplied by ``factor`` (2);
- ``rewrite: literals`` (the released code, ``cfd-code@legacy``): every ``nx=``, ``ny=``, ``nt=`` integer
  literal is multiplied by ``factor`` (4).

The refined program runs exactly as the first one did (same runtime and sandbox), with the case's wall-clock
limit times ``wall_factor``, and is scored against the same reference. It converges when it runs cleanly and its
error is below the first run's, or at most the suite's ``floor``, or both errors are at round-off level
(``ROUNDOFF``). The floor exists because the comparison has an error of its own: interpolating a sample that
is exact to 1e-9 onto the reference nodes from a refined, non-nested grid can raise the measured error to
1e-6, far inside the pass mark; below the floor the sign of the change says nothing about the solution. A
program with nothing to rewrite does not converge (the check cannot refine it). A case whose discrete problem
itself changes with the grid (point sources at grid nodes) names the reason in
``hidden.scoring.convergence_exempt`` and is not checked. A case whose error has a noise floor of its own
raises the floor with ``hidden.scoring.convergence_floor``: a chaotic flow scored by statistics
(``2D_Rayleigh_Benard_Convection``) differs from its reference ensemble by the spread of the ensemble at any
resolution, so its refined run converges when its statistics still pass (floor = the pass mark). A reference
accurate only to some error (its own refinement study) cannot tell whether refining helped a program already
closer to it than that, so that error is a floor too (``hidden.scoring.reference_floor``,
``2D_Shear_Flow_With_Tracer``), except under a suite variant that keeps the released rule
(``convergence.released``: ``cfd-code@legacy``).
The error compared is the suite plugin's :meth:`~simcodebench.core.plugin.SuitePlugin.convergence_error`: the
accuracy gate's, or the part of it that converges pointwise (a cavity's velocity, not its pressure, which is
singular at the lid corners).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

from simcodebench.agents.rewrites import scale_constants, scale_literals
from simcodebench.core.cases import Case
from simcodebench.core.io import read_json, write_json
from simcodebench.core.references import Reference, load_reference
from simcodebench.core.registry import plugin_of
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.gates import run_gate

ROUNDOFF = 1e-12


def refine_source(case: Case, source: str) -> tuple[str, dict[str, tuple[int, int]]]:
    """The program with its resolution multiplied as the suite's ``convergence`` says; ``{name: (old, new)}``."""
    settings = case.suite.data["convergence"]
    factor = int(settings["factor"])
    if settings["rewrite"] == "literals":
        return scale_literals(source, factor)
    return scale_constants(source, case.visible.spec.get("resolution", []), factor)


def converged(error: float, refined_error: float, floor: float = 0.0) -> bool:
    """Whether the refined error dropped, or is at most ``floor`` (or both are at round-off level)."""
    return refined_error < error or refined_error <= floor or max(error, refined_error) <= ROUNDOFF


def released_rule(case: Case) -> bool:
    """Whether the suite (variant) keeps the released convergence rule (``convergence.released``): the accuracy
    gate's whole error and no reference floor, as the released code compared them."""
    return bool(case.suite.data["convergence"].get("released", False))


def convergence_floor(case: Case) -> float:
    """The error below which a refined run converges whatever the change: the case's ``convergence_floor`` (a
    chaotic flow's spread) or else the suite's ``floor``, raised to the case's ``reference_floor`` (the
    reference's own accuracy, from its refinement study) unless the suite keeps the released rule."""
    scoring = case.hidden.scoring
    floor = float(scoring.get("convergence_floor", case.suite.data["convergence"].get("floor", 0.0)))
    if released_rule(case):
        return floor
    return max(floor, float(scoring.get("reference_floor", 0.0)))


def _skip(reason: str) -> dict[str, Any]:
    return {"status": "skipped", "converged": None, "message": reason, "metrics": {}}


def check_convergence(
    case: Case,
    manifest: dict[str, Any],
    solution_dir: Path,
    run: dict[str, Any],
    run_dir: Path,
    reference: Reference,
    calibration: dict[str, Any],
    work_dir: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Rerun the refined solution under ``work_dir`` (when its first run passed the accuracy gate) and return
    the convergence record."""
    exempt = case.hidden.scoring.get("convergence_exempt")
    if exempt:
        return {"status": "exempt", "converged": True, "message": f"convergence not checked: {exempt}", "metrics": {}}
    if manifest["status"] != "ok" or not run_gate(case, run, run_dir)[0]:
        return _skip("the first run failed: nothing to refine")
    plugin = plugin_of(case)
    first = plugin.measure(case, run_dir, reference)
    if first.outcome != "ok" or first.error is None or first.error > calibration["thresholds"]["accuracy"]:
        return _skip("the first run missed the accuracy gate: convergence not checked")
    first_error = plugin.convergence_error(case, first)
    entrypoint = case.suite.entrypoint
    refined_source, changed = refine_source(case, (solution_dir / entrypoint).read_text(encoding="utf-8"))
    if not changed:
        return {
            "status": "checked",
            "converged": False,
            "message": "no resolution integer to refine (the convergence rewrite found nothing)",
            "metrics": {"error_first": first_error},
        }
    if work_dir.exists():
        shutil.rmtree(work_dir)
    refined_dir = work_dir / "solution"
    shutil.copytree(solution_dir, refined_dir)
    (refined_dir / entrypoint).write_text(refined_source, encoding="utf-8")
    limits = {
        **case.resources,
        "wall_s": float(case.resources["wall_s"]) * float(case.suite.data["convergence"].get("wall_factor", 1.0)),
    }
    refined_case = dataclasses.replace(case, resources=limits)
    result = execute_solution(refined_case, refined_dir, work_dir / "run", runtime, mpi, images).to_dict()
    record: dict[str, Any] = {
        "status": "checked",
        "refined": {name: list(values) for name, values in changed.items()},
        "run": {k: v for k, v in result.items() if k in ("status", "rc", "wall_s", "message")},
        "metrics": {"error_first": first_error},
    }
    ok, _, detail = run_gate(case, result, work_dir / "run")
    if not ok:
        return {**record, "converged": False, "message": f"the refined run failed: {detail}"}
    refined = plugin.measure(case, work_dir / "run", reference)
    if refined.outcome != "ok" or refined.error is None:
        return {**record, "converged": False, "message": f"the refined run's outputs: {refined.message}"}
    refined_error = plugin.convergence_error(case, refined)
    record["metrics"]["error_refined"] = refined_error
    floor = convergence_floor(case)
    verdict = converged(first_error, refined_error, floor)
    if refined_error < first_error:
        words = "dropped"
    else:
        words = f"stayed below the floor {floor:g}" if verdict else "did not drop"
    message = f"error {words} on refinement ({first_error:.3e} -> {refined_error:.3e})"
    return {**record, "converged": verdict, "message": message}


def make_convergence(
    case: Case,
    manifest_path: Path,
    run_path: Path,
    ref_json: Path,
    ref_h5: Path,
    calibration_path: Path,
    out: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> None:
    """Step of rule ``converge``: write ``converge/converge.json`` (the refined run stays beside it)."""
    concrete = resolve_runtime(runtime, case.suite.environment, images)
    record = check_convergence(
        case,
        read_json(manifest_path),
        manifest_path.parent,
        read_json(run_path),
        run_path.parent,
        load_reference(ref_json, ref_h5),
        read_json(calibration_path),
        out.parent,
        concrete,
        mpi,
        images,
    )
    write_json(out, record)
