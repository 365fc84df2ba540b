"""Fresh physics scenes: draws are seeded, in range and new; the checks follow the drawn numbers by their closed
forms (checked against the published cases' own hand-worked values); the parameter-level verification runs the
oracle against a recording stand-in for Genesis and drops a scene whose oracle, closed forms or checks do not
match the draw, that cannot run as stated, or whose motion outlasts the smoke video. The plastic drops' bounds,
measured by Genesis in their verification, are derived here from hand-made recordings. No Genesis run here."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.core.cases import get_case, load_suite_cases
from simcodebench.core.fresh import out_of_range
from simcodebench.core.project import cases_root
from simcodebench.suites.physics import fresh, fresh_float, fresh_plastic, fresh_verify, scorer
from simcodebench.suites.physics.checks import CHECKS
from simcodebench.suites.physics.plugin import PhysicsSuite
from simcodebench.suites.physics.scene_probe import probe
from simcodebench.suites.physics.state import Entity, Scene


def _draw(family: str, seed: int = 11):
    draw = fresh.fresh_draw(get_case("physics", family), np.random.default_rng(seed))
    assert draw is not None
    return draw


def _written(tmp_path: Path, family: str, case: dict[str, Any], files: dict[str, str], index: int = 0):
    return write_case(tmp_path, "physics", f"{family}-fresh{index}", case, files)


def _with_params(case: dict[str, Any], **changes: Any) -> dict[str, Any]:
    hidden = {**case["hidden"], "reference": {**case["hidden"]["reference"]}}
    hidden["reference"]["params"] = {**hidden["reference"]["params"], **changes}
    return {**case, "hidden": hidden}


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_a_draw_is_seeded_in_range_new_kept_and_mutable(family: str, tmp_path: Path) -> None:
    published = get_case("physics", family)
    one, two, other = _draw(family), _draw(family), _draw(family, 12)
    assert one == two and one.params != other.params
    assert out_of_range(one.params, one.ranges) == []
    for slot in fresh.FAMILIES[family].materials:
        key = "density" if slot == "material" else f"{slot}_density"
        assert fresh.MATERIALS[one.params[slot]] == one.params[key]
        assert one.params[slot] in one.case["visible"]["problem"]
    assert one.case["visible"]["problem"] != published.visible.problem
    assert one.files["oracle.py"] != (published.folder / "oracle.py").read_text()
    for name, args in one.case["hidden"].get("mutants", {}).items():  # the case's own mutants quote the fresh oracle
        if "old" in args:
            assert args["old"] in one.files["oracle.py"], name
    case = _written(tmp_path, family, one.case, one.files)
    check = fresh_verify.verify(case, tmp_path)
    assert check.ok, check.detail
    # every check is known, and every mutant builds from the fresh oracle and changes it
    assert all(spec["check"] in CHECKS for spec in case.hidden.scoring["checks"])
    oracle = scorer.oracle_source(case)
    for index, name in enumerate(mutant_names(case)):
        assert build_mutant(case, index, None).source != oracle, name


def test_the_probe_reads_the_published_scenes_as_their_texts_say() -> None:
    ball = probe((get_case("physics", "ball_drop").folder / "oracle.py").read_text()).flat()
    assert ball["body1.morph"] == "Sphere" and ball["body1.radius"] == 0.1 and ball["body1.pos"] == [0.0, 0.0, 1.0]
    assert ball["body1.material.rho"] == 7850.0 and ball["SimOptions.gravity"] == [0.0, 0.0, -9.81]
    block = probe((get_case("physics", "block_slide").folder / "oracle.py").read_text()).flat()
    assert block["body0.material.friction"] == 0.3 and block["body1.velocity"] == [2.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    # the block on the 30 degree plank: its centre 0.9 m up the slope from the plank's centre (0, 0, 0.6) and
    # 0.025 + 0.05 m out of the plank's middle plane, worked by hand
    slope = probe((get_case("physics", "incline_block_slide").folder / "oracle.py").read_text()).flat()
    expected = [-0.9 * math.cos(math.pi / 6) + 0.075 * 0.5, 0.0, 0.6 + 0.9 * 0.5 + 0.075 * math.cos(math.pi / 6)]
    assert slope["body2.pos"] == pytest.approx(expected) and slope["body2.euler"] == [0.0, 30.0, 0.0]
    assert slope["steps"] == 300  # 5 s at 60 fps


# The published cases' hand-worked values (their case.yaml comments) from their own numbers: the families'
# closed forms must give them back, to 0.1 %.
BALL_ON_WOOD = {"ball": "steel", "ball_density": 7850.0, "cube": "oak", "cube_density": 700.0}
PUBLISHED = [
    ("incline_block_slide", {"angle_deg": 30.0, "mu": 0.2, "start": 0.9}, {"acceleration": 3.2059}),
    ("ball_roll_incline", {"angle_deg": 20.0, "mu": 0.8, "start": 0.9, "radius": 0.1}, {"acceleration": 2.3965}),
    (
        "cylinder_roll_incline",
        {"angle_deg": 20.0, "mu": 0.8, "start": 0.9, "radius": 0.1, "length": 0.3},
        {"acceleration": 2.2368},
    ),
    ("projectile_ball", {"v0": 4.0, "angle_deg": 45.0}, {"vx": 2.8284, "range": 1.631, "flight_time": 0.5766}),
    ("projectile_table", {"v0": 2.0, "height": 1.0}, {"range": 0.8801}),
    ("puck_slide_ice", {"v0": 0.9, "mu": 0.1}, {"distance": 0.4128}),
    ("ball_drop_moon", {"world": "the Moon", "radius": 0.1, "drop_height": 0.5}, {"g": 1.62}),
    ("ball_sink", {"radius": 0.06, "water_depth": 0.15, "drop_height": 0.45}, {"resting": 0.06, "density_ratio": 7.85}),
    # the MPM domain's top 10 cm above the body, to the next 5 cm, as the published oracles have it
    ("jelly_drop", {"size": 0.2, "drop_height": 0.5}, {"domain_top": 0.7}),
    ("jelly_drop_stiff", {"size": 0.15, "drop_height": 0.6}, {"domain_top": 0.8}),
    ("rubber_ball_high", {"radius": 0.08, "drop_height": 0.7}, {"domain_top": 0.9}),
    ("clay_drop", {"size": 0.2, "drop_height": 0.5}, {"domain_top": 0.7}),
    ("snow_drop_high", {"size": 0.2, "drop_height": 0.8}, {"domain_top": 1.0}),
    # the published layer's 1.4-1.75 and the surge's 3-6 and 4-9, now scaled with the geometry
    ("water_drop_tank", {"size": 0.2, "tank_side": 0.3, "drop_height": 0.45}, {"spread": [1.4, 1.75]}),
    (
        "dam_break",
        {"column_length": 0.2, "column_height": 0.4},
        {"ritter_front_speed": 3.96, "front_distance": 0.3, "surge": [3.0, 6.0]},
    ),
    ("water_drop_tank_mpm", {"size": 0.2, "tank_side": 0.3, "drop_height": 0.45}, {"spread": [1.3, 1.8]}),
    (
        "dam_break_low",
        {"column_length": 0.3, "column_height": 0.2},
        {"ritter_front_speed": 2.8, "front_distance": 0.3, "surge": [2.0, 4.5]},
    ),
    (
        "dam_break_tall",
        {"column_length": 0.16, "column_height": 0.5},
        {"ritter_front_speed": 4.43, "front_distance": 0.4, "surge": [4.0, 9.0]},
    ),
    (
        "incline_stick_slip",
        {"angle_deg": 20.0, "mu_ptfe": 0.1, "mu_rubber": 0.7, "start": 0.8},
        {"acceleration": 2.4333, "centre_height": 0.45},
    ),
    (
        "block_collision_slide",
        {"v0": 2.0, "mu": 0.3, "gap": 0.4, "density": 500.0},  # its comment rounds the slides to 0.070 and 0.280
        {"impact_speed": 1.283, "mass": 4.0, "struck_slide": [0.0699, 0.2796], "striker_travel": [0.40, 0.47]},
    ),
    (
        "sphere_collision_glancing",
        {"radius": 0.1, "v0": 1.0, "offset_ratio": 1.0, "target_x": 0.2, "density": 7850.0},
        {"mass": 32.882, "line_of_centres_deg": -30.0, "target_vx": [0.375, 0.75], "target_vy": [-0.433, -0.2165]},
    ),
    (
        "box_tip_over",
        {"width": 0.1, "height": 0.4, "omega_ratio": 3.0 / 1.4599},
        {"omega": 3.0, "critical_omega": 1.46},
    ),
    (
        "box_rock_back",
        {"width": 0.1, "height": 0.4, "omega_ratio": 1.0 / 1.4599},
        {"omega": 1.0, "peak_tilt_deg": 3.82},
    ),
    ("ball_on_box", {"side": 0.3, "radius": 0.05, "drop_height": 1.0, **BALL_ON_WOOD}, {"resting": 0.35}),
    (
        "stack_drop",
        {"side": 0.2, "gap": 0.1, "clearance": 0.4},
        {"heights": [0.5, 0.8, 1.1], "resting": [0.1, 0.3, 0.5]},
    ),
    ("block_slide", {"v0": 2.0, "mu": 0.3, "side": 0.2}, {"distance": 0.6796}),
    (
        "sphere_collision_unequal",
        {"radius": 0.1, "v0": 1.0, "target_x": 0.3, "heavy_density": 7850.0, "light_density": 600.0},
        {"mass_striker": 32.882, "mass_target": 2.5133, "target_v": [0.929, 1.858], "striker_v": [0.858, 0.929]},
    ),
    (
        "sphere_collision_space",
        {"radius": 0.1, "v0": 1.0, "target_x": 0.3, "density": 7850.0},
        {"mass_striker": 32.882, "target_v": [0.5, 1.0], "striker_v": [0.0, 0.5], "contact_time": 0.6},
    ),
]


@pytest.mark.parametrize(("family", "numbers", "worked"), PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_the_closed_forms_give_the_published_values(family: str, numbers: dict, worked: dict) -> None:
    materials = {"material": "steel", "density": 7850.0, "heavy": "steel", "light": "oak", **numbers}
    reference = fresh.FAMILIES[family].reference(materials)
    for key, value in worked.items():
        assert reference[key] == pytest.approx(value, rel=1e-3, abs=1e-4), key


def test_the_checks_follow_the_draw() -> None:
    d = _draw("incline_block_slide").case["hidden"]["reference"]["params"]
    checks = {c["check"]: c for c in _draw("incline_block_slide").case["hidden"]["scoring"]["checks"]}
    q = math.radians(d["angle_deg"])
    assert checks["slope_acceleration"]["acceleration"] == pytest.approx(
        9.81 * (math.sin(q) - d["mu"] * math.cos(q)), abs=1e-4
    )
    assert checks["slope_acceleration"]["direction"] == pytest.approx([math.cos(q), 0.0, -math.sin(q)], abs=1e-4)
    throw = _draw("projectile_table").case["hidden"]
    p = throw["reference"]["params"]
    landing = next(c for c in throw["scoring"]["checks"] if c["check"] == "landing_distance")
    assert landing["distance"] == pytest.approx(p["v0"] * math.sqrt(2 * (p["height"] - 0.05) / 9.81), abs=1e-4)
    hit = _draw("sphere_collision_unequal").case["hidden"]
    p = hit["reference"]["params"]
    m1 = p["heavy_density"] * 4 / 3 * math.pi * p["radius"] ** 3
    m2 = p["light_density"] * 4 / 3 * math.pi * p["radius"] ** 3
    target, striker = (c for c in hit["scoring"]["checks"] if c["check"] == "final_velocity")
    margin = 0.02 * p["v0"]
    assert target["min"] == pytest.approx(m1 * p["v0"] / (m1 + m2) - margin, abs=2e-4)
    assert target["max"] == pytest.approx(2 * m1 * p["v0"] / (m1 + m2) + margin, abs=2e-4)
    assert striker["min"] == pytest.approx((m1 - m2) * p["v0"] / (m1 + m2) - margin, abs=2e-4)
    assert target["object"]["near"] == [p["target_x"], 0.0, 1.0]


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_verification_drops_a_stale_oracle_and_the_published_checks(family: str, tmp_path: Path) -> None:
    published = get_case("physics", family)
    draw = _draw(family)
    stale = {"oracle.py": (published.folder / "oracle.py").read_text()}
    check = fresh_verify.verify(_written(tmp_path, family, draw.case, stale), tmp_path)
    assert not check.ok and "the oracle's body" in check.detail["reason"]
    wrong = {**draw.case, "hidden": {**draw.case["hidden"], "scoring": dict(draw.case["hidden"]["scoring"])}}
    wrong["hidden"]["scoring"]["checks"] = published.hidden.scoring["checks"]
    check = fresh_verify.verify(_written(tmp_path, family, wrong, draw.files, 1), tmp_path)
    assert not check.ok and "its closed form is" in check.detail["reason"]


def test_verification_drops_wrong_closed_forms_and_scenes_that_cannot_run(tmp_path: Path) -> None:
    slope = _draw("incline_block_slide")
    params = slope.case["hidden"]["reference"]["params"]
    # a reference acceleration that is not g (sin q - mu cos q)
    wrong = _with_params(slope.case, acceleration=params["acceleration"] + 0.1)
    check = fresh_verify.verify(_written(tmp_path, "incline_block_slide", wrong, slope.files), tmp_path)
    assert not check.ok and "reference acceleration" in check.detail["reason"]
    # one number of the oracle's scene changed: the block's tilt no longer the plank's
    angle = repr(float(params["angle_deg"]))
    tampered = slope.files["oracle.py"].replace(
        f"on_slope(-{params['start']}, 0.05), euler=(0.0, {angle}",
        "on_slope(-{}, 0.05), euler=(0.0, 0.0".format(params["start"]),
    )
    assert tampered != slope.files["oracle.py"]
    check = fresh_verify.verify(
        _written(tmp_path, "incline_block_slide", slope.case, {"oracle.py": tampered}, 1), tmp_path
    )
    assert not check.ok and "body2.euler" in check.detail["reason"]
    # friction above tan q: the block would not slide (the whole case recomputed for mu = 0.8 stays consistent)
    family = fresh.FAMILIES["incline_block_slide"]
    assert family.problems(family.reference({**params, "mu": 0.8}))
    # a puck on slow ice: it would still be sliding when the smoke video is 80% over
    puck = _draw("puck_slide_ice")
    slow = _with_params(puck.case, mu=0.05)
    check = fresh_verify.verify(_written(tmp_path, "puck_slide_ice", slow, puck.files, 2), tmp_path)
    assert not check.ok and "the motion takes" in check.detail["reason"]
    # a striker barely heavier than its target is dropped (the text calls it heavy)
    hit = fresh.FAMILIES["sphere_collision_unequal"]
    light = {"radius": 0.1, "v0": 1.0, "target_x": 0.3, "heavy": "granite", "heavy_density": 2650.0}
    assert hit.problems(hit.reference({**light, "light": "polyethylene", "light_density": 950.0}))


@pytest.mark.parametrize("family", ["domino_chain", "ball_on_jelly"])
def test_a_scaled_family_at_scale_one_is_the_published_case(family: str) -> None:
    """Geometric similarity is the identity at s = 1: the published case's checks and scene come back."""
    published = get_case("physics", family)
    spec = fresh.FAMILIES[family]
    params = spec.reference({"scale": 1.0, "material": "oak", "density": 700.0})
    assert spec.checks(params) == published.hidden.scoring["checks"]
    built = probe((published.folder / "oracle.py").read_text()).flat()
    for key, value in spec.scene(params).items():
        assert fresh_verify.same(built[key], value), key


