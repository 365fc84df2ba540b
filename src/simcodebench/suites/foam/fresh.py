"""Fresh variants of the foam cases: a generator per tutorial family, and OpenFOAM's run as the check.

Every family of the suite has one (:data:`FAMILIES`, by published case):

- cavity, pitzDaily, cylinder: a new driving speed and viscosity; squareBend: a new mass flow
  (:mod:`.fresh_inflow`);
- wedge, obliqueShock, forwardStep: a new inflow Mach number (and turn, temperature) and, for the wedge and the
  step, a new wedge angle or step height with the mesh to match, checked against shock theory
  (:mod:`.fresh_supersonic`, :mod:`.supersonic_geometry`);
- damBreak: a new water column, water viscosity and obstacle (:mod:`.fresh_dambreak`).

Verification (:func:`verify`): the reference is OpenFOAM's own run of the fresh oracle (as the suite's reference
generator runs it); it must run to the end time with finite fields, then pass its family's physical check.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw, family_of
from simcodebench.suites.foam import fresh_dambreak, fresh_inflow, fresh_supersonic, scorer
from simcodebench.suites.foam.fresh_common import Family, oracle_text

FAMILIES: dict[str, Family] = {**fresh_inflow.FAMILIES, **fresh_supersonic.FAMILIES, **fresh_dambreak.FAMILIES}
"""The generator of each published case of suite :data:`SUITE` (the imported FoamBench suites have none)."""
SUITE = "foam"
_END = re.compile(r"^endTime\s+(\S+);", re.M)


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of a published foam case; None for a case without a generator (an imported one)."""
    generator = FAMILIES.get(family.id) if family.suite.base == SUITE else None
    return None if generator is None else generator.draw(family, rng)


def verify(case: Case, workdir: Path) -> FreshCheck:
    """OpenFOAM's run of the fresh oracle: to the end time, finite, and its family's physical check."""
    generator = FAMILIES.get(family_of(case.id) or case.id)
    end = _END.search(oracle_text(case, "system/controlDict"))
    if generator is None or end is None:
        return FreshCheck(ok=False, detail={"reason": "no fresh generator of this family, or no end time"})
    try:
        run = scorer.run_oracle(case, generator.fields)
    except RuntimeError as exc:
        return FreshCheck(ok=False, detail={"reason": f"the reference run failed: {str(exc)[:300]}"})
    finite = all(np.isfinite(np.asarray(v, dtype=float)).all() for v in run.fields.values())
    detail = {"last_time": float(run.time), "end_time": float(end.group(1)), "finite": bool(finite)}
    problems = []
    if abs(detail["last_time"] - detail["end_time"]) > 1e-9:
        problems.append("the run stopped before the end time")
    if not finite or "U" not in run.fields:
        problems.append("a field is not finite, or U is missing")
    else:
        physics, found = generator.check(case, run)
        detail |= physics
        problems += found
    if problems:
        detail["reason"] = "; ".join(problems)
    return FreshCheck(ok=not problems, detail=detail)
