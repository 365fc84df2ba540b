"""Fresh supersonic foam cases (rhoCentralFoam): a new inflow Mach number and geometry, checked against shock theory.

The cases' gas is normalised (speed of sound 1 m/s at 1 K, gamma 1.4), so the inflow Mach number is
U / sqrt(T). Each draw is written into the problem text and title, the oracle's ``0/U`` and ``0/T`` (every
place the inlet state stands: the inlet, the initial field, an inletOutlet's inlet value) and the ``wrong-inlet``
mutant where it quotes the speed (1.6 times the new one, as the published mutants).

- wedge-1 ... -3: the wedge's angle in [10, 20] degrees (the published 15) and the inlet speed in [4, 6] m/s at
  T = 1 K (the published Mach 4 to 6). The domain follows the angle (:mod:`.supersonic_geometry`): the shock
  stays attached (the angle lies far below the detachment angle, 38.8 degrees at Mach 4) and leaves through the
  outlet below the top, which stands 5% above the steepest shock of the range (Mach 4's); the cells keep the
  tutorial's size. The ``blockMeshDict``'s vertices and cells and the problem text's geometry change together.
  Check: the shock angle fitted to the run (the pressure's mid-level crossing in each column over the ramp, x in
  [0.05, 0.28] m) is the weak solution of the theta-beta-M relation for the mesh's ramp angle within 2.5
  degrees, and the mean pressure between the ramp and the shock is the Rankine-Hugoniot jump within 10%.
- obliqueShock-1 ... -3: the inlet speed in [2.5, 3.5] m/s at the family's inlet temperature and the flow's
  turn theta in [8, 13] degrees (the tutorial's Mach 2.9 and 10.94 degrees); the shock angle beta follows
  from the theta-beta-M relation, and the top boundary's velocity and temperature are the state behind that
  shock (these reproduce the tutorial's (2.61933, -0.50632) m/s and 1.25853 K). Over the whole range the shock
  meets the bottom within the domain and reflects regularly (the turn stays below the largest one the
  reflected shock can give). Check: the shock angle fitted to the run's upper half (the mid-level crossing in
  each row, y >= 0.5 m) within 2.5 degrees of beta, and the pressure behind it within 10% of the jump.
- forwardStep-1 ... -3: the step's height in [0.1, 0.3] m (the published 0.2; the cells in y keep the
  tutorial's 0.05 m), the inlet speed in [2.5, 3.2] m/s and temperature in [0.9, 1.2] K (the published 2.5 to
  3 m/s and 1 to 1.2 K; Mach 2.3 to 3.4). Check: the flow stagnates on the step's face (the largest pressure
  ahead of the step lies just upstream of it, x in (0.5, 0.6) m, below the step's top; behind it the bow shock's
  reflection off the top may be higher for a tall step) at Rayleigh's pitot pressure, the stagnation pressure
  behind a normal shock, within 10%; and the bow shock stands inside the domain: along the bottom row the
  pressure rises through the normal shock's mid-level between the inlet and the step, and the inlet's cell
  keeps the inflow's pressure within 2% (its standoff from the face is reported).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute, substitute_strings
from simcodebench.suites.foam import gas_dynamics as gas
from simcodebench.suites.foam import supersonic_geometry as geometry
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

U_FILE, T_FILE, P_FILE, MESH = "0/U", "0/T", "0/p", "system/blockMeshDict"
ANGLE_TOLERANCE_DEG, JUMP_TOLERANCE = 2.5, 0.10
"""The fitted shock angle's and the post-shock pressure's tolerances against the closed forms."""
PITOT_TOLERANCE, INLET_SLACK = 0.10, 0.02
"""The step face's pressure against the pitot pressure; the inlet cells' pressure against the inflow's."""
WRONG_FACTOR = 1.6
WEDGE = {"wedge_deg": Param(10.0, 20.0, 1), "inlet_speed": Param(geometry.WEDGE_MACH_FLOOR, 6.0, 3)}
PUBLISHED_WEDGE = "15"
PUBLISHED_WEDGE_MESH = (
    "y from 0 to 0.1524 m; the wedge's surface rises at 15 degrees from (0, 0) to (0.3048, 0.08167) m) with its"
    " two blocks coarsened to 20 x 20 and 40 x 20 cells"
)
WEDGE_MESH_TEXT = (
    "y from 0 to {top} m; the wedge's surface rises at {theta} degrees from (0, 0) to (0.3048, {ramp}) m) with its"
    " two blocks of 20 x {ny} and 40 x {ny} cells"
)
"""The published wedge's geometry in its problem text, and the drawn one's (the ``blockMeshDict`` it states)."""
OBLIQUE = {"inlet_speed": Param(2.5, 3.5, 2), "deflection_deg": Param(8.0, 13.0, 2)}
STEP = {"step_height": Param(0.1, 0.3, 2), "inlet_speed": Param(2.5, 3.2, 2), "inlet_temperature": Param(0.9, 1.2, 2)}
PUBLISHED_STEP_MESH = (
    "a step of height 0.2 m starting at x = 0.6 m) with its three blocks coarsened to 12 x 4, 12 x 16 and 48 x 16"
)
STEP_MESH_TEXT = (
    "a step of height {h} m starting at x = 0.6 m) with its three blocks of 12 x {low}, 12 x {high} and 48 x {high}"
)
"""The published step's geometry in its problem text, and the drawn one's (the ``blockMeshDict`` it states)."""


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
    """A new wedge angle (with the domain and cells to match) and inflow speed (Mach number) of the wedge."""
    return wedge_case(family, draw(rng, WEDGE))


