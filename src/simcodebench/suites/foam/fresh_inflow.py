"""Fresh incompressible and low-speed foam cases: a new driving speed and viscosity, or a new mass flow.

- cavity-1 ... cavity-4: the lid speed U in [0.5, 2] m/s (the published 1 to 2 m/s on the same mesh and time
  step, Courant number at most 2) and nu = 10^e, e in [-5, -4] (the published 1e-05 and 1e-04). Check: no cell
  moves faster than the lid (5% slack), as a lid-driven flow from rest cannot.
- pitzDaily-1 ... -3: the inlet speed in [5, 10] m/s and nu = 10^e, e in [-5, log10 2e-5] (the published
  5 / 10 m/s and 1e-05 / 2e-05; the time step adapts to Courant number 5). Check: no cell faster than 1.2 times
  the inlet (the channel widens behind the step and the contraction only brings the mean back to 0.77 of it),
  and the flow recirculates behind the step (some cell below the step's lip, x in (0, 0.206) m, flows back).
- cylinder-1 ... -3: the inlet speed in [1, 2] m/s and nu = 10^e, e in [log10 0.005, -2] (the published
  ones; Reynolds number U D / nu 100 to 800, Courant number below 0.5 at the fixed time step). Check: the
  fastest cell lies between 4/3 U (continuity: the half-domain's gap beside the cylinder is 1.5 of the 2 m) and
  2.5 U (potential flow gives 2 U on an unbounded cylinder; the symmetry planes add blockage).
- squareBend-1 ... -3: the mass flow rate in [0.05, 0.1] kg/s (the published range) and the inlet (and initial)
  temperature in [800, 1200] K (the published 1000 K; Mach number below 0.3 throughout). Check: the mass flux
  through every cross-section of the inlet and outlet legs, the mean of rho Ux over its cells times the duct's
  50 mm x 50 mm, is within 2% of the drawn rate, and every cell's temperature within 3% of the inlet's.

Each draw is written into the problem text and title, the oracle's ``0/U`` (and ``transportProperties``,
``0/T``), and the ``wrong-inlet`` mutant (twice the new speed, or half the new temperature, as the published).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute_strings
from simcodebench.suites.foam.dictionaries import set_in_patch, set_scalar
from simcodebench.suites.foam.fresh_common import (
    Family,
    oracle_text,
    patch_entry,
    patch_vector,
    published_case,
    set_mutant_value,
)
from simcodebench.suites.foam.scorer import OracleRun

U_FILE, NU_FILE, T_FILE = "0/U", "constant/transportProperties", "0/T"
CAVITY_SLACK = 1.05
"""No cavity cell may move faster than the lid by more than this factor."""
PITZ_MAX, CYLINDER_BOUNDS = 1.2, (4.0 / 3.0, 2.5)
"""The fastest cell over the inlet speed: at most this (pitzDaily), within these (cylinder)."""
DUCT_AREA, MASS_TOLERANCE = 0.05 * 0.05, 0.02
TEMPERATURE_TOLERANCE = 0.03
"""squareBend's duct cross-section (m^2), the relative tolerance on the mass flux through each section, and on each
cell's temperature against the inlet's (U^2 / 2 cp at 190 m/s is 1.5% of 1200 K)."""


def nu_text(exponent: float) -> str:
    """10^exponent to two significant digits, as the published cases write it (1e-05, 0.0001, 4.3e-05)."""
    return f"{10.0**exponent:.2g}"


@dataclass(frozen=True)
class SpeedViscosity:
    """A family driven by one boundary's speed along x, with a kinematic viscosity: where each number stands."""

    patch: str
    speed_name: str
    speed: Param
    nu_exponent: Param
    phrases: tuple[str, ...]
    """Texts quoting the numbers, with ``{u}`` and ``{nu}`` (each must occur in the published case)."""
    check: Callable[[np.ndarray, np.ndarray, float], tuple[dict[str, Any], list[str]]]


def _cavity(centres: np.ndarray, velocity: np.ndarray, lid: float) -> tuple[dict[str, Any], list[str]]:
    top = float(np.linalg.norm(velocity, axis=-1).max())
    return {"max_speed": top}, ["a cell moves faster than the lid"] if top > CAVITY_SLACK * lid else []


