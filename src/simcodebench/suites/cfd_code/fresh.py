"""Fresh variants of the cfd-code problems: a draw of a family (:mod:`.fresh_families`) and its verification.

Verification (:func:`verify`): the family's regime check first (a wave that would reach a reflective end); then
the reference against two finer levels (a series' or an image sum's truncation doubled and quadrupled, an ODE's
start and tolerance tightened, a spectral run's modes and steps doubled, more collocation nodes) or against an
independent solution of the same discrete problem (Poisson: sine transforms); they must agree with each other
and with the reference to :data:`REFERENCE_TOL` (NMSE; a closed-form reference has no truncation), or to its
family's looser tolerance: a second-order grid solver against one finer level (the cylinder) or two (the 2-D
viscous Burgers box, refine 12 and 16; the cavities, grids 4 and 8 times finer, time-stepped implicitly, the
pressure compared as scored), the shear flow's spectral run against two finer grids. Then the
oracle runs once at its own resolution and must score within its family's tolerance (:data:`ORACLE_TOL`, or a
larger one for first-order schemes on moving discontinuities), well inside its wall limit. A chaotic family
(Rayleigh-Benard) has ensembles instead of levels: the reference ensemble's spread and a finer ensemble scored
against it (:mod:`.fresh_ensemble`); its oracle must score within half the pass mark, and the published case's
oracle must fail the draw (statistics are coarse enough to let the published answer pass a nearby draw).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case, get_case
from simcodebench.core.fresh import FreshCheck, FreshDraw, family_of
from simcodebench.core.fresh_edits import draw, number, ranges, substitute, substitute_strings
from simcodebench.core.fresh_runs import run_python
from simcodebench.core.io import read_yaml
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code import scorer
from simcodebench.suites.cfd_code.fresh_families import FAMILIES, ORACLE_TOL, REFERENCE_TOL, WITHOUT, Family

__all__ = ["FAMILIES", "ORACLE_TOL", "REFERENCE_TOL", "WITHOUT", "fresh_draw", "instance", "reference_levels", "verify"]

WALL_SHARE = 0.5
"""The oracle's run must finish within this share of the case's wall limit."""

PUBLISHED_WALL_FACTOR = 10.0
"""The published oracle's run (``Family.published_answer_fails``) may take this many times the wall limit."""


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of the published case ``family``; None where the family has no generator."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    return instance(family, spec, draw(rng, spec.params))


