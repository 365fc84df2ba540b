"""Fresh foam cases: every family's draw changes its numbers everywhere the published case names them (text,
title, oracle files, the mutants that quote them) and stays in its ranges; the shock relations match published
values; OpenFOAM's run of a fresh oracle is kept when it passes its family's physics, and dropped when it does
not (a blown-up run, or fields perturbed away from the physics)."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import FreshDraw, out_of_range
from simcodebench.suites.foam import fresh, scorer
from simcodebench.suites.foam import gas_dynamics as gas
from simcodebench.suites.foam.fresh_common import patch_scalar, patch_vector

ONE_PER_FAMILY = (
    "cavity-1",
    "pitzDaily-2",
    "cylinder-3",
    "squareBend-1",
    "wedge-1",
    "obliqueShock-3",
    "forwardStep-3",
    "damBreak-2",
)


def _draw(case_id: str, seed: int = 11) -> FreshDraw:
    draw = fresh.fresh_draw(get_case("foam", case_id), np.random.default_rng(seed))
    assert draw is not None
    return draw


@pytest.mark.parametrize("case_id", sorted(fresh.FAMILIES))
def test_every_draw_is_seeded_in_range_and_new(case_id: str) -> None:
    published = get_case("foam", case_id)
    one, two, other = _draw(case_id), _draw(case_id), _draw(case_id, 12)
    assert one == two and one.case != other.case
    assert out_of_range(one.params, one.ranges) == [] and set(one.ranges) <= set(one.params)
    assert one.case["visible"]["problem"] != published.visible.problem and one.case["title"] != published.title
    assert "alternative" not in one.case["hidden"]  # the second solution keeps the published numbers
    assert any(text != (published.folder / name).read_text() for name, text in one.files.items())


def _speed(text: str, patch: str) -> str:
    return f"{patch_vector(text, patch)[0]:g}"


@pytest.mark.parametrize(("case_id", "patch", "phrase"), [
    ("cavity-2", "movingWall", "moves at {u} m/s"),
    ("pitzDaily-3", "inlet", "inlet velocity of {u} m/s"),
    ("cylinder-2", "left", "fixed velocity of {u} m/s"),
])  # fmt: skip
def test_speed_and_viscosity_stand_everywhere(case_id: str, patch: str, phrase: str) -> None:
    draw = _draw(case_id)
    speed_name = next(k for k in draw.params if k.endswith("_speed"))
    u, nu = f"{draw.params[speed_name]:g}", f"{draw.params['nu']:.2g}"
    assert draw.params["nu"] == pytest.approx(10 ** draw.params["nu_exponent"], rel=0.05)
    problem = draw.case["visible"]["problem"]
    assert phrase.format(u=u) in problem and f"nu = {nu} m^2/s" in problem and f"{u} m/s, nu {nu}" in draw.case["title"]
    assert _speed(draw.files["oracle/0/U"], patch) == u
    assert re.search(rf"^nu\s+{nu};", draw.files["oracle/constant/transportProperties"], re.M)
    assert draw.case["hidden"]["mutants"]["wrong-inlet"]["value"] == f"uniform ({2 * draw.params[speed_name]:g} 0 0)"


def test_the_mass_flow_and_temperature_stand_in_text_title_inlet_and_mutant() -> None:
    draw = _draw("squareBend-2", 12)
    m, t = f"{draw.params['mass_flow']:g}", f"{draw.params['inlet_temperature']:g}"
    assert t != "1000"  # the published temperature: this seed's draw moves it
    problem = draw.case["visible"]["problem"]
    assert (
        f"mass flow rate of {m} kg/s, T = {t} K" in problem
        and f"Initial state: U = 0, p = 110000 Pa, T = {t} K" in problem
    )
    assert draw.case["title"].endswith(f"mass flow {m} kg/s")
    assert re.search(rf"massFlowRate\s+constant {m};", draw.files["oracle/0/U"])
    assert re.search(rf"^internalField\s+uniform {t};", draw.files["oracle/0/T"], re.M)
    assert draw.case["hidden"]["mutants"]["wrong-inlet"]["value"] == f"uniform {draw.params['inlet_temperature'] / 2:g}"


def test_the_supersonic_inflow_stands_everywhere() -> None:
    wedge = _draw("wedge-2")
    u = f"{wedge.params['inlet_speed']:g}"
    assert wedge.files["oracle/0/U"].count(f"uniform ({u} 0 0)") == 2  # the inlet and the initial field
    assert f"inlet velocity of {u} m/s" in wedge.case["visible"]["problem"]
    assert wedge.case["hidden"]["mutants"]["wrong-inlet"]["value"] == "uniform 0.5"  # a temperature: unchanged
    step = _draw("forwardStep-2")
    u, t = f"{step.params['inlet_speed']:g}", f"{step.params['inlet_temperature']:g}"
    assert (
        step.files["oracle/0/U"].count(f"uniform ({u} 0 0)") == 4
        and step.files["oracle/0/T"].count(f"uniform {t};") == 4
    )
    assert f"velocity of {u} m/s, a temperature of {t} K" in step.case["visible"]["problem"]
    assert (
        step.case["hidden"]["mutants"]["wrong-inlet"]["value"]
        == f"uniform ({1.6 * step.params['inlet_speed']:.4g} 0 0)"
    )


def test_the_oblique_shock_top_state_is_the_state_behind_the_drawn_shock() -> None:
    draw = _draw("obliqueShock-3")  # inlet T 1.1 K: the Mach number is U / sqrt(1.1)
    top_u = patch_vector(draw.files["oracle/0/U"], "top")
    top_t = patch_scalar(draw.files["oracle/0/T"], "top")
    u = draw.params["inlet_speed"]
    assert math.degrees(math.atan2(-top_u[1], top_u[0])) == pytest.approx(draw.params["deflection_deg"], abs=1e-3)
    mach_after = math.hypot(*top_u[:2]) / math.sqrt(top_t)
    mach = u / math.sqrt(1.1)
    beta = gas.shock_angle(mach, math.radians(draw.params["deflection_deg"]))
    assert math.degrees(beta) == pytest.approx(draw.params["shock_angle_deg"], abs=1e-3)
    state = gas.oblique_shock(mach, beta)
    assert mach_after == pytest.approx(state.mach, abs=1e-4) and top_t == pytest.approx(
        1.1 * state.temperature_ratio, abs=1e-5
    )
    problem = draw.case["visible"]["problem"]
    assert f"top velocity of ({top_u[0]:g}, {top_u[1]:g}, 0.0) m/s" in problem
    assert f"top boundary temperature of {top_t:g} K" in problem and "inlet temperature of 1.1 K" in problem


def test_the_water_column_and_viscosity_stand_everywhere() -> None:
    draw = _draw("damBreak-1")
    w, h, nu = (f"{draw.params[k]:g}" for k in ("width", "height", "nu"))
    assert f"box (0 0 -1) ({w} {h} 1);" in draw.files["oracle/system/setFieldsDict"]
    assert f"to ({w}, {h}, 1) with water" in draw.case["visible"]["problem"]
    assert f"Water: nu = {nu} m^2/s" in draw.case["visible"]["problem"]
    assert f"water column {w} x {h} m, nu {nu}" == draw.case["title"].split(", ", 2)[-1]
    water = draw.files["oracle/constant/transportProperties"].split("water", 2)[-1]
    assert re.search(rf"nu\s+{nu};", water.split("}")[0])


def test_shock_relations_match_published_values() -> None:
    # Yee, Warming and Harten's reflected shock (the obliqueShock tutorial): Mach 2.9, shock at 29 degrees, behind
    # it u = 2.61933, v = -0.50632 (inlet speed 2.9) and T = 1.25853 (the tutorial rounds u down in its last digit).
    state = gas.oblique_shock(2.9, math.radians(29.0))
    assert (2.9 * state.u, 2.9 * state.v, state.temperature_ratio) == pytest.approx(
        (2.61933, -0.50632, 1.25853), abs=2e-5
    )
    assert math.degrees(gas.shock_angle(2.9, state.theta)) == pytest.approx(29.0)
    # NACA 1135 (Ames Research Staff, 1953): Mach 2 turned 10 degrees: beta 39.31; the largest turn at Mach 2,
    # 22.97 degrees; and the pitot ratio at Mach 2, 5.640.
    assert math.degrees(gas.shock_angle(2.0, math.radians(10.0))) == pytest.approx(39.31, abs=0.01)
    assert math.degrees(gas.max_deflection(2.0)[0]) == pytest.approx(22.97, abs=0.01)
    assert gas.pitot_pressure_ratio(2.0) == pytest.approx(5.640, abs=1e-3)
    with pytest.raises(ValueError, match="no attached oblique shock"):
        gas.shock_angle(2.0, math.radians(25.0))


def test_imported_cases_have_no_generator(tmp_path: Path) -> None:
    published = get_case("foam", "pitzDaily-1")
    elsewhere = write_case(
        tmp_path, "foam", "pitzDaily-1", _draw("pitzDaily-1").case, {}, published
    )  # suite foam-fresh
    assert fresh.fresh_draw(elsewhere, np.random.default_rng(1)) is None


PERTURBED = {  # each family's fields moved the way a wrong physics would move them; its check must refuse each
    "cavity-1": (lambda f: {**f, "U": 5.0 * f["U"]},),  # faster than the lid
    "pitzDaily-2": (lambda f: {**f, "U": np.abs(f["U"])},),  # no backflow behind the step
    "cylinder-3": (lambda f: {**f, "U": 0.6 * f["U"]},),  # slower than the inflow beside the cylinder
    "squareBend-1": (
        lambda f: {**f, "rho": 1.05 * f["rho"]},  # 5% more mass through every section
        lambda f: {**f, "T": f["T"] + np.where(f["T"] > np.median(f["T"]), 40.0, 0.0)},  # heated in part
    ),
    "wedge-1": (lambda f: {**f, "p": 1.0 + 1.3 * (f["p"] - 1.0)},),  # a stronger shock
    "obliqueShock-3": (lambda f: {**f, "p": 1.0 + 0.7 * (f["p"] - 1.0)},),  # a weaker shock
    "forwardStep-3": (
        lambda f: {**f, "p": 1.2 * f["p"]},  # above the pitot pressure
        lambda f: {**f, "p": np.where(np.arange(len(f["p"])) == 0, 1.5, 1.0) * f["p"]},  # the bow shock at the inlet
    ),  # (blockMesh numbers the inlet's bottom cell 0)
    "damBreak-2": (lambda f: {**f, "alpha.water": 0.98 * f["alpha.water"]},),  # 2% of the water lost
}


@pytest.fixture(scope="module")
def fresh_runs(tmp_path_factory, openfoam_env):
    """One fresh draw of each family, written as a case, and OpenFOAM's run of its oracle."""
    tmp = tmp_path_factory.mktemp("fresh-foam")
    runs = {}
    for case_id in PERTURBED:
        draw = _draw(case_id)
        case = write_case(tmp, "foam", f"{case_id}-fresh0", draw.case, draw.files, get_case("foam", case_id))
        runs[case_id] = (case, scorer.run_oracle(case, fresh.FAMILIES[case_id].fields))
    return runs