def test_the_scaled_checks_scale_lengths_by_s_and_times_by_its_root() -> None:
    # worked by hand: dominoes at s = 0.64 are 12.8 cm tall, 6.4 cm apart, the last standing at 0.4 x 0.8 s
    domino = fresh.FAMILIES["domino_chain"]
    p = domino.reference({"scale": 0.64, "material": "pine", "density": 500.0})
    checks = domino.checks(p)
    assert checks[5]["object"] == {"kind": "box", "size": [0.0128, 0.0512, 0.128], "near": [0.256, 0.0, 0.064]}
    assert checks[6]["t"] == 0.32 and checks[6]["max_deg"] == 5.0
    assert checks[1]["object"]["near"] == [0.0, 0.0, round(0.064 * math.cos(math.radians(20)) + 0.0064 * 0.342, 4)]
    assert domino.settle_s(p) == pytest.approx(0.66 * 0.8, abs=1e-3)
    # a slab at s = 0.81: E 16.2 kPa (rho g L / E kept), grid 32 / 0.81 per m, 1800 / 0.9 = 2000 substeps per
    # second rounded up to a multiple of 60 (the smoke and full frame rates divide it)
    jelly = fresh.FAMILIES["ball_on_jelly"]
    q = jelly.reference({"scale": 0.81})
    assert q["youngs_modulus"] == 16200.0 and q["substeps_per_s"] == 2040
    assert q["grid_density"] == pytest.approx(32 / 0.81, abs=1e-6)
    floor = next(c for c in jelly.checks(q) if c.get("floor"))
    assert floor["floor"] == pytest.approx(0.0243) and floor["object"]["radius"] == pytest.approx(0.0405)


