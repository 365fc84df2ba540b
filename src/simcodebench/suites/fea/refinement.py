"""Reference generator ``fea_refinement``: the case's ``reference.py`` run at each refinement level.

``hidden.reference.params``: ``levels`` (at least two, coarse to fine, e.g. ``[0, 1, 2]``), optionally
``closed_form`` (the exact target, in the target's units) and ``wall_s`` (the limit of one level's run, default
900 s). Each level runs as ``python reference.py --level N`` in a fresh directory, in the suite's environment,
with one thread and the suite's memory floor (:data:`REFERENCE_MEM_MB`), and must write ``result.json``. The
record keeps every level's value and wall time and the refinement spread ``|v_L - v_{L-1}| / |v_L|`` of each
step; the target is the finest value, or the closed form once it agrees with the finest value within
:func:`closed_form_tolerance` (else the case is rejected: the model or the formula is wrong).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.references import Reference
from simcodebench.execution.harness_runs import python_request, run_harness_program
from simcodebench.suites.fea.units import UnitsError, convert
from simcodebench.suites.fea.validity import Invalid, read_result

REFERENCE_MEM_MB = 4096
DEFAULT_WALL_S = 900.0


class ReferenceRejected(Exception):
    """The refinement study does not support a target (too few levels, a closed form that disagrees)."""


def target_units(case: Case) -> str:
    """The units the case's target is stated in (``visible.spec.target.units``)."""
    return str(case.visible.spec["target"]["units"])


def run_level(case: Case, level: int, wall_s: float = DEFAULT_WALL_S) -> tuple[float, float]:
    """(value in the target's units, wall seconds) of ``reference.py --level level``."""
    work = Path(tempfile.mkdtemp(prefix=f"fea-{case.id}-L{level}-"))
    try:
        shutil.copy2(case.folder / case.hidden.oracle, work / "reference.py")
        memory = max(int(case.resources["mem_mb"]), REFERENCE_MEM_MB)
        request = python_request(case.suite.environment, ["reference.py", "--level", str(level)], work, wall_s, memory)
        result = run_harness_program(case.suite.environment, request)
        if result.status != "ok":
            stderr = (work / "stderr.txt").read_text(errors="replace")[-3000:] if (work / "stderr.txt").exists() else ""
            raise InfrastructureError(f"{case.key}: reference.py --level {level} ended {result.status}: {stderr}")
        try:
            reported = read_result(work / "result.json", target_units(case))
        except Invalid as exc:
            raise InfrastructureError(f"{case.key}: reference.py --level {level}: {exc}") from exc
        return reported.converted, result.wall_s
    finally:
        shutil.rmtree(work, ignore_errors=True)


def spreads(values: list[float]) -> list[float]:
    """``|v_L - v_{L-1}| / |v_L|`` for each level after the first."""
    return [
        abs(fine - coarse) / abs(fine) if fine else float("inf")
        for coarse, fine in zip(values, values[1:], strict=False)
    ]


def closed_form_tolerance(case: Case, spread: float) -> float:
    """How far the finest solve may sit from the closed form: the case's accuracy threshold built from the
    finest spread (``max(alpha * spread, minimum)``, the suite's policy)."""
    policy = case.threshold_policy()["accuracy"]
    if policy["policy"] == "fixed":
        return float(policy["value"])
    return max(float(policy["alpha"]) * spread, float(policy.get("minimum", 0.0)))


def summarise(case: Case, levels: list[int], values: list[float], walls: list[float]) -> Reference:
    """The reference record of a finished refinement study (see the module docstring)."""
    if len(values) < 2:
        raise ReferenceRejected(f"{case.key}: fea_refinement needs at least two levels, got {levels}")
    gaps = spreads(values)
    finest, spread = values[-1], gaps[-1]
    params = case.hidden.reference.get("params", {})
    scalars: dict[str, Any] = {"target": finest, "finest": finest, "spread": spread}
    method = f"reference.py at levels {levels}; the target is the finest level"
    if params.get("closed_form") is not None:
        exact = float(params["closed_form"])
        gap = abs(finest - exact) / abs(exact)
        tolerance = closed_form_tolerance(case, spread)
        if gap > tolerance:
            raise ReferenceRejected(
                f"{case.key}: the closed form {exact:g} and the finest solve {finest:g} differ by {gap:.3g} "
                f"(relative), more than {tolerance:.3g}: fix reference.py or closed_form"
            )
        scalars.update(target=exact, closed_form=exact, closed_form_gap=gap)
        method = f"closed form, checked against reference.py at levels {levels} (gap {gap:.3g})"
    return Reference(
        scalars=scalars,
        meta={
            "method": method,
            "units": target_units(case),
            "levels": [{"level": lv, "value": v, "wall_s": w} for lv, v, w in zip(levels, values, walls, strict=True)],
            "spreads": gaps,
        },
    )


def refinement_reference(case: Case) -> Reference:
    """Run every level of ``reference.py`` and summarise the study."""
    params = case.hidden.reference.get("params", {})
    levels = [int(level) for level in params.get("levels", [0, 1, 2])]
    wall_s = float(params.get("wall_s", DEFAULT_WALL_S))
    try:
        target_units(case)
    except (KeyError, TypeError) as exc:
        raise ReferenceRejected(f"{case.key}: visible.spec.target.units is missing") from exc
    results = [run_level(case, level, wall_s) for level in levels]
    return summarise(case, levels, [v for v, _ in results], [w for _, w in results])


def published_reference(case: Case) -> Reference:
    """Generator ``published``: the upstream target (``params.value`` in ``params.units``), for imported cases
    that have no open-solver model; converted to the target's units."""
    params = case.hidden.reference.get("params", {})
    try:
        value = convert(float(params["value"]), str(params["units"]), target_units(case))
    except (KeyError, UnitsError) as exc:
        raise ReferenceRejected(f"{case.key}: hidden.reference.params needs a value and readable units") from exc
    return Reference(scalars={"target": value}, meta={"method": "the published target", "units": target_units(case)})


GENERATORS = {"fea_refinement": refinement_reference, "published": published_reference}
