"""Every physics check of the physics suite on hand-made states: one that obeys the physics passes, one that
breaks it fails (closed-form trajectories, no Genesis needed)."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.suites.physics.checks import CHECKS, physics_score, run_checks
from simcodebench.suites.physics.state import Entity, Scene, match_entity, parse_recording

G = 9.81
DT = 0.01
BALL = {"kind": "sphere", "radius": 0.1}


def _rigid(kind, size, t, pos, vel, quat=None, index=1):
    quat = np.tile([1.0, 0.0, 0.0, 0.0], (len(t), 1)) if quat is None else quat
    return Entity(index, kind, "rigid", size, t=t, series={"pos": pos, "vel": vel, "quat": quat})


def _scene(*entities, gravity=(0.0, 0.0, -G)):
    plane = Entity(0, "plane", "rigid", {}, fixed=True)
    return Scene(DT, np.asarray(gravity), len(entities[0].t), [plane, *entities])


def bouncing_ball(restitution=0.7, g=G, h0=1.0, radius=0.1, steps=400):
    """A ball dropped from centre height ``h0`` bouncing with ``restitution`` (exact event integration)."""
    t = np.arange(steps) * DT
    z, vz = np.empty(steps), np.empty(steps)
    height, speed = h0, 0.0
    for k in range(steps):
        z[k], vz[k] = height, speed
        height_new = height + speed * DT - 0.5 * g * DT * DT
        if height_new >= radius:
            height, speed = height_new, speed - g * DT
            continue
        hit = (speed + np.sqrt(max(speed**2 + 2 * g * (height - radius), 0.0))) / g  # impact within the step
        after, rest = -restitution * (speed - g * hit), DT - hit
        if after < g * DT:  # too slow to leave the floor again: at rest
            height, speed = radius, 0.0
            continue
        height, speed = radius + after * rest - 0.5 * g * rest**2, after - g * rest
    pos = np.column_stack([np.zeros(steps), np.zeros(steps), z])
    vel = np.column_stack([np.zeros(steps), np.zeros(steps), vz])
    return _scene(_rigid("sphere", {"radius": radius}, t, pos, vel))


def sliding_block(mu=0.3, v0=2.0, steps=200):
    t = np.arange(steps) * DT
    stop = v0 / (mu * G)
    tc = np.minimum(t, stop)
    x = v0 * tc - 0.5 * mu * G * tc**2
    vx = np.where(t < stop, v0 - mu * G * t, 0.0)
    pos = np.column_stack([x, np.zeros(steps), np.full(steps, 0.05)])
    vel = np.column_stack([vx, np.zeros(steps), np.zeros(steps)])
    return _scene(_rigid("box", {"size": [0.1, 0.1, 0.1]}, t, pos, vel))


def fluid_block(count=1000, lose=0, nan=0, steps=50):
    t = np.arange(steps) * DT
    counts = np.full(steps, count, dtype=float)
    counts[steps // 2 :] -= lose
    nonfinite = np.zeros(steps)
    nonfinite[-1] = nan
    lo = np.tile([-0.2, -0.2, 0.0], (steps, 1))
    hi = np.tile([0.2, 0.2, 0.4], (steps, 1))
    centroid = (lo + hi) / 2
    series = {"centroid": centroid, "lo": lo, "hi": hi, "count": counts, "nonfinite": nonfinite}
    return _scene(Entity(1, "box", "sph", {"size": [0.4, 0.4, 0.4]}, t=t, series=series))


def one(scene, **spec):
    return run_checks(scene, [spec])[0]


def test_fall_acceleration_matches_gravity_and_fails_at_fifty():
    result = one(bouncing_ball(), check="fall_acceleration", object=BALL)
    assert result.passed and result.value == pytest.approx(-G, rel=1e-6)
    assert not one(bouncing_ball(g=50.0), check="fall_acceleration", object=BALL).passed


def test_resting_height_and_penetration():
    scene = bouncing_ball(restitution=0.3, steps=600)
    assert one(scene, check="resting_height", object=BALL, z=0.1, atol=0.01).passed
    assert not one(scene, check="resting_height", object=BALL, z=0.3, atol=0.01).passed
    assert one(scene, check="no_penetration", object=BALL).passed
    sunk = bouncing_ball(radius=0.1)
    sunk.entities[1].series["pos"][-50:, 2] = 0.05  # 5 cm into the floor
    result = one(sunk, check="no_penetration", object=BALL)
    assert not result.passed and result.value == pytest.approx(-0.05)


def test_box_penetration_uses_its_orientation():
    t = np.arange(10) * DT
    pos = np.tile([0.0, 0.0, 0.05 * np.sqrt(2)], (10, 1))
    angle = np.pi / 4  # rolled 45 degrees about x: the lowest edge is 0.05*sqrt(2) below the centre
    quat = np.tile([np.cos(angle / 2), np.sin(angle / 2), 0.0, 0.0], (10, 1))
    box = _rigid("box", {"size": [0.1, 0.1, 0.1]}, t, pos, np.zeros((10, 3)), quat)
    spec = {"kind": "box", "size": [0.1, 0.1, 0.1]}
    assert one(_scene(box), check="no_penetration", object=spec, atol=1e-6).passed
    box.series["pos"][:, 2] = 0.05  # upright height while tilted: the edge is 2 cm under the floor
    assert not one(_scene(box), check="no_penetration", object=spec, atol=0.01).passed


@pytest.mark.parametrize(
    ("angle", "centre", "lowest"),
    [
        (0.0, 0.0125, 0.0),  # a puck lying flat (radius 3.8 cm, height 2.5 cm) rests on its face at h / 2
        (np.pi / 2, 0.038, 0.0),  # rolled onto its side, it rests on its rim at r
        (np.pi / 4, 0.05, 0.05 - 0.0125 * np.sqrt(0.5) - 0.038 * np.sqrt(0.5)),  # tilted: h/2 cos + r sin below
    ],
)
def test_cylinder_penetration_uses_its_axis(angle, centre, lowest):
    """A cylinder's lowest point is h/2 |cos q| + r sin q below its centre for its axis q from the vertical (by
    hand for the three tilts), not its radius: a flat puck is not 2.6 cm under the ice."""
    from simcodebench.suites.physics.check_common import lowest_point

    t = np.arange(10) * DT
    quat = np.tile([np.cos(angle / 2), np.sin(angle / 2), 0.0, 0.0], (10, 1))
    size = {"radius": 0.038, "height": 0.025}
    puck = _rigid("cylinder", size, t, np.tile([0.0, 0.0, centre], (10, 1)), np.zeros((10, 3)), quat)
    assert lowest_point(puck) == pytest.approx(np.full(10, lowest), abs=1e-12)
    spec = {"kind": "cylinder", **size}
    assert one(_scene(puck), check="no_penetration", object=spec, atol=1e-6).passed
    puck.series["pos"][:, 2] = centre - lowest - 0.02  # its lowest point 2 cm under the floor
    assert not one(_scene(puck), check="no_penetration", object=spec, atol=0.01).passed


def test_rebound_height_follows_restitution_and_flags_more_than_one():
    spec = {"check": "rebound_height", "object": BALL, "drop_height": 0.9, "restitution": 0.7}
    result = run_checks(bouncing_ball(0.7), [spec])[0]
    assert result.passed and result.value == pytest.approx(0.9 * 0.49, rel=0.05)
    assert not run_checks(bouncing_ball(1.2), [spec])[0].passed
    assert not run_checks(bouncing_ball(0.2), [spec])[0].passed


def test_energy_grows_only_with_a_restitution_above_one():
    assert one(bouncing_ball(0.7), check="energy_not_growing", object=BALL).passed
    assert one(bouncing_ball(1.0), check="energy_not_growing", object=BALL).passed
    result = one(bouncing_ball(1.3), check="energy_not_growing", object=BALL)
    assert not result.passed and result.value > 1.0


def test_sliding_distance_is_v0_squared_over_two_mu_g():
    spec = {"kind": "box", "size": [0.1, 0.1, 0.1]}
    expected = 2.0**2 / (2 * 0.3 * G)
    result = one(sliding_block(), check="sliding_distance", object=spec, distance=expected)
    assert result.passed and result.value == pytest.approx(expected, rel=1e-3)
    assert not one(sliding_block(mu=0.05), check="sliding_distance", object=spec, distance=expected).passed


def test_particles_kept_counts_losses_nans_and_escapes():
    spec = {"check": "particles_kept", "object": {"kind": "box", "solver": "sph", "size": [0.4, 0.4, 0.4]}}
    assert run_checks(fluid_block(), [spec])[0].passed
    assert "count" in run_checks(fluid_block(lose=10), [spec])[0].detail
    assert "non-finite" in run_checks(fluid_block(nan=3), [spec])[0].detail
    boxed = {**spec, "bounds": [[-0.1, -1, -1], [1, 1, 1]]}
    assert "left the box" in run_checks(fluid_block(), [boxed])[0].detail


def test_no_nan_and_the_score():
    scene = bouncing_ball()
    assert one(scene, check="no_nan").passed
    scene.entities[1].series["vel"][100:, 2] = np.nan
    assert not one(scene, check="no_nan").passed
    results = run_checks(bouncing_ball(), [{"check": "no_nan"}, {"check": "fall_acceleration", "object": BALL}])
    assert physics_score(results) == 100.0
    results = run_checks(bouncing_ball(g=50), [{"check": "no_nan"}, {"check": "fall_acceleration", "object": BALL}])
    assert physics_score(results) == 50.0


def test_entities_are_matched_by_kind_and_size_not_order():
    t = np.arange(5) * DT
    small = _rigid("sphere", {"radius": 0.05}, t, np.zeros((5, 3)), np.zeros((5, 3)), index=1)
    large = _rigid("sphere", {"radius": 0.2}, t, np.zeros((5, 3)), np.zeros((5, 3)), index=2)
    cube = _rigid("box", {"size": [0.2, 0.2, 0.2]}, t, np.zeros((5, 3)), np.zeros((5, 3)), index=3)
    scene = _scene(large, cube, small)
    assert match_entity(scene, {"kind": "sphere", "radius": 0.05}).index == 1
    assert match_entity(scene, {"kind": "sphere", "radius": 0.21}).index == 2
    assert match_entity(scene, {"kind": "box", "size": [0.2, 0.2, 0.2]}).index == 3
    assert match_entity(scene, {"kind": "sphere", "radius": 0.5}) is None
    assert match_entity(scene, {"kind": "plane"}) is None  # fixed entities never match


def test_no_scene_fails_every_check_and_unknown_checks_are_named():
    assert not run_checks(None, [{"check": "no_nan"}])[0].passed
    with pytest.raises(KeyError, match="known"):
        run_checks(bouncing_ball(), [{"check": "momentum"}])
    assert set(CHECKS) >= {"fall_acceleration", "rebound_height", "particles_kept", "energy_not_growing"}


def test_a_recording_parses_from_the_runners_json():
    data = {
        "backend": "cpu",
        "scenes": [
            {"dt": 0.01, "gravity": [0, 0, -9.81], "steps": 0, "entities": []},
            {
                "dt": 0.01,
                "gravity": [0, 0, -9.81],
                "steps": 2,
                "entities": [
                    {"index": 0, "kind": "plane", "solver": "rigid", "fixed": True},
                    {
                        "index": 1,
                        "kind": "sphere",
                        "solver": "rigid",
                        "size": {"radius": 0.1},
                        "t": [0.01, 0.02],
                        "series": {"pos": [[0, 0, 1], [0, 0, 0.999]], "vel": [[0, 0, 0], [0, 0, -0.1]]},
                    },
                ],
            },
        ],
    }
    scene = parse_recording(data).main_scene()
    assert scene.steps == 2 and scene.entities[1].series["pos"].shape == (2, 3)
    assert parse_recording({"backend": "cpu", "scenes": []}).main_scene() is None