def instance(family: Case, spec: Family, drawn: dict[str, float]) -> FreshDraw:
    """The instance of the published case ``family`` at the parameters ``drawn`` (a draw, or a corner of the
    ranges in a benchmark)."""
    edits, oracle_edits = spec.edits({name: number(value) for name, value in drawn.items()})
    raw = read_yaml(family.folder / "case.yaml")
    for key in spec.drop_keys:
        raw["visible"].pop(key, None)
    raw["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    case = substitute_strings(raw, edits, f"{family.folder / 'case.yaml'}")
    case["hidden"]["reference"]["params"].update(spec.reference(drawn))
    if spec.adjust is not None:
        spec.adjust(case, case["hidden"]["reference"]["params"])
    oracle_name = raw["hidden"]["oracle"]
    oracle_path = family.folder / oracle_name
    oracle = substitute(oracle_path.read_text(encoding="utf-8"), oracle_edits, str(oracle_path))
    return FreshDraw(case=case, files={oracle_name: oracle}, params=drawn, ranges=ranges(spec.params))


def _family(case: Case) -> Family:
    """The family of a fresh case: by its id (``<family>-fresh<k>``), else by its reference generator."""
    named = FAMILIES.get(family_of(case.id) or "")
    if named is not None:
        return named
    generator = case.hidden.reference["generator"]
    for family in FAMILIES.values():
        if family.generator == generator:
            return family
    raise KeyError(f"{case.key}: no cfd-code fresh family makes references with '{generator}'")


def reference_levels(case: Case, family: Family) -> dict[str, float]:
    """The worst NMSE, over the fields, of the reference and of its first finer level against the second."""
    spec = case.hidden.reference
    if family.levels is None:
        raise ValueError(f"{case.key}: its family is checked by ensembles, not by refinement levels")
    levels = family.levels(spec["generator"], dict(spec.get("params", {})))
    finest = levels[2]

    def worst(level: dict[str, np.ndarray]) -> float:
        # a field that is zero everywhere (the channel's v) is compared by its mean square (scale 1)
        return max(metric.nmse(finest[name], level[name], None if finest[name].any() else 1.0) for name in finest)

    return {"nmse_level0_vs_level2": worst(levels[0]), "nmse_level1_vs_level2": worst(levels[1])}


def _reference_check(case: Case, family: Family) -> tuple[dict[str, Any], Reference | None]:
    """The reference's check (by refinement levels, or by ensembles) and the reference; None with a ``reason``
    in the detail when the check fails."""
    if family.ensemble is not None:
        reference = scorer.generate_reference(case)
        detail = family.ensemble(dict(case.hidden.reference["params"]), reference)
        return detail, None if "reason" in detail else reference
    detail: dict[str, Any] = dict(reference_levels(case, family))
    detail["reference_tol"] = family.reference_tol
    if max(detail["nmse_level0_vs_level2"], detail["nmse_level1_vs_level2"]) > family.reference_tol:
        detail["reason"] = "the reference's refinement levels disagree"
        return detail, None
    return detail, scorer.generate_reference(case)


def verify(case: Case, workdir: Path) -> FreshCheck:
    """Check a fresh case's reference under refinement and its oracle (module docstring)."""
    family = _family(case)
    if family.regime is not None:
        reason = family.regime(dict(case.hidden.reference.get("params", {})))
        if reason:
            return FreshCheck(ok=False, detail={"reason": reason})
    detail, reference = _reference_check(case, family)
    if reference is None:
        return FreshCheck(ok=False, detail=detail)
    run_dir = workdir / "oracle"
    wall = float(case.resources["wall_s"])
    run = run_python(scorer.oracle_source(case), run_dir, wall)  # its seconds stay out of the (seeded) report
    if not run.ok:
        detail["reason"] = f"the oracle failed: {run.reason}"
        return FreshCheck(ok=False, detail=detail)
    measurement = scorer.measure(case, run_dir, reference)
    detail.update(oracle_nmse=measurement.error, oracle_limit=family.oracle_tol, oracle_outcome=measurement.outcome)
    if measurement.outcome != "ok" or measurement.error is None or measurement.error > family.oracle_tol:
        detail["reason"] = "the oracle misses the reference"
        return FreshCheck(ok=False, detail=detail)
    if run.seconds > WALL_SHARE * wall:
        detail["reason"] = "the oracle is too slow for the wall limit"
        return FreshCheck(ok=False, detail=detail)
    if family.published_answer_fails:
        published = _published_answer(case, family, workdir / "published", reference)
        detail["published_answer_nmse"] = published.error
        if published.outcome != "ok" or published.error is None:
            detail["reason"] = f"the published problem's answer could not be scored: {published.message}"
            return FreshCheck(ok=False, detail=detail)
        if published.error <= float(case.threshold_policy()["accuracy"]["value"]):
            detail["reason"] = "the published problem's answer passes this draw"
            return FreshCheck(ok=False, detail=detail)
    return FreshCheck(ok=True, detail=detail)


def _published_answer(case: Case, family: Family, run_dir: Path, reference: Reference) -> Measurement:
    """The published case's oracle scored against the fresh ``reference``. Our own oracle, so its time does not
    matter: it may take :data:`PUBLISHED_WALL_FACTOR` times the wall limit (a loaded machine)."""
    name = next(name for name, spec in FAMILIES.items() if spec is family)
    published = get_case("cfd-code", name)
    run = run_python(scorer.oracle_source(published), run_dir, PUBLISHED_WALL_FACTOR * float(case.resources["wall_s"]))
    if not run.ok:
        return Measurement(outcome="missing", message=f"it failed: {run.reason}")
    return scorer.measure(case, run_dir, reference)
