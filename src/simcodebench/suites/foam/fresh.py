"""Fresh variants of the lid-driven cavity cases (cavity-1 ... cavity-4): a new lid speed and viscosity.

A draw takes the lid speed U in [0.5, 2] m/s (the published cases run 1 to 2 m/s on the same mesh and time step,
so the Courant number U dt / dx stays at most 2, as theirs) and the kinematic viscosity nu = 10^e with e in
[-5, -4] (the published 1e-05 and 0.0001), and writes them into the problem text, the title, the oracle's
``0/U`` (movingWall) and ``constant/transportProperties``, and the case's ``wrong-inlet`` mutant (twice the
lid speed, as the published ones). The other families (pitzDaily, cylinder, damBreak, obliqueShock, ...) have no
generator: their meshes and inflow data are tied to the tutorials' numbers.

Verification (:func:`verify`): the reference is OpenFOAM's own run of the fresh oracle (the suite's reference
generator); it must run to the end time, its fields must be finite, and no cell may move faster than the lid
(:data:`SPEED_SLACK`), as a lid-driven flow from rest cannot.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.core.io import read_yaml
from simcodebench.suites.foam import scorer

PARAMS = {"lid_speed": Param(0.5, 2.0, 2), "nu_exponent": Param(-5.0, -4.0, 2)}
FAMILIES = ("cavity-1", "cavity-2", "cavity-3", "cavity-4")
U_FILE, NU_FILE = "oracle/0/U", "oracle/constant/transportProperties"
SPEED_SLACK = 1.05
"""No cell's speed may exceed the lid's by more than this factor."""
_LID = re.compile(r"movingWall\s*\{[^}]*value\s+uniform \((?P<u>\S+) 0 0\);")
_NU = re.compile(r"^nu\s+(?P<nu>\S+);", re.M)


def _nu_text(exponent: float) -> str:
    """10^exponent to two significant digits, as the published cases write it (1e-05, 0.0001, 4.3e-05)."""
    return f"{10.0**exponent:.2g}"


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new lid speed and viscosity for a published cavity case; None for the other families."""
    if family.id not in FAMILIES:
        return None
    drawn: dict[str, Any] = draw(rng, PARAMS)
    u_text, u_old = number(drawn["lid_speed"]), (family.folder / U_FILE).read_text(encoding="utf-8")
    nu_text, nu_old = _nu_text(drawn["nu_exponent"]), (family.folder / NU_FILE).read_text(encoding="utf-8")
    lid, nu = _LID.search(u_old), _NU.search(nu_old)
    if lid is None or nu is None:
        raise ValueError(f"{family.folder}: the oracle's lid speed or viscosity is not where the fresh edits look")
    drawn["nu"] = float(nu_text)
    text = [
        (f"moves at {lid['u']} m/s", f"moves at {u_text} m/s"),
        (f"nu = {nu['nu']} m^2/s", f"nu = {nu_text} m^2/s"),
        (f"lid {lid['u']} m/s, nu {nu['nu']}", f"lid {u_text} m/s, nu {nu_text}"),
    ]
    raw = read_yaml(family.folder / "case.yaml")
    raw["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    case = substitute_strings(raw, text, str(family.folder / "case.yaml"))
    wrong = case["hidden"].get("mutants", {}).get("wrong-inlet")
    if wrong is not None:  # the published mutants drive the lid at twice its speed
        wrong["value"] = f"uniform ({number(2 * drawn['lid_speed'])} 0 0)"
    new_lid = lid.group(0).replace(f"({lid['u']} 0 0)", f"({u_text} 0 0)")
    files = {
        U_FILE: substitute(u_old, [(lid.group(0), new_lid)], U_FILE),
        NU_FILE: substitute(nu_old, [(nu.group(0), nu.group(0).replace(nu["nu"], nu_text))], NU_FILE),
    }
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(PARAMS))


def verify(case: Case, workdir: Path) -> FreshCheck:
    """OpenFOAM's run of the fresh oracle: to the end time, finite, no cell faster than the lid."""
    lid = _LID.search((case.folder / U_FILE).read_text(encoding="utf-8"))
    control = (case.folder / "oracle" / "system" / "controlDict").read_text(encoding="utf-8")
    end = re.search(r"^endTime\s+(\S+);", control, re.M)
    if lid is None or end is None:
        return FreshCheck(ok=False, detail={"reason": "the oracle names no lid speed or end time"})
    try:
        reference = scorer.generate_reference(case)
    except RuntimeError as exc:
        return FreshCheck(ok=False, detail={"reason": f"the reference run failed: {str(exc)[:300]}"})
    speed = np.linalg.norm(np.asarray(reference.fields["U"], dtype=float), axis=-1)
    detail = {
        "last_time": float(reference.scalars["time"]),
        "end_time": float(end.group(1)),
        "max_speed": float(speed.max()),
        "lid_speed": float(lid["u"]),
        "finite": bool(all(np.isfinite(np.asarray(v, dtype=float)).all() for v in reference.fields.values())),
    }
    problems = []
    if abs(detail["last_time"] - detail["end_time"]) > 1e-9:
        problems.append("the run stopped before the end time")
    if not detail["finite"]:
        problems.append("a field is not finite")
    if detail["max_speed"] > SPEED_SLACK * detail["lid_speed"]:
        problems.append("a cell moves faster than the lid")
    if problems:
        detail["reason"] = "; ".join(problems)
    return FreshCheck(ok=not problems, detail=detail)
