"""Fresh supersonic foam cases (rhoCentralFoam): a new inflow Mach number, checked against shock theory.

The cases' gas is normalised (speed of sound 1 m/s at 1 K, gamma 1.4), so the inflow Mach number is
U / sqrt(T). Each draw is written into the problem text and title, the oracle's ``0/U`` and ``0/T`` (every
place the inlet state stands: the inlet, the initial field, an inletOutlet's inlet value) and the ``wrong-inlet``
mutant where it quotes the speed (1.6 times the new one, as the published mutants).

- wedge-1 ... -3 (15 degrees): the inlet speed in [4, 6] m/s at T = 1 K (the published Mach 4 to 6; from Mach 4
  up the ramp's shock leaves through the outlet before reaching the top, so nothing reflects). Check: the shock
  angle fitted to the run (the pressure's mid-level crossing in each column over the ramp, x in [0.05, 0.28] m)
  is the weak solution of the theta-beta-M relation within 2.5 degrees, and the mean pressure between the
  ramp and the shock is the Rankine-Hugoniot jump within 10%.
- obliqueShock-1 ... -3: the inlet speed in [2.5, 3.5] m/s at the family's inlet temperature and the flow's
  turn theta in [8, 13] degrees (the tutorial's Mach 2.9 and 10.94 degrees); the shock angle beta follows
  from the theta-beta-M relation, and the top boundary's velocity and temperature are the state behind that
  shock (these reproduce the tutorial's (2.61933, -0.50632) m/s and 1.25853 K). Over the whole range the shock
  meets the bottom within the domain and reflects regularly (the turn stays below the largest one the
  reflected shock can give). Check: the shock angle fitted to the run's upper half (the mid-level crossing in
  each row, y >= 0.5 m) within 2.5 degrees of beta, and the pressure behind it within 10% of the jump.
- forwardStep-1 ... -3: the inlet speed in [2.5, 3.2] m/s and temperature in [0.9, 1.2] K (the published 2.5 to
  3 m/s and 1 to 1.2 K; Mach 2.3 to 3.4). Check: the flow stagnates on the step's face (the largest pressure
  of the domain lies just upstream of it, x in (0.5, 0.6) m, below the step's top) at Rayleigh's pitot
  pressure, the stagnation pressure behind a normal shock, within 10%.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.suites.foam import gas_dynamics as gas
from simcodebench.suites.foam.dictionaries import set_in_patch
from simcodebench.suites.foam.fresh_common import (
    Family,
    oracle_text,
    patch_scalar,
    patch_vector,
    published_case,
    set_mutant_value,
)
from simcodebench.suites.foam.scorer import OracleRun

U_FILE, T_FILE, P_FILE = "0/U", "0/T", "0/p"
ANGLE_TOLERANCE_DEG, JUMP_TOLERANCE = 2.5, 0.10
"""The fitted shock angle's and the post-shock pressure's tolerances against the closed forms."""
PITOT_TOLERANCE = 0.10
WEDGE_DEG = 15.0
"""The wedge's half-angle: its ramp rises from (0, 0) to (0.3048, 0.08167) m (the tutorial's blockMeshDict)."""
WRONG_FACTOR = 1.6
WEDGE = {"inlet_speed": Param(4.0, 6.0, 3)}
OBLIQUE = {"inlet_speed": Param(2.5, 3.5, 2), "deflection_deg": Param(8.0, 13.0, 2)}
STEP = {"inlet_speed": Param(2.5, 3.2, 2), "inlet_temperature": Param(0.9, 1.2, 2)}


def _inlet(case: Case) -> tuple[float, float, float]:
    """The inlet's speed, temperature and pressure as the oracle's fields set them."""
    return (
        float(patch_vector(oracle_text(case, U_FILE), "inlet")[0]),
        patch_scalar(oracle_text(case, T_FILE), "inlet"),
        patch_scalar(oracle_text(case, P_FILE), "inlet"),
    )


def _new_inlet(family: Case, u: str, t: str | None) -> dict[str, str]:
    """The oracle's ``0/U`` (and ``0/T``) with every occurrence of the inlet state replaced."""
    old_u, old_t, _ = _inlet(family)
    files = {
        f"oracle/{U_FILE}": substitute(
            oracle_text(family, U_FILE), [(f"uniform ({number(old_u)} 0 0)", f"uniform ({u} 0 0)")], U_FILE
        )
    }
    if t is not None:
        edit = [(f"uniform {number(old_t)};", f"uniform {t};")]
        files[f"oracle/{T_FILE}"] = substitute(oracle_text(family, T_FILE), edit, T_FILE)
    return files


def _case(family: Case, phrases: list[tuple[str, str]], speed: float | None) -> dict[str, Any]:
    """The family's case mapping with ``phrases`` edited and, given the new ``speed``, its wrong inlet speed."""
    case = substitute_strings(published_case(family), phrases, str(family.folder / "case.yaml"))
    if speed is not None:
        set_mutant_value(case, "wrong-inlet", f"uniform ({number(round(WRONG_FACTOR * speed, 4))} 0 0)")
    return case