def _pitz(centres: np.ndarray, velocity: np.ndarray, inlet: float) -> tuple[dict[str, Any], list[str]]:
    top = float(np.linalg.norm(velocity, axis=-1).max())
    behind = (centres[:, 0] > 0.0) & (centres[:, 0] < 0.206) & (centres[:, 1] < 0.0)
    back = float(velocity[behind, 0].min()) if behind.any() else math.inf
    problems = []
    if top > PITZ_MAX * inlet:
        problems.append(f"a cell moves faster than {PITZ_MAX} times the inlet")
    if not back < 0.0:
        problems.append("no flow recirculates behind the step")
    return {"max_speed": top, "min_ux_behind_step": back}, problems


def _cylinder(centres: np.ndarray, velocity: np.ndarray, inlet: float) -> tuple[dict[str, Any], list[str]]:
    top = float(np.linalg.norm(velocity, axis=-1).max())
    low, high = CYLINDER_BOUNDS
    inside = low * inlet <= top <= high * inlet
    return {"max_speed": top}, [] if inside else [f"the fastest cell is not within {low:.3g} to {high} times U"]


SPEED_FAMILIES = {
    "cavity": SpeedViscosity(
        "movingWall",
        "lid_speed",
        Param(0.5, 2.0, 2),
        Param(-5.0, -4.0, 2),
        ("moves at {u} m/s", "nu = {nu} m^2/s", "lid {u} m/s, nu {nu}"),
        _cavity,
    ),
    "pitzDaily": SpeedViscosity(
        "inlet",
        "inlet_speed",
        Param(5.0, 10.0, 2),
        Param(-5.0, round(math.log10(2e-5), 3), 3),
        ("inlet velocity of {u} m/s", "nu = {nu} m^2/s", "U {u} m/s, nu {nu}"),
        _pitz,
    ),
    "cylinder": SpeedViscosity(
        "left",
        "inlet_speed",
        Param(1.0, 2.0, 2),
        Param(round(math.log10(0.005), 3), -2.0, 3),
        ("fixed velocity of {u} m/s", "nu = {nu} m^2/s", "U {u} m/s, nu {nu}"),
        _cylinder,
    ),
}


def _spec(case: Case) -> SpeedViscosity:
    return SPEED_FAMILIES[str(case.visible.spec["family"])]


def draw_speed_viscosity(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new driving speed and viscosity of a cavity, pitzDaily or cylinder case, written everywhere it stands."""
    spec = _spec(family)
    params = {spec.speed_name: spec.speed, "nu_exponent": spec.nu_exponent}
    drawn: dict[str, Any] = draw(rng, params)
    u_old, nu_old = oracle_text(family, U_FILE), oracle_text(family, NU_FILE)
    old_u = number(patch_vector(u_old, spec.patch)[0])
    old_nu = _nu_entry(nu_old)
    u, nu = number(drawn[spec.speed_name]), nu_text(drawn["nu_exponent"])
    drawn["nu"] = float(nu)
    text = [(p.format(u=old_u, nu=old_nu), p.format(u=u, nu=nu)) for p in spec.phrases]
    case = substitute_strings(published_case(family), text, str(family.folder / "case.yaml"))
    set_mutant_value(case, "wrong-inlet", f"uniform ({number(2 * drawn[spec.speed_name])} 0 0)")
    files = {
        f"oracle/{U_FILE}": set_in_patch(u_old, spec.patch, "value", f"uniform ({u} 0 0)"),
        f"oracle/{NU_FILE}": set_scalar(nu_old, "nu", nu),
    }
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(params))


def _nu_entry(transport: str) -> str:
    """The text of the ``nu`` entry of ``transportProperties`` as the case writes it."""
    for line in transport.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "nu" and words[1].endswith(";"):
            return words[1][:-1]
    raise ValueError("transportProperties has no 'nu <value>;' entry")


def check_speed_viscosity(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """The family's speed check on the run, against the driving speed the oracle's ``0/U`` sets."""
    spec = _spec(case)
    drive = float(patch_vector(oracle_text(case, U_FILE), spec.patch)[0])
    detail, problems = spec.check(run.centres, np.asarray(run.fields["U"], dtype=float), drive)
    return {spec.speed_name: drive, **detail}, problems


BEND = {"mass_flow": Param(0.05, 0.1, 4), "inlet_temperature": Param(800.0, 1200.0, 0)}


def draw_mass_flow(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new inlet mass flow rate and temperature of a squareBend case (text, title, ``0/U``, ``0/T``, and the
    ``wrong-inlet`` mutant: half the new temperature, as the published 500 K is half of 1000 K)."""
    drawn: dict[str, Any] = draw(rng, BEND)
    u_old, t_old = oracle_text(family, U_FILE), oracle_text(family, T_FILE)
    old = patch_entry(u_old, "inlet", "massFlowRate").split()[-1]
    old_t = number(_internal_scalar(t_old))
    new, t = number(drawn["mass_flow"]), number(drawn["inlet_temperature"])
    text = [(f" {old} kg/s", f" {new} kg/s"), (f"T = {old_t} K", f"T = {t} K")]  # title, inlet and initial state
    case = substitute_strings(published_case(family), text, str(family.folder / "case.yaml"))
    set_mutant_value(case, "wrong-inlet", f"uniform {number(drawn['inlet_temperature'] / 2)}")
    files = {
        f"oracle/{U_FILE}": set_in_patch(u_old, "inlet", "massFlowRate", f"constant {new}"),
        f"oracle/{T_FILE}": set_scalar(t_old, "internalField", f"uniform {t}"),  # the inlet and outlet quote it
    }
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(BEND))


