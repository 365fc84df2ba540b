"""Fresh instances of the fea problems whose reference can be checked independently (docs/fresh-variants.md).

The families (:mod:`.fresh_families`) are published cases whose target either follows from their data by a
formula (the torsion of a circular shaft, the bar with a radiating end, the coaxial line, the Timoshenko beam,
the Bragg mirror) or is computed by an independent solver: a DOLFINx twin (:mod:`.twins`, the plate with
convective edges) or the case's own second solution (``hidden.alternative``: series, closed forms, transfer
matrices, other elements on other meshes). A draw picks new dimensions, materials and loads within the family's
ranges (three significant digits, so the prompt reads like the published one), writes them into every place the
published problem, plan and target state them, and into the constants of the case's ``reference.py`` and of the
independent solver (``twin.py`` in the case folder); the closed form of the new data becomes
``hidden.reference.params.closed_form``. The verification runs the scikit-fem ``reference.py`` at its
refinement levels (the suite's reference generator) and keeps the draw only where its finest value agrees with
the closed form, or with the twin, within the suite's tolerance ``max(alpha * spread, minimum)``: two
computations written apart agreeing on data neither was written for.
"""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw, family_of
from simcodebench.core.io import read_yaml
from simcodebench.suites.fea.fresh_families import (
    ALTERNATIVE,
    FAMILIES,
    FIXED_IN_SOURCE,
    Family,
    Parameter,
    number,
)

TWIN = "twin.py"
"""The independent solver's file in a fresh case's folder (never shown to the agent: not a visible input)."""
TWIN_LEVEL = 2
"""The twin's refinement level in the verification (a second solution without levels ignores it, or is run
without ``--level`` where its family says so: ``Family.twin_levels``)."""


def _draw(parameter: Parameter, rng: np.random.Generator) -> float:
    while True:
        value = float(number(float(rng.uniform(parameter.low, parameter.high))))
        if value != parameter.published and parameter.low <= value <= parameter.high:
            return value


def _substitute(value: Any, phrases: list[tuple[str, str]], used: set[str]) -> Any:
    """Every string inside ``value`` with each published phrase replaced by the drawn one."""
    if isinstance(value, dict):
        return {k: _substitute(v, phrases, used) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, phrases, used) for v in value]
    if not isinstance(value, str):
        return value
    # Longest phrases first, through placeholders, so a new value is never rewritten by a later phrase.
    marks = {}
    for i, (old, new) in enumerate(sorted(phrases, key=lambda pair: -len(pair[0]))):
        pattern = re.compile(r"\s+".join(map(re.escape, old.split())))
        value, n = pattern.subn(f"\x00{i}\x00", value)
        if n:
            used.add(old)
        marks[f"\x00{i}\x00"] = new
    for mark, new in marks.items():
        value = value.replace(mark, new)
    return value


_ASSIGNMENT = re.compile(
    r"^(?P<names>[A-Z_][A-Z0-9_]*(?:, [A-Z_][A-Z0-9_]*)*) = (?P<values>[^#\n]*?)(?P<comment>\s*#.*)?$", re.M
)


def set_constant(source: str, name: str, value: Any) -> str:
    """``source`` with the module constant ``name`` set to ``value``, on its line of its own (``NAME = 1.0``) or
    its place in a line of several (``A, B = 1.0, 2.0``), comments kept."""
    for found in _ASSIGNMENT.finditer(source):
        names = found["names"].split(", ")
        if name not in names:
            continue
        values = [v.strip() for v in found["values"].split(",")] if len(names) > 1 else [found["values"]]
        if len(values) != len(names):
            break
        values[names.index(name)] = repr(value)
        line = f"{found['names']} = {', '.join(values)}{found['comment'] or ''}"
        return source[: found.start()] + line + source[found.end() :]
    raise ValueError(f"the constant {name} is not assigned a plain value at the top of the source")


def _constants(source: str, constants: dict[str, Any]) -> str:
    for name, value in constants.items():
        source = set_constant(source, name, value)
    return source


def _phrases(spec: Family, values: dict[str, float]) -> list[tuple[str, str]]:
    """(published phrase, drawn phrase) pairs: each parameter's phrases, then the family's restated ones."""
    pairs = [
        (template.format(p.shown or f"{p.published:g}"), template.format(number(values[name])))
        for name, p in spec.parameters.items()
        for template in p.text
    ]
    return pairs + spec.phrases(values)


def _twin_source(spec: Family, family: Case) -> str:
    """The independent solver's source as published: a file of :mod:`.twins` or the case's second solution."""
    if spec.twin == ALTERNATIVE:
        if family.hidden.alternative is None:
            raise ValueError(f"{family.key}: the family's twin is its second solution, but the case has none")
        return (family.folder / family.hidden.alternative).read_text(encoding="utf-8")
    return (Path(__file__).with_name("twins") / str(spec.twin)).read_text(encoding="utf-8")


SCREEN_TRIES = 50
"""Draws of a screened family's values before the generation gives up (a screen that rejects that often is a
generator bug: its ranges do not describe the regime)."""


def _admissible_values(spec: Family, rng: np.random.Generator, key: str) -> dict[str, float]:
    """Drawn values that pass the family's screen (the first draw for a family without one)."""
    for _ in range(SCREEN_TRIES):
        values = {name: _draw(p, rng) for name, p in spec.parameters.items()}
        if spec.screen is None or (reason := spec.screen(values)) is None:
            return values
    raise ValueError(f"{key}: {SCREEN_TRIES} draws in a row fell outside the family's regime (last: {reason})")