def test_verification_drops_an_unscaled_row_of_dominoes(tmp_path: Path) -> None:
    draw = _draw("domino_chain")
    spacing = draw.case["hidden"]["reference"]["params"]["spacing"]
    old = f", {spacing}\n"
    tampered = draw.files["oracle.py"].replace(old, ", 0.1\n")
    assert tampered != draw.files["oracle.py"]
    check = fresh_verify.verify(_written(tmp_path, "domino_chain", draw.case, {"oracle.py": tampered}), tmp_path)
    assert not check.ok and "body3.pos" in check.detail["reason"]


def test_the_floating_ball_follows_archimedes_in_the_water_genesis_settles_into() -> None:
    spec = fresh.FAMILIES["ball_float"]
    pine = {"radius": 0.06, "water_depth": 0.15, "drop_height": 0.45, "material": "pine", "density": 500.0}
    p = spec.reference(pine)
    # by hand: half as dense as water, it sinks to its equator (d = r), and the level rises by 2/3 pi r^3 / 0.16 m^2
    assert p["floating_ideal"] == pytest.approx(0.15 + 2 / 3 * math.pi * 0.06**3 / 0.16, abs=1e-4)
    # the settled pool: 3200 particles of 0.8 x 1000 x 0.02^3 kg over 0.16 m^2, 0.0957 m deep
    assert fresh_float.settled_density() == pytest.approx(128.0 / 0.0957)
    # the Genesis runs (benchmarks/results/fresh-variants-physics.md): the published pine ball at 0.108 m, an oak
    # ball r 6.5 cm at 0.098 m, a pine ball r 6.7 cm in water stated 17 cm deep at 0.109 m
    assert p["floating_settled"] == pytest.approx(0.108, abs=5e-4)
    oak = spec.reference({**pine, "radius": 0.065, "material": "oak", "density": 700.0})
    deep = spec.reference({**pine, "radius": 0.067, "water_depth": 0.17})
    assert oak["floating_settled"] == pytest.approx(0.098, abs=2e-3)
    assert deep["floating_settled"] == pytest.approx(0.109, abs=2e-3)
    # the check spans both waters, the published 5 cm about the ideal and 2 cm below the settled prediction
    low, high = p["resting"] - p["resting_atol"], p["resting"] + p["resting_atol"]
    assert low == pytest.approx(0.108 - 0.02, abs=2e-4) and high == pytest.approx(p["floating_ideal"] + 0.05, abs=2e-4)
    # water sampled with another number of layers is other water; a heavy ball's bound would pass a sunken one
    assert spec.problems(spec.reference({**pine, "water_depth": 0.13}))
    assert spec.problems(spec.reference({**pine, "radius": 0.07, "material": "oak", "density": 700.0}))