def draw_wedge(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new inflow speed (Mach number) of the 15-degree wedge."""
    drawn: dict[str, Any] = draw(rng, WEDGE)
    old = number(_inlet(family)[0])
    u = number(drawn["inlet_speed"])
    case = _case(family, [(f"velocity of {old} m/s", f"velocity of {u} m/s"), (f"U {old} m/s", f"U {u} m/s")], None)
    drawn["shock_angle_deg"] = round(math.degrees(gas.shock_angle(drawn["inlet_speed"], math.radians(WEDGE_DEG))), 3)
    return FreshDraw(case=case, files=_new_inlet(family, u, None), params=drawn, ranges=ranges(WEDGE))


def draw_oblique(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new inflow speed and turn of the oblique shock, the top boundary set to the state behind the shock."""
    drawn: dict[str, Any] = draw(rng, OBLIQUE)
    old_u, t_in, _ = _inlet(family)
    mach = drawn["inlet_speed"] / math.sqrt(t_in)
    beta = gas.shock_angle(mach, math.radians(drawn["deflection_deg"]))
    state = gas.oblique_shock(mach, beta)
    top_u, top_v = (round(drawn["inlet_speed"] * c, 5) for c in (state.u, state.v))
    top_t = round(t_in * state.temperature_ratio, 5)
    drawn.update(shock_angle_deg=round(math.degrees(beta), 3), top_velocity=[top_u, top_v], top_temperature=top_t)
    u_text, t_text = oracle_text(family, U_FILE), oracle_text(family, T_FILE)
    old_top, old_t = patch_vector(u_text, "top"), patch_scalar(t_text, "top")
    u = number(drawn["inlet_speed"])
    phrases = [
        (f"velocity of {number(old_u)} m/s", f"velocity of {u} m/s"),
        (f"U {number(old_u)} m/s", f"U {u} m/s"),
        (f"({number(old_top[0])}, {number(old_top[1])}, 0.0)", f"({number(top_u)}, {number(top_v)}, 0.0)"),
        (f"temperature of {number(old_t)} K", f"temperature of {number(top_t)} K"),
    ]
    files = _new_inlet(family, u, None)
    files[f"oracle/{U_FILE}"] = set_in_patch(
        files[f"oracle/{U_FILE}"], "top", "value", f"uniform ({number(top_u)} {number(top_v)} 0)"
    )
    files[f"oracle/{T_FILE}"] = set_in_patch(t_text, "top", "value", f"uniform {number(top_t)}")
    case = _case(family, phrases, drawn["inlet_speed"])
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(OBLIQUE))


def draw_step(family: Case, rng: np.random.Generator) -> FreshDraw:
    """A new inflow speed and temperature of the forward-facing step."""
    drawn: dict[str, Any] = draw(rng, STEP)
    old_u, old_t, _ = _inlet(family)
    u, t = number(drawn["inlet_speed"]), number(drawn["inlet_temperature"])
    inflow = "velocity of {u} m/s, a temperature of {t} K"
    phrases = [
        (inflow.format(u=number(old_u), t=number(old_t)), inflow.format(u=u, t=t)),
        (f"U {number(old_u)} m/s, T {number(old_t)} K", f"U {u} m/s, T {t} K"),
    ]
    drawn["mach"] = round(drawn["inlet_speed"] / math.sqrt(drawn["inlet_temperature"]), 4)
    case = _case(family, phrases, drawn["inlet_speed"])
    return FreshDraw(case=case, files=_new_inlet(family, u, t), params=drawn, ranges=ranges(STEP))


def _crossing(coord: np.ndarray, values: np.ndarray, level: float) -> float | None:
    """Where ``values`` (ordered along ``coord``) first rise through ``level``, linearly interpolated."""
    above = np.nonzero(values > level)[0]
    if len(above) == 0 or above[0] == 0:
        return None
    k = above[0]
    return float(coord[k - 1] + (level - values[k - 1]) / (values[k] - values[k - 1]) * (coord[k] - coord[k - 1]))