def fresh_case(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of a family of :data:`.fresh_families.FAMILIES`; None for the other fea cases."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    values = _admissible_values(spec, rng, family.key)
    phrases = _phrases(spec, values)
    data = copy.deepcopy(read_yaml(family.folder / "case.yaml"))
    used: set[str] = set()
    data["visible"] = _substitute(data["visible"], phrases, used)
    data["title"] = _substitute(data["title"], phrases, set())
    missing = sorted({old for old, _ in phrases} - used)
    if missing:
        raise ValueError(f"{family.key}: the published text does not state {missing}")
    si = {name: values[name] * p.scale for name, p in spec.parameters.items()} | FIXED_IN_SOURCE.get(family.id, {})
    drawn = {name: p for name, p in spec.parameters.items() if p.constant is not None}
    constants = {p.constant: si[name] for name, p in drawn.items()} | spec.derived(si)
    files = {
        family.hidden.oracle: _constants((family.folder / family.hidden.oracle).read_text(encoding="utf-8"), constants)
    }
    for key in ("published_target", "published_units"):  # COMSOL's value of the published data
        data["hidden"]["scoring"].pop(key, None)
    data["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    params = data["hidden"]["reference"]["params"]
    params.pop("closed_form", None)  # the published data's
    if spec.closed_form is not None:
        params["closed_form"] = float(f"{spec.closed_form(si):.10g}")
    else:
        twin_constants = {p.twin_constant or p.constant: si[name] for name, p in drawn.items()}
        twin_constants |= (spec.twin_derived or spec.derived)(si)
        files[TWIN] = _constants(_twin_source(spec, family), twin_constants)
    ranges = {name: (p.low, p.high) for name, p in spec.parameters.items()}
    return FreshDraw(case=data, params=values, ranges=ranges, files=files)


def twin_name(case: Case) -> str:
    """How a fresh case's independent solver is named in its verification: ``DOLFINx`` (a twin of
    :mod:`.twins`) or ``the second solution`` (the published case's, with the drawn constants)."""
    spec = FAMILIES.get(family_of(case.id) or "")
    return "the second solution" if spec is not None and spec.twin == ALTERNATIVE else "DOLFINx"


def verify_fresh_case(case: Case, workdir: Path) -> FreshCheck:
    """The suite's refinement study of the new ``reference.py``; its finest level must agree with the closed form
    (a case that states one) or with the independent solver ``twin.py`` (a DOLFINx twin at its level
    :data:`TWIN_LEVEL`, or the case's second solution) within the suite's tolerance ``max(alpha * spread,
    minimum)``."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.suites.fea.refinement import ReferenceRejected, closed_form_tolerance, refinement_reference

    params = case.hidden.reference["params"]
    try:
        reference = refinement_reference(case)
    except ReferenceRejected as exc:
        return FreshCheck(ok=False, detail={"reason": str(exc), "closed_form": params.get("closed_form")})
    detail: dict[str, Any] = {
        "levels": [level["value"] for level in reference.meta["levels"]],
        "spread": reference.scalars["spread"],
    }
    if params.get("closed_form") is not None:
        rule = "the finest scikit-fem level agrees with the closed form within max(alpha * spread, minimum)"
        return FreshCheck(
            ok=True,
            detail={"rule": rule, "closed_form": params["closed_form"], "gap": reference.scalars["closed_form_gap"]}
            | detail,
        )
    name = twin_name(case)
    try:
        second = twin_value(case, workdir)
    except InfrastructureError as exc:
        return FreshCheck(ok=False, detail={"reason": f"{name} failed: {str(exc)[-500:]}"} | detail)
    finest = reference.scalars["finest"]
    gap = abs(second - finest) / abs(finest)
    tolerance = closed_form_tolerance(case, reference.scalars["spread"])
    detail |= {
        "rule": f"the finest scikit-fem level and {name} agree within max(alpha * spread, minimum)",
        "twin": second,
        "twin_level": TWIN_LEVEL if _twin_levels(case) else None,
        "gap": gap,
        "tolerance": tolerance,
    }
    if gap > tolerance:
        detail["reason"] = f"scikit-fem {finest:g} and {name} {second:g} differ by {gap:.3g} > {tolerance:.3g}"
    return FreshCheck(ok=gap <= tolerance, detail=detail)


def _twin_levels(case: Case) -> bool:
    spec = FAMILIES.get(family_of(case.id) or "")
    return spec is None or spec.twin_levels


def twin_value(case: Case, workdir: Path) -> float:
    """The target as the case's independent solver computes it (``python twin.py --level TWIN_LEVEL``, or
    without ``--level`` for a family whose twin has none, in the suite's environment, in ``workdir``)."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.execution.harness_runs import python_request, run_harness_program
    from simcodebench.suites.fea.refinement import REFERENCE_MEM_MB, target_units
    from simcodebench.suites.fea.validity import Invalid, read_result

    shutil.copyfile(case.folder / TWIN, workdir / TWIN)
    args = [TWIN, "--level", str(TWIN_LEVEL)] if _twin_levels(case) else [TWIN]
    request = python_request(case.suite.environment, args, workdir, 900.0, REFERENCE_MEM_MB)
    result = run_harness_program(case.suite.environment, request)
    if result.status != "ok":
        stderr = (
            (workdir / "stderr.txt").read_text(errors="replace")[-2000:] if (workdir / "stderr.txt").exists() else ""
        )
        raise InfrastructureError(f"{case.key}: {TWIN} ended {result.status}: {stderr}")
    try:
        return read_result(workdir / "result.json", target_units(case)).converted
    except Invalid as exc:
        raise InfrastructureError(f"{case.key}: {TWIN}: {exc}") from exc
