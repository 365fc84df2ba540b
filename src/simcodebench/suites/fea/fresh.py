"""Fresh instances of the fea problems whose reference can be checked independently (docs/fresh-variants.md).

A family is a published case whose target either follows from its data by a formula (the torsion of a circular
shaft ``example_torsion``, the bar with a radiating end ``comsol_266``, the coaxial line ``comsol_12351``) or is
computed by a second solver written apart (the plate with convective edges ``comsol_265``: a DOLFINx twin,
:mod:`.twins`, beside the scikit-fem ``reference.py``). A draw picks new dimensions, materials and loads within
the family's ranges (three significant digits, so the prompt reads like the published one), writes them into
every place the published problem, plan and target state them, and into the constants of the case's
``reference.py`` (and of its twin, ``twin.py`` in the case folder); the closed form of the new data becomes
``hidden.reference.params.closed_form``. The verification runs the scikit-fem ``reference.py`` at its
refinement levels (the suite's reference generator) and keeps the draw only where its finest value agrees with
this module's closed form, or with the twin, within the suite's tolerance ``max(alpha * spread, minimum)``: two
computations written apart agreeing on data neither was written for.
"""

from __future__ import annotations

import copy
import math
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import brentq

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.io import read_yaml

TWIN = "twin.py"
"""The second solver's file in a fresh case's folder (never shown to the agent: not a visible input)."""
TWIN_LEVEL = 2
"""The twin's refinement level in the verification."""
STEFAN_BOLTZMANN = 5.670374419e-8
MU0 = 1.25663706212e-6
C0 = 299792458.0


@dataclass(frozen=True)
class Parameter:
    """A drawn quantity: its published value and range (in the units the text states it), how the text writes
    it (``text``: the published phrases, each with ``{}`` where the value stands), and the ``reference.py``
    constant it sets (``constant``, in SI units after ``scale``)."""

    published: float
    low: float
    high: float
    text: tuple[str, ...]
    constant: str
    scale: float = 1.0


@dataclass(frozen=True)
class Family:
    """A family with a generator: its parameters, and either the formula of its target (SI values by parameter
    name) or ``twin``, the second solver (a module of :mod:`.twins`) its scikit-fem reference must agree with;
    ``derived``: constants of the sources that follow from the drawn values (a probe point on a drawn edge)."""

    parameters: dict[str, Parameter]
    closed_form: Callable[[dict[str, float]], float] | None = None
    twin: str | None = None
    derived: Callable[[dict[str, float]], dict[str, Any]] = lambda si: {}


def _torque(p: dict[str, float]) -> float:
    return math.pi / 2 * p["shear_modulus"] * p["twist_rate"] * p["radius"] ** 4


def _radiating_end(p: dict[str, float]) -> float:
    def balance(t: float) -> float:
        flux = p["emissivity"] * STEFAN_BOLTZMANN * (t**4 - 300.0**4)
        return p["conductivity"] * (p["t_left"] - t) / p["length"] - flux

    return float(brentq(balance, 300.0, p["t_left"], xtol=1e-12, rtol=1e-14))


def _coax(p: dict[str, float]) -> float:
    return MU0 * C0 * math.log(p["r_outer"] / p["r_inner"]) / (2 * math.pi * math.sqrt(p["eps_r"]))


FAMILIES: dict[str, Family] = {
    "example_torsion": Family(
        {
            "radius": Parameter(20, 10, 40, ("radius {} mm",), "RADIUS", 1e-3),
            "twist_rate": Parameter(0.01, 0.004, 0.03, ("twist of {} rad per metre", "theta = {} rad/m"), "TWIST_RATE"),
        },
        _torque,
    ),
    "comsol_266": Family(
        {
            "length": Parameter(0.1, 0.05, 0.3, ("x <= {} m", "x = {} m", "[0, {}] m"), "LENGTH"),
            "t_left": Parameter(1000, 600, 1400, ("{} K",), "T_LEFT"),
            "conductivity": Parameter(55.563, 15, 120, ("k = {} W/(m K)",), "CONDUCTIVITY"),
            "emissivity": Parameter(0.98, 0.5, 0.98, ("eps = {}",), "EMISSIVITY"),
        },
        _radiating_end,
    ),
    "comsol_265": Family(
        {
            "width": Parameter(
                0.6, 0.4, 0.9, ("x <= {} m", "x = {}", "({} m, 0.2 m)", "[0, {}] x", "({}, 0.2)"), "WIDTH"
            ),
            "conductivity": Parameter(52, 15, 120, ("k = {} W/(m K)",), "K_COND"),
            "h": Parameter(750, 200, 1500, ("h = {} W/(m^2 K)",), "H_CONV"),
            "t_bottom": Parameter(100, 50, 200, ("T = {} degC",), "T_BOTTOM"),
        },
        twin="comsol_265.py",
        derived=lambda si: {"POINT_P": (si["width"], 0.2)},
    ),
    "comsol_12351": Family(
        {
            "r_inner": Parameter(0.5, 0.3, 1.0, ("r_i = {} mm", "{} mm <="), "R_INNER", 1e-3),
            "r_outer": Parameter(3.43, 2.0, 6.0, ("r_o = {} mm", "<= {} mm"), "R_OUTER", 1e-3),
            "eps_r": Parameter(2.4, 1.5, 4.5, ("eps_r = {}",), "EPS_R"),
        },
        _coax,
    ),
}
"""The families with a generator, by published case id: a closed form, or a second solver (DOLFINx) beside the
scikit-fem reference."""
FIXED_IN_SOURCE = {"example_torsion": {"shear_modulus": 80e9}}
"""Quantities a family keeps at the published value, in SI units, that its closed form needs."""