def test_every_published_scene_has_a_generator() -> None:
    published = {case.id for case in load_suite_cases(cases_root() / "physics", None)}
    assert set(fresh.FAMILIES) == published


# --- plastic drops: bounds set from a measured run (fresh_plastic) ---------------------------------------------


def _flattening(
    size: float, drop_height: float, ratio: float, creep: float = 0.0, spread: float | None = None, steps: int = 30
) -> Scene:
    """A hand-made recording of a cube of side ``size`` dropped from centre height ``drop_height`` at 30 fps:
    free fall at g, a dead landing, then its height ``ratio`` times the initial and its width ``spread`` times
    (default: grown to keep the volume), its height shrinking by ``creep`` more over the rest of the run (a body
    still moving at the end)."""
    dt, half = 1.0 / 30.0, size / 2
    z, half_extent, height, vz, landed_at = np.empty(steps), np.tile([half] * 3, (steps, 1)), drop_height, 0.0, None
    for k in range(steps):
        if landed_at is not None:
            r = ratio - creep * (k - landed_at) / (steps - landed_at)
            wide = half * (spread if spread is not None else 1 / np.sqrt(r))
            half_extent[k] = [wide, wide, half * r]
            height = half * r
        z[k] = height
        if landed_at is None:
            height, vz = height + vz * dt - 0.5 * 9.81 * dt * dt, vz - 9.81 * dt
            if height < half:
                landed_at = k + 1
    centroid = np.column_stack([np.zeros(steps), np.zeros(steps), z])
    series = {
        "centroid": centroid,
        "lo": centroid - half_extent,
        "hi": centroid + half_extent,
        "count": np.full(steps, 1000.0),
        "nonfinite": np.zeros(steps),
    }
    body = Entity(1, "box", "mpm", {"size": [size] * 3}, t=np.arange(steps) * dt, series=series)
    return Scene(dt, np.array([0.0, 0.0, -9.81]), steps, [Entity(0, "plane", "rigid", {}, fixed=True), body])