def _internal_scalar(field: str) -> float:
    for line in field.splitlines():
        words = line.rstrip(";").split()
        if len(words) == 3 and words[:2] == ["internalField", "uniform"]:
            return float(words[2])
    raise ValueError("the field has no 'internalField uniform <value>;'")


def check_mass_flow(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """The mass flux through each cell layer across the inlet leg (y > 25 mm) and outlet leg (y < -25 mm), and
    the temperature: adiabatic walls at low Mach number keep every cell within 3% of the inlet's."""
    rate = float(patch_entry(oracle_text(case, U_FILE), "inlet", "massFlowRate").split()[-1])
    inlet_t = _internal_scalar(oracle_text(case, T_FILE))
    x, y = run.centres[:, 0], run.centres[:, 1]
    flux = np.asarray(run.fields["rho"], dtype=float) * np.asarray(run.fields["U"], dtype=float)[:, 0]
    ratios = []
    for leg, sign in ((y > 0.025) & (x < 0.0), 1.0), ((y < -0.025) & (x < 0.0), -1.0):
        for layer in np.unique(np.round(x[leg], 6)):
            cells = leg & np.isclose(x, layer, atol=1e-6)
            ratios.append(sign * float(flux[cells].mean()) * DUCT_AREA / rate)
    worst = max(abs(r - 1.0) for r in ratios) if ratios else math.inf
    temperature = np.asarray(run.fields["T"], dtype=float)
    drift = float(np.abs(temperature / inlet_t - 1.0).max())
    detail = {"mass_flow": rate, "sections": len(ratios), "worst_section_error": worst}
    detail |= {"inlet_temperature": inlet_t, "worst_temperature_drift": drift}
    problems = [] if worst <= MASS_TOLERANCE else [f"a section's mass flux is off by more than {MASS_TOLERANCE}"]
    if not drift <= TEMPERATURE_TOLERANCE:
        problems.append(f"a cell's temperature is off the inlet's by more than {TEMPERATURE_TOLERANCE}")
    return detail, problems


FAMILIES = {
    **{f"cavity-{i}": Family(draw_speed_viscosity, check_speed_viscosity) for i in range(1, 5)},
    **{f"pitzDaily-{i}": Family(draw_speed_viscosity, check_speed_viscosity) for i in range(1, 4)},
    **{f"cylinder-{i}": Family(draw_speed_viscosity, check_speed_viscosity) for i in range(1, 4)},
    **{f"squareBend-{i}": Family(draw_mass_flow, check_mass_flow) for i in range(1, 4)},
}
