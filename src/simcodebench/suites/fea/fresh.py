"""Fresh instances of the fea problems that have a closed form (docs/fresh-variants.md).

A family is a published case whose target follows from its data by a formula: the torsion of a circular shaft
(``example_torsion``), the bar with a radiating end (``comsol_266``) and the coaxial line (``comsol_12351``). A
draw picks new dimensions, materials and loads within the family's ranges (three significant digits, so the
prompt reads like the published one), writes them into every place the published problem, plan and target
state them, and into the constants of the case's ``reference.py``; the closed form of the new data becomes
``hidden.reference.params.closed_form``. The verification runs the scikit-fem ``reference.py`` at its refinement
levels (the suite's reference generator) and keeps the draw only where its finest value agrees with this
module's closed form within the suite's tolerance, ``max(alpha * spread, minimum)``: a solver and a formula,
written apart, agreeing on data neither was written for.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import brentq

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, FreshDraw
from simcodebench.core.io import read_yaml

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
    """A closed-form family: its parameters and the formula of its target (SI values by parameter name)."""

    parameters: dict[str, Parameter]
    closed_form: Callable[[dict[str, float]], float]


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
    "comsol_12351": Family(
        {
            "r_inner": Parameter(0.5, 0.3, 1.0, ("r_i = {} mm", "{} mm <="), "R_INNER", 1e-3),
            "r_outer": Parameter(3.43, 2.0, 6.0, ("r_o = {} mm", "<= {} mm"), "R_OUTER", 1e-3),
            "eps_r": Parameter(2.4, 1.5, 4.5, ("eps_r = {}",), "EPS_R"),
        },
        _coax,
    ),
}
"""The families with a generator, by published case id."""
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


def _set_constants(source: str, constants: dict[str, float]) -> str:
    for name, value in constants.items():
        source, n = re.subn(rf"^{name} = [^#\n]*?(\s*#.*)?$", rf"{name} = {value!r}\g<1>", source, flags=re.M)
        if n != 1:
            raise ValueError(f"reference.py: the constant {name} is not set on a line of its own")
    return source


def _coax_constants(source: str, si: dict[str, float]) -> str:
    """The coax reference sets both radii on one line."""
    line = f"R_INNER, R_OUTER = {si['r_inner']!r}, {si['r_outer']!r}  # m"
    source, n = re.subn(r"^R_INNER, R_OUTER = .*$", line, source, flags=re.M)
    if n != 1:
        raise ValueError("reference.py: R_INNER, R_OUTER are not set on one line")
    return _set_constants(source, {"EPS_R": si["eps_r"]})


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
    exact = spec.closed_form(si)
    data["hidden"]["reference"]["params"]["closed_form"] = float(f"{exact:.10g}")
    source = (family.folder / family.hidden.oracle).read_text(encoding="utf-8")
    constants = {p.constant: si[name] for name, p in spec.parameters.items()}
    source = _coax_constants(source, si) if family.id == "comsol_12351" else _set_constants(source, constants)
    ranges = {name: (p.low, p.high) for name, p in spec.parameters.items()}
    return FreshDraw(case=data, params=values, ranges=ranges, files={family.hidden.oracle: source})


def verify_fresh_case(case: Case, workdir: Path) -> FreshCheck:
    """The suite's refinement study of the new ``reference.py``, checked against the closed form."""
    from simcodebench.suites.fea.refinement import ReferenceRejected, refinement_reference

    exact = float(case.hidden.reference["params"]["closed_form"])
    try:
        reference = refinement_reference(case)
    except ReferenceRejected as exc:
        return FreshCheck(ok=False, detail={"reason": str(exc), "closed_form": exact})
    levels = [level["value"] for level in reference.meta["levels"]]
    return FreshCheck(
        ok=True,
        detail={
            "rule": "the finest scikit-fem level agrees with the closed form within max(alpha * spread, minimum)",
            "closed_form": exact,
            "levels": levels,
            "spread": reference.scalars["spread"],
            "gap": reference.scalars["closed_form_gap"],
        },
    )