PLASTIC = ("clay_drop", "clay_drop_low", "snow_drop", "snow_drop_high")


@pytest.mark.parametrize("family", PLASTIC)
def test_plastic_bounds_scale_the_published_margins(family: str) -> None:
    published = get_case("physics", family)
    declared = {
        c["axis"]: (c["min"], c["max"]) for c in published.hidden.scoring["checks"] if c["check"] == "extent_ratio"
    }
    reference = fresh_plastic.PUBLISHED[family]
    assert reference.published == declared  # the margins are taken from the case's own bounds
    for axis, (low, high) in declared.items():
        assert low < reference.value[axis] < high  # the published scene passes its own check
        # the published value gives the published bounds back; a ratio 10 % higher, bounds 10 % higher (clipped)
        assert fresh_plastic.bounds(reference.value[axis], family, axis) == (low, high)
        band_low, band_high = fresh_plastic.BANDS[fresh_plastic.material(family)][axis]
        up = fresh_plastic.bounds(1.1 * reference.value[axis], family, axis)
        assert up == (max(round(1.1 * low, 3), band_low), min(round(1.1 * high, 3), band_high))


def test_plastic_predictions_and_bounds_by_hand() -> None:
    # linear in the drop height through the material's two published points: clay 0.70 at 0.35 m, 0.57 at 0.5 m
    assert fresh_plastic.predicted("clay_drop", "z", 0.41) == 0.65  # 0.70 - 0.13 x 0.06 / 0.15 = 0.648
    assert fresh_plastic.predicted("clay_drop_low", "xy", 0.425) == 2.0  # 1.84 + 0.32 / 2
    assert fresh_plastic.predicted("snow_drop", "z", 0.62) == 0.85  # 0.87 - 0.05 x 0.12 / 0.3
    assert fresh_plastic.predicted("snow_drop_high", "z", 0.9) == 0.80  # past 0.8 m: 0.82 - 0.05 / 3
    assert fresh_plastic.predicted("clay_drop", "z", 0.5) == 0.57  # the published points themselves
    # snow from 50 cm: a fresh block predicted at 0.80 gets the published 0.7-0.97 times 0.80 / 0.87
    assert fresh_plastic.bounds(0.80, "snow_drop", "z") == (0.644, 0.892)
    # clay's lower bound is clipped to the material's band: 0.1 x 0.12 / 0.57 would be below 0.1
    assert fresh_plastic.bounds(0.12, "clay_drop", "z")[0] == 0.1