@pytest.mark.parametrize("case_id", sorted(PERTURBED))
def test_each_family_check_keeps_the_run_and_refuses_wrong_physics(case_id: str, fresh_runs) -> None:
    case, run = fresh_runs[case_id]
    check = fresh.FAMILIES[case_id].check
    detail, problems = check(case, run)
    assert problems == [], detail
    fields = {k: np.asarray(v, dtype=float) for k, v in run.fields.items()}
    for perturb in PERTURBED[case_id]:
        detail, problems = check(case, replace(run, fields=perturb(fields)))
        assert problems, detail


def test_the_wedge_check_follows_the_drawn_angle(fresh_runs) -> None:
    case, run = fresh_runs["wedge-1"]
    published = get_case("foam", "wedge-1")  # 15 degrees; the draw's wedge is 11.3
    assert abs(_draw("wedge-1").params["wedge_deg"] - 15.0) > 3.0
    detail, problems = fresh.FAMILIES["wedge-1"].check(published, run)
    assert any("shock angle" in problem or "pressure jump" in problem for problem in problems), detail


def test_a_fresh_run_is_kept_and_a_blown_up_one_dropped(tmp_path: Path, fresh_runs, monkeypatch) -> None:
    case, run = fresh_runs["wedge-1"]
    with monkeypatch.context() as patch:  # the module's run of this very oracle, not a second one
        patch.setattr(scorer, "run_oracle", lambda *_: run)
        check = fresh.verify(case, tmp_path)
    assert check.ok, check.detail
    assert check.detail["last_time"] == check.detail["end_time"]
    assert abs(check.detail["fitted_angle_deg"] - check.detail["shock_angle_deg"]) <= 2.5
    published, draw = get_case("foam", "wedge-1"), _draw("wedge-1")
    control = (published.folder / "oracle" / "system" / "controlDict").read_text()
    unstable = {
        **draw.files,
        "oracle/system/controlDict": re.sub(r"^deltaT\s+\S+;", "deltaT 0.01;", control, flags=re.M),
    }
    check = fresh.verify(write_case(tmp_path, "foam", "wedge-1-fresh1", draw.case, unstable, published), tmp_path)
    assert not check.ok and check.detail["reason"].startswith("the reference run failed")