def wedge_case(family: Case, drawn: dict[str, Any]) -> FreshDraw:
    """The wedge case of the numbers ``drawn`` (``wedge_deg``, ``inlet_speed``; the corners of the ranges too)."""
    drawn = dict(drawn)
    shape = geometry.wedge_geometry(drawn["wedge_deg"])
    old, u, theta = number(_inlet(family)[0]), number(drawn["inlet_speed"]), number(drawn["wedge_deg"])
    top, ramp, ny = number(shape.top_y), number(shape.ramp_y), shape.ny
    phrases = [
        (f"velocity of {old} m/s", f"velocity of {u} m/s"),
        (f"U {old} m/s", f"U {u} m/s"),
        (f"Wedge ({PUBLISHED_WEDGE} degrees)", f"Wedge ({theta} degrees)"),
        (f"over a {PUBLISHED_WEDGE}-degree wedge", f"over a wedge of {theta} degrees"),
        ("Use the geometry of the wedge15Ma5 tutorial (", "Use the block layout of the wedge15Ma5 tutorial ("),
        (PUBLISHED_WEDGE_MESH, WEDGE_MESH_TEXT.format(top=top, theta=theta, ramp=ramp, ny=ny)),
    ]
    case = _case(family, phrases, None)
    files = _new_inlet(family, u, None)
    files[f"oracle/{MESH}"] = geometry.wedge_mesh(oracle_text(family, MESH), shape)
    theta_rad = geometry.ramp_angle(files[f"oracle/{MESH}"])
    drawn |= {"ramp_end_y": shape.ramp_y, "top_y": shape.top_y, "cells_y": ny}
    drawn["shock_angle_deg"] = round(math.degrees(gas.shock_angle(drawn["inlet_speed"], theta_rad)), 3)
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(WEDGE))


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
    """A new step height (with the cells to match) and inflow speed and temperature of the forward-facing step."""
    return step_case(family, draw(rng, STEP))