def test_plastic_measurements_flatten_more_from_higher() -> None:
    # the measured reference's sanity: the same material flattens (compacts) more from the higher drop
    measured = fresh_plastic.PUBLISHED
    assert measured["clay_drop"].value["z"] < measured["clay_drop_low"].value["z"]
    assert measured["clay_drop"].value["xy"] > measured["clay_drop_low"].value["xy"]
    assert measured["snow_drop_high"].value["z"] < measured["snow_drop"].value["z"]


@pytest.mark.parametrize("family", ["clay_drop", "snow_drop_high"])
def test_plastic_verification_keeps_a_run_that_bears_the_prediction_out(
    family: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    draw = _draw(family)
    p = draw.case["hidden"]["reference"]["params"]
    assert p["predicted_z"] == fresh_plastic.predicted(family, "z", p["drop_height"])
    extent = {c["axis"]: c for c in draw.case["hidden"]["scoring"]["checks"] if c["check"] == "extent_ratio"}
    assert (extent["z"]["min"], extent["z"]["max"]) == fresh_plastic.bounds(p["predicted_z"], family, "z")
    # a run 5 % off the prediction (the sampling's scatter): kept, the case untouched
    ratio, spread = 1.05 * p["predicted_z"], 0.95 * p.get("predicted_xy", 1.0)
    run = _flattening(p["size"], p["drop_height"], ratio, spread=spread)
    monkeypatch.setattr(scorer, "run_oracle", lambda case, workdir: run)
    case = _written(tmp_path, family, draw.case, draw.files)
    before = (case.folder / "case.yaml").read_bytes()
    check = PhysicsSuite().verify_fresh_case(case, tmp_path)
    assert check.ok, check.detail
    assert (case.folder / "case.yaml").read_bytes() == before and "genesis_run" in check.detail
    if family == "clay_drop":  # clay's spread is gated too: 20 % under its prediction, dropped
        narrow = _flattening(p["size"], p["drop_height"], ratio, spread=0.8 * p["predicted_xy"])
        monkeypatch.setattr(scorer, "run_oracle", lambda case, workdir: narrow)
        check = PhysicsSuite().verify_fresh_case(case, tmp_path)
        assert not check.ok and "the xy ratio" in check.detail["reason"]


def test_plastic_verification_drops_runs_that_do_not_behave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draw = _draw("snow_drop")
    p = draw.case["hidden"]["reference"]["params"]
    cases = {
        "outside the snow band": _flattening(p["size"], p["drop_height"], 0.5),  # snow does not flatten to 0.5
        "off its prediction": _flattening(p["size"], p["drop_height"], 0.8 * p["predicted_z"]),
        "still moving": _flattening(p["size"], p["drop_height"], p["predicted_z"], creep=0.2),
        "particles_kept fails": _flattening(p["size"], p["drop_height"], p["predicted_z"]),
    }
    cases["particles_kept fails"].entities[1].series["count"][-5:] = 900.0  # material lost
    for index, (why, scene) in enumerate(cases.items()):
        monkeypatch.setattr(scorer, "run_oracle", lambda case, workdir, scene=scene: scene)
        case = _written(tmp_path, "snow_drop", draw.case, draw.files, index)
        check = PhysicsSuite().verify_fresh_case(case, tmp_path)
        assert not check.ok and why.split(" fails")[0] in check.detail["reason"], (why, check.detail)
    # a failed Genesis run drops the draw too
    monkeypatch.setattr(scorer, "run_oracle", lambda case, workdir: "the oracle's Genesis run ended error")
    check = PhysicsSuite().verify_fresh_case(_written(tmp_path, "snow_drop", draw.case, draw.files, 9), tmp_path)
    assert not check.ok and "Genesis run ended" in check.detail["reason"]
