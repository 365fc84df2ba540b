"""The rigid-motion checks (checks_motion.py) on hand-made states: trajectories that obey the physics (closed
forms, worked by hand) pass, ones that break it fail. No Genesis needed."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.suites.physics.checks import CHECKS, run_checks
from simcodebench.suites.physics.state import Entity, Scene, match_entity

G = 9.81
DT = 0.01
BALL = {"kind": "sphere", "radius": 0.1}


def rigid(t, pos, vel, quat=None, kind="sphere", size=None, index=1):
    quat = np.tile([1.0, 0.0, 0.0, 0.0], (len(t), 1)) if quat is None else quat
    size = {"radius": 0.1} if size is None else size
    return Entity(index, kind, "rigid", size, t=t, series={"pos": pos, "vel": vel, "quat": quat})


def scene(*entities, gravity=(0.0, 0.0, -G)):
    plane = Entity(0, "plane", "rigid", {}, fixed=True)
    return Scene(DT, np.asarray(gravity), len(entities[0].t), [plane, *entities])


def one(state, **spec):
    return run_checks(state, [spec])[0]


def projectile(vx=2.0, vz=2.0, g=G, drag=0.0, steps=120, radius=0.1):
    """A ball launched from z = radius; after touch-down it stays on the ground. ``drag`` slows vx linearly."""
    t = np.arange(steps) * DT
    flight = 2 * vz / g
    tf = np.minimum(t, flight)
    vx_t = vx - drag * tf
    x = vx * tf - 0.5 * drag * tf**2
    z = radius + vz * tf - 0.5 * g * tf**2
    pos = np.column_stack([x, np.zeros(steps), z])
    vel = np.column_stack([np.where(t < flight, vx_t, 0.0), np.zeros(steps), np.where(t < flight, vz - g * t, 0.0)])
    return scene(rigid(t, pos, vel), gravity=(0.0, 0.0, -g))


def quat_about_y(angle):
    return np.column_stack([np.cos(angle / 2), np.zeros_like(angle), np.sin(angle / 2), np.zeros_like(angle)])


def test_every_motion_check_is_registered():
    for name in ("ballistic_flight", "landing_distance", "slope_acceleration", "rolling_without_slipping"):
        assert name in CHECKS
    for name in ("momentum_conserved", "system_energy_not_growing", "final_velocity", "tilt_angle", "displacement"):
        assert name in CHECKS


def test_ballistic_flight_and_range_of_a_drag_free_projectile():
    # vx = 2, vz = 2: flight 2 vz / g = 0.408 s, range 2 vx vz / g = 0.8155 m
    good = projectile()
    assert one(good, check="ballistic_flight", object=BALL, horizontal_velocity=[2.0, 0.0]).passed
    assert one(good, check="landing_distance", object=BALL, distance=2 * 2.0 * 2.0 / G, rtol=0.05).passed
    assert not one(good, check="landing_distance", object=BALL, distance=1.2, rtol=0.05).passed
    # drag slows the horizontal velocity (by 1.2 m/s over the flight): not ballistic
    assert not one(projectile(drag=3.0), check="ballistic_flight", object=BALL, horizontal_velocity=[2.0, 0.0]).passed
    # the wrong gravity: vx fine, a_z = -50
    assert not one(projectile(g=50.0), check="ballistic_flight", object=BALL, horizontal_velocity=[2.0, 0.0]).passed
    # the wrong launch speed
    assert not one(good, check="ballistic_flight", object=BALL, horizontal_velocity=[3.0, 0.0]).passed


def sliding_down(a, angle_deg=30.0, steps=80):
    t = np.arange(steps) * DT
    down = np.array([np.cos(np.radians(angle_deg)), 0.0, -np.sin(np.radians(angle_deg))])
    s = 0.5 * a * t**2
    return scene(rigid(t, np.outer(s, down) + [0.0, 0.0, 1.0], np.outer(a * t, down))), down


def test_slope_acceleration_is_fitted_along_the_slope():
    expected = G * (np.sin(np.radians(30)) - 0.2 * np.cos(np.radians(30)))  # 3.206 m/s^2
    state, down = sliding_down(expected)
    spec = {"check": "slope_acceleration", "object": BALL, "direction": down.tolist(), "acceleration": expected}
    result = run_checks(state, [spec])[0]
    assert result.passed and result.value == pytest.approx(expected, rel=1e-6)
    frictionless, _ = sliding_down(G * 0.5)  # 4.905 m/s^2: no friction
    assert not run_checks(frictionless, [spec])[0].passed
    # a window: only the steps in [t_from, t_to]
    assert run_checks(state, [{**spec, "t_from": 0.2, "t_to": 0.5}])[0].passed
    assert not run_checks(state, [{**spec, "t_from": 0.9}])[0].passed  # no step left in the window


def rolling_ball(spin_ratio, v=1.0, radius=0.1, steps=60):
    """A ball moving at ``v`` along x, turning about y at ``spin_ratio * v / radius``."""
    t = np.arange(steps) * DT
    pos = np.column_stack([v * t, np.zeros(steps), np.full(steps, radius)])
    vel = np.tile([v, 0.0, 0.0], (steps, 1))
    return scene(rigid(t, pos, vel, quat=quat_about_y(spin_ratio * v / radius * t)))


def test_rolling_without_slipping_compares_spin_with_speed():
    spec = {"check": "rolling_without_slipping", "object": BALL, "radius": 0.1}
    rolled = run_checks(rolling_ball(1.0), [spec])[0]
    assert rolled.passed and rolled.value == pytest.approx(1.0, rel=1e-6)
    assert not run_checks(rolling_ball(0.0), [spec])[0].passed  # sliding, no spin
    assert not run_checks(rolling_ball(0.6), [spec])[0].passed  # slipping
    resting = rolling_ball(1.0, v=0.0)
    assert not run_checks(resting, [spec])[0].passed  # never moving: nothing to judge


def head_on(restitution, m1=1.0, m2=1.0, v0=1.0, steps=100, hit=50):
    """Two balls on the x axis: 1 at v0 hits 2 at rest at step ``hit`` (1-D collision law)."""
    t = np.arange(steps) * DT
    v1 = (m1 - restitution * m2) * v0 / (m1 + m2)
    v2 = (1 + restitution) * m1 * v0 / (m1 + m2)
    vel1 = np.where(np.arange(steps) < hit, v0, v1)
    vel2 = np.where(np.arange(steps) < hit, 0.0, v2)
    x1 = -1.0 + np.concatenate([[0.0], np.cumsum(vel1[:-1] * DT)])
    x2 = 0.0 + np.concatenate([[0.0], np.cumsum(vel2[:-1] * DT)])
    zeros = np.zeros(steps)
    balls = [
        rigid(t, np.column_stack([x, zeros, np.ones(steps)]), np.column_stack([v, zeros, zeros]), index=i + 1)
        for i, (x, v) in enumerate(((x1, vel1), (x2, vel2)))
    ]
    return scene(*balls, gravity=(0.0, 0.0, 0.0))


def pair(m1=1.0, m2=1.0):
    return [
        {"object": {**BALL, "near": [-1.0, 0.0, 1.0]}, "mass": m1},
        {"object": {**BALL, "near": [0.0, 0.0, 1.0]}, "mass": m2},
    ]


def test_momentum_and_energy_of_a_collision():
    # equal masses, e = 0.8: momentum kept, energy lost
    state = head_on(0.8)
    assert one(state, check="momentum_conserved", objects=pair(), axes=[0, 1, 2]).passed
    assert one(state, check="system_energy_not_growing", objects=pair()).passed
    # e = 1.3: momentum still kept (the law holds), energy created: caught by the energy check only
    state = head_on(1.3)
    assert one(state, check="momentum_conserved", objects=pair(), axes=[0, 1, 2]).passed
    assert not one(state, check="system_energy_not_growing", objects=pair()).passed
    # the wrong mass ratio declared (13:1 bodies that behaved as equal ones): momentum not conserved
    assert not one(head_on(0.8), check="momentum_conserved", objects=pair(13.0, 1.0)).passed
    # two declarations that match the same ball are refused
    same = [{"object": {**BALL, "near": [-1.0, 0.0, 1.0]}, "mass": 1.0}] * 2
    assert not one(state, check="momentum_conserved", objects=same).passed


def test_final_velocity_bounds_of_the_restitution():
    # 13:1 masses (steel on wood), e = 0.5: the light ball at (1 + e) m1 / (m1 + m2) = 1.393 m/s
    state = head_on(0.5, m1=13.0, m2=1.0)
    light = {**BALL, "near": [0.0, 0.0, 1.0]}
    assert one(state, check="final_velocity", object=light, min=0.93, max=1.86).passed
    # equal masses: 0.75 m/s, below what the 13:1 collision allows
    assert not one(head_on(0.5), check="final_velocity", object=light, min=0.93, max=1.86).passed


def tipping_box(final_deg, steps=100, fall_at=40):
    """A box rotating about y from upright to ``final_deg`` between steps ``fall_at`` and ``fall_at + 20``."""
    t = np.arange(steps) * DT
    angle = np.radians(final_deg) * np.clip((np.arange(steps) - fall_at) / 20, 0.0, 1.0)
    zeros = np.zeros((steps, 3))
    return scene(rigid(t, zeros + [0.0, 0.0, 0.2], zeros, quat_about_y(angle), kind="box", size={"size": [0.1] * 3}))


def test_tilt_angle_at_the_end_at_a_time_and_at_its_peak():
    box = {"kind": "box", "size": [0.1, 0.1, 0.1]}
    fallen = tipping_box(90.0)
    result = one(fallen, check="tilt_angle", object=box, min_deg=80.0)
    assert result.passed and result.value == pytest.approx(90.0, abs=1e-6)
    assert not one(tipping_box(4.0), check="tilt_angle", object=box, min_deg=80.0).passed
    assert one(fallen, check="tilt_angle", object=box, t=0.3, max_deg=1.0).passed  # still upright at 0.3 s
    assert not one(tipping_box(90.0, fall_at=10), check="tilt_angle", object=box, t=0.3, max_deg=1.0).passed
    # a block that rocks to 4 degrees and back: its peak, not its end
    rocking = tipping_box(4.0)
    rocking.entities[1].series["quat"][-30:] = [1.0, 0.0, 0.0, 0.0]
    assert one(rocking, check="tilt_angle", object=box, peak=True, min_deg=3.0, max_deg=5.0).passed
    assert not one(rocking, check="tilt_angle", object=box, min_deg=3.0, max_deg=5.0).passed  # upright at the end


def test_displacement_bounds():
    t = np.arange(50) * DT
    still = np.tile([0.0, 0.0, 0.1], (50, 1))
    moved = still + np.outer(t, [0.5, 0.0, 0.0])
    assert one(scene(rigid(t, still, still * 0)), check="displacement", object=BALL, max=0.01).passed
    assert not one(scene(rigid(t, moved, moved * 0)), check="displacement", object=BALL, max=0.01).passed
    assert one(scene(rigid(t, moved, moved * 0)), check="displacement", object=BALL, min=0.2).passed


def test_equal_bodies_are_told_apart_by_where_they_start():
    state = head_on(0.8)
    assert match_entity(state, {**BALL, "near": [0.1, 0.0, 1.0]}).index == 2
    assert match_entity(state, {**BALL, "near": [-0.9, 0.0, 1.0]}).index == 1
    assert match_entity(state, {"kind": "sphere", "radius": 0.3, "near": [0.0, 0.0, 1.0]}) is None  # size first