def step_case(family: Case, drawn: dict[str, Any]) -> FreshDraw:
    """The forward-step case of the numbers ``drawn`` (``step_height``, ``inlet_speed``, ``inlet_temperature``)."""
    drawn = dict(drawn)
    old_u, old_t, _ = _inlet(family)
    u, t, h = number(drawn["inlet_speed"]), number(drawn["inlet_temperature"]), number(drawn["step_height"])
    low, high = geometry.step_cells(drawn["step_height"])
    inflow = "velocity of {u} m/s, a temperature of {t} K"
    phrases = [
        (inflow.format(u=number(old_u), t=number(old_t)), inflow.format(u=u, t=t)),
        (f"U {number(old_u)} m/s, T {number(old_t)} K", f"U {u} m/s, T {t} K"),
        ("Use the geometry of the forwardStep tutorial (", "Use the block layout of the forwardStep tutorial ("),
        (PUBLISHED_STEP_MESH, STEP_MESH_TEXT.format(h=h, low=low, high=high)),
    ]
    drawn["mach"] = round(drawn["inlet_speed"] / math.sqrt(drawn["inlet_temperature"]), 4)
    drawn["cells_y"] = [low, high]
    case = _case(family, phrases, drawn["inlet_speed"])
    files = _new_inlet(family, u, t)
    files[f"oracle/{MESH}"] = geometry.step_mesh(oracle_text(family, MESH), drawn["step_height"])
    return FreshDraw(case=case, files=files, params=drawn, ranges=ranges(STEP))


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
    theta = geometry.ramp_angle(oracle_text(case, MESH))
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
    detail = {"mach": u / math.sqrt(t), "wedge_deg": math.degrees(theta), "shock_angle_deg": math.degrees(beta)}
    detail["fitted_angle_deg"] = beta_fit
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
    """Stagnation on the step's face at the pitot pressure of the inflow, behind a bow shock inside the domain."""
    u, t, p_in = _inlet(case)
    mach, height = u / math.sqrt(t), geometry.step_height(oracle_text(case, MESH))
    pitot = gas.pitot_pressure_ratio(mach)
    normal = gas.oblique_shock(mach, math.pi / 2).pressure_ratio
    x, y = run.centres[:, 0], run.centres[:, 1]
    p = np.asarray(run.fields["p"], dtype=float) / p_in
    face = (x > geometry.STEP_X - 2 * geometry.STEP_CELL) & (x < geometry.STEP_X) & (y < height)
    ahead = np.nonzero(x < geometry.STEP_X)[0]  # behind the step, the bow shock's reflection off the top may be higher
    peak = int(ahead[np.argmax(p[ahead])])
    detail = {"mach": mach, "step_height": height, "pitot_ratio": pitot, "face_max_ratio": float(p[face].max())}
    detail["peak_at"] = [float(c) for c in run.centres[peak, :2]]
    _, bottom = _lines(run, 0, y < height)[0]  # the lowest row of cells, from the inlet to the step's face
    shock = _crossing(x[bottom], p[bottom], 0.5 * (1.0 + normal))
    detail["inlet_ratio"] = float(p[bottom[0]])
    problems = []
    if not face[peak]:
        problems.append("the largest pressure ahead of the step is not on its face")
    if not abs(detail["face_max_ratio"] / pitot - 1.0) <= PITOT_TOLERANCE:
        problems.append(f"the step's face is not at the pitot pressure (within {PITOT_TOLERANCE})")
    if shock is None or not abs(detail["inlet_ratio"] - 1.0) <= INLET_SLACK:
        problems.append("the bow shock does not stand between the inlet and the step (the inlet's cells are disturbed)")
    else:
        detail |= {"shock_x": shock, "standoff": geometry.STEP_X - shock}
        detail["standoff_over_height"] = detail["standoff"] / height
    return detail, problems


FAMILIES = {
    **{f"wedge-{i}": Family(draw_wedge, check_wedge) for i in range(1, 4)},
    **{f"obliqueShock-{i}": Family(draw_oblique, check_oblique) for i in range(1, 4)},
    **{f"forwardStep-{i}": Family(draw_step, check_step) for i in range(1, 4)},
}