def _lines(run: OracleRun, along: int, keep: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """The cells in ``keep`` grouped by their coordinate ``1 - along`` (columns or rows), sorted along ``along``."""
    across = np.round(run.centres[:, 1 - along], 6)
    groups = []
    for value in np.unique(across[keep]):
        cells = np.nonzero(keep & (across == value))[0]
        groups.append((float(value), cells[np.argsort(run.centres[cells, along])]))
    return groups


def _verdict(beta_fit: float, beta: float, jump_fit: float, jump: float) -> list[str]:
    problems = []
    if not abs(beta_fit - beta) <= ANGLE_TOLERANCE_DEG:
        problems.append(f"the shock angle is {beta_fit:.3g} deg, theta-beta-M gives {beta:.3g}")
    if not abs(jump_fit / jump - 1.0) <= JUMP_TOLERANCE:
        problems.append(f"the pressure jump is {jump_fit:.3g}, Rankine-Hugoniot gives {jump:.3g}")
    return problems


def check_wedge(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """The ramp's shock: its fitted angle and the pressure behind it against the closed forms."""
    u, t, p_in = _inlet(case)
    theta = math.radians(WEDGE_DEG)
    beta = gas.shock_angle(u / math.sqrt(t), theta)
    jump = gas.oblique_shock(u / math.sqrt(t), beta).pressure_ratio
    x, y = run.centres[:, 0], run.centres[:, 1]
    p = np.asarray(run.fields["p"], dtype=float) / p_in
    points = []
    for column, cells in _lines(run, 1, (x >= 0.05) & (x <= 0.28)):
        top_down = cells[::-1]  # from the top (undisturbed) down to the ramp
        found = _crossing(-y[top_down], p[top_down], 0.5 * (1.0 + jump))
        if found is not None:
            points.append((column, -found))
    between = (x >= 0.05) & (x <= 0.28) & (y > x * math.tan(theta) + 0.005) & (y < x * math.tan(beta) - 0.02)
    if len(points) < 3 or not between.any():
        return {"shock_points": len(points)}, ["no shock found over the ramp"]
    slope = np.polyfit(*np.array(points).T, 1)[0]
    beta_fit, jump_fit = math.degrees(math.atan(slope)), float(p[between].mean())
    detail = {"mach": u / math.sqrt(t), "shock_angle_deg": math.degrees(beta), "fitted_angle_deg": beta_fit}
    detail |= {"pressure_jump": jump, "fitted_jump": jump_fit}
    return detail, _verdict(beta_fit, math.degrees(beta), jump_fit, jump)


def check_oblique(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """The shock from the top-left corner: its fitted angle and the pressure behind it, from theta-beta-M."""
    u, t, p_in = _inlet(case)
    top = patch_vector(oracle_text(case, U_FILE), "top")
    mach, theta = u / math.sqrt(t), math.atan2(-top[1], top[0])
    beta = gas.shock_angle(mach, theta)
    jump = gas.oblique_shock(mach, beta).pressure_ratio
    x, y = run.centres[:, 0], run.centres[:, 1]
    p = np.asarray(run.fields["p"], dtype=float) / p_in
    points = []
    for row, cells in _lines(run, 0, y >= 0.5):
        found = _crossing(x[cells], p[cells], 0.5 * (1.0 + jump))
        if found is not None:
            points.append((row, found))
    if len(points) < 3:
        return {"shock_points": len(points)}, ["no shock found in the upper half"]
    slope = np.polyfit(*np.array(points).T, 1)[0]  # dx/dy of the shock line
    incident = (1.0 - y) / math.tan(beta)
    between = (y >= 0.5) & (x > incident + 0.2) & (x < incident + 0.6)
    beta_fit, jump_fit = math.degrees(math.atan(-1.0 / slope)), float(p[between].mean())
    detail = {"mach": mach, "deflection_deg": math.degrees(theta), "shock_angle_deg": math.degrees(beta)}
    detail |= {"fitted_angle_deg": beta_fit, "pressure_jump": jump, "fitted_jump": jump_fit}
    return detail, _verdict(beta_fit, math.degrees(beta), jump_fit, jump)


def check_step(case: Case, run: OracleRun) -> tuple[dict[str, Any], list[str]]:
    """Stagnation on the step's face at the pitot pressure of the inflow."""
    u, t, p_in = _inlet(case)
    pitot = gas.pitot_pressure_ratio(u / math.sqrt(t))
    x, y = run.centres[:, 0], run.centres[:, 1]
    p = np.asarray(run.fields["p"], dtype=float) / p_in
    face = (x > 0.5) & (x < 0.6) & (y < 0.2)
    peak = int(np.argmax(p))
    detail = {"mach": u / math.sqrt(t), "pitot_ratio": pitot, "face_max_ratio": float(p[face].max())}
    detail["peak_at"] = [float(c) for c in run.centres[peak, :2]]
    problems = []
    if not face[peak]:
        problems.append("the largest pressure is not on the step's face")
    if not abs(detail["face_max_ratio"] / pitot - 1.0) <= PITOT_TOLERANCE:
        problems.append(f"the step's face is not at the pitot pressure (within {PITOT_TOLERANCE})")
    return detail, problems


FAMILIES = {
    **{f"wedge-{i}": Family(draw_wedge, check_wedge) for i in range(1, 4)},
    **{f"obliqueShock-{i}": Family(draw_oblique, check_oblique) for i in range(1, 4)},
    **{f"forwardStep-{i}": Family(draw_step, check_step) for i in range(1, 4)},
}