def _number(value: float) -> str:
    """Three significant digits as the text writes them (no exponent, no trailing zeros)."""
    return f"{float(f'{value:.3g}'):g}" if 1e-3 <= abs(value) < 1e6 else f"{value:.3g}"


def _draw(parameter: Parameter, rng: np.random.Generator) -> float:
    while True:
        value = float(_number(float(rng.uniform(parameter.low, parameter.high))))
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


def fresh_case(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of a closed-form family; None for the other fea cases."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    values = {name: _draw(p, rng) for name, p in spec.parameters.items()}
    if family.id == "comsol_12351" and values["r_outer"] < 2 * values["r_inner"]:
        values["r_outer"] = float(_number(2 * values["r_inner"] + 0.5))
    phrases = [
        (template.format(f"{p.published:g}"), template.format(_number(values[name])))
        for name, p in spec.parameters.items()
        for template in p.text
    ]
    data = copy.deepcopy(read_yaml(family.folder / "case.yaml"))
    used: set[str] = set()
    data["visible"] = _substitute(data["visible"], phrases, used)
    missing = sorted({old for old, _ in phrases} - used)
    if missing:
        raise ValueError(f"{family.key}: the published text does not state {missing}")
    si = {name: values[name] * p.scale for name, p in spec.parameters.items()} | FIXED_IN_SOURCE.get(family.id, {})
    constants = {p.constant: si[name] for name, p in spec.parameters.items()} | spec.derived(si)
    files = {
        family.hidden.oracle: _constants((family.folder / family.hidden.oracle).read_text(encoding="utf-8"), constants)
    }
    for key in ("published_target", "published_units"):  # COMSOL's value of the published data
        data["hidden"]["scoring"].pop(key, None)
    data["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    params = data["hidden"]["reference"]["params"]
    if spec.closed_form is not None:
        params["closed_form"] = float(f"{spec.closed_form(si):.10g}")
    else:
        twin = (Path(__file__).with_name("twins") / spec.twin).read_text(encoding="utf-8")
        files[TWIN] = _constants(twin, constants)
    ranges = {name: (p.low, p.high) for name, p in spec.parameters.items()}
    return FreshDraw(case=data, params=values, ranges=ranges, files=files)


def verify_fresh_case(case: Case, workdir: Path) -> FreshCheck:
    """The suite's refinement study of the new ``reference.py``; its finest level must agree with the closed form
    (a case that states one) or with the DOLFINx twin at its level :data:`TWIN_LEVEL` (one that has a twin) within
    the suite's tolerance ``max(alpha * spread, minimum)``."""
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
    try:
        second = twin_value(case, workdir)
    except InfrastructureError as exc:
        return FreshCheck(ok=False, detail={"reason": f"the DOLFINx twin failed: {str(exc)[-500:]}"} | detail)
    finest = reference.scalars["finest"]
    gap = abs(second - finest) / abs(finest)
    tolerance = closed_form_tolerance(case, reference.scalars["spread"])
    detail |= {
        "rule": "the finest scikit-fem level and the DOLFINx twin agree within max(alpha * spread, minimum)",
        "twin": second,
        "twin_level": TWIN_LEVEL,
        "gap": gap,
        "tolerance": tolerance,
    }
    if gap > tolerance:
        detail["reason"] = f"scikit-fem {finest:g} and DOLFINx {second:g} differ by {gap:.3g} > {tolerance:.3g}"
    return FreshCheck(ok=gap <= tolerance, detail=detail)


def twin_value(case: Case, workdir: Path) -> float:
    """The target as the case's DOLFINx twin computes it (``python twin.py --level TWIN_LEVEL`` in the suite's
    environment, in ``workdir``)."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.execution.harness_runs import python_request, run_harness_program
    from simcodebench.suites.fea.refinement import REFERENCE_MEM_MB, target_units
    from simcodebench.suites.fea.validity import Invalid, read_result

    shutil.copyfile(case.folder / TWIN, workdir / TWIN)
    request = python_request(
        case.suite.environment, [TWIN, "--level", str(TWIN_LEVEL)], workdir, 900.0, REFERENCE_MEM_MB
    )
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
