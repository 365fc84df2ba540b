"""The particle-body checks (checks_particles.py) on hand-made states: one that obeys the stated physics passes,
one that breaks it fails (closed-form trajectories and shapes, no Genesis needed)."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.suites.physics.checks import run_checks
from simcodebench.suites.physics.state import Entity, Scene

G = 9.81
DT = 1.0 / 30.0
CUBE = {"kind": "box", "solver": "mpm", "size": [0.2, 0.2, 0.2]}


def particle_body(centroid, half_extent, solver="mpm", size=(0.2, 0.2, 0.2), count=1000):
    """A particle entity from its per-step centroid (n, 3) and half extent (n, 3): a box of particles."""
    steps = len(centroid)
    series = {
        "centroid": centroid,
        "lo": centroid - half_extent,
        "hi": centroid + half_extent,
        "count": np.full(steps, float(count)),
        "nonfinite": np.zeros(steps),
    }
    entity = Entity(1, "box", solver, {"size": list(size)}, t=np.arange(steps) * DT, series=series)
    plane = Entity(0, "plane", "rigid", {}, fixed=True)
    return Scene(DT, np.array([0.0, 0.0, -G]), steps, [plane, entity])


def bouncing_cube(restitution, flatten=1.0, g=G, h0=0.5, half=0.1, steps=60):
    """A cube dropped from centre height ``h0``: free fall, an impact that keeps ``restitution`` of the speed,
    after which its height is ``flatten`` times the original (its width grows to keep the volume)."""
    z, vz, shape = np.empty(steps), 0.0, np.tile([half, half, half], (steps, 1))
    height, landed = h0, False
    for k in range(steps):
        z[k] = height
        if landed:
            shape[k] = [half / np.sqrt(flatten), half / np.sqrt(flatten), half * flatten]
        height, vz = height + vz * DT - 0.5 * g * DT * DT, vz - g * DT
        floor = half * flatten if landed else half
        if height < floor:
            height, vz, landed = floor, restitution * abs(vz), True
    centroid = np.column_stack([np.zeros(steps), np.zeros(steps), z])
    return particle_body(centroid, shape)


def one(scene, **spec):
    return run_checks(scene, [spec])[0]


def test_bounce_fraction_tells_an_elastic_bounce_from_a_dead_landing():
    elastic = one(bouncing_cube(0.8), check="bounce_fraction", object=CUBE, min=0.3, max=1.0)
    # an impact keeping 80 % of the speed rebounds about 0.8^2 = 64 % of the fall
    assert elastic.passed and elastic.value == pytest.approx(0.64, abs=0.08)
    assert not one(bouncing_cube(0.05), check="bounce_fraction", object=CUBE, min=0.3, max=1.0).passed
    dead = one(bouncing_cube(0.05, flatten=0.5), check="bounce_fraction", object=CUBE, min=0.0, max=0.15)
    assert dead.passed and dead.value < 0.01
    assert not one(bouncing_cube(1.3), check="bounce_fraction", object=CUBE, min=0.3, max=1.0).passed  # gains energy
    hovering = particle_body(np.tile([0.0, 0.0, 0.5], (20, 1)), np.full((20, 3), 0.1))
    assert "never reached" in one(hovering, check="bounce_fraction", object=CUBE).detail


def test_extent_ratio_keeps_an_elastic_shape_and_flags_a_flattened_one():
    kept = one(bouncing_cube(0.8), check="extent_ratio", object=CUBE, axis="z", min=0.85, max=1.15)
    assert kept.passed and kept.value == pytest.approx(1.0)
    clay = bouncing_cube(0.0, flatten=0.4)
    assert not one(clay, check="extent_ratio", object=CUBE, axis="z", min=0.85, max=1.15).passed
    flat = one(clay, check="extent_ratio", object=CUBE, axis="z", min=0.1, max=0.8)
    assert flat.passed and flat.value == pytest.approx(0.4)
    wide = one(clay, check="extent_ratio", object=CUBE, axis="xy", min=1.2, max=4.0)
    assert wide.passed and wide.value == pytest.approx(1 / np.sqrt(0.4))  # volume kept: width grows as 1/sqrt
    assert "axis" in one(clay, check="extent_ratio", object=CUBE, axis="w").detail


def test_surface_height_reads_the_top_or_the_bottom_at_the_end():
    # water settling in a tank: the top falls from 0.3 m to the level 0.089 m (volume over floor area)
    steps = 30
    top = np.concatenate([np.linspace(0.3, 0.089, 20), np.full(10, 0.089)])
    centroid = np.column_stack([np.zeros(steps), np.zeros(steps), top / 2])
    half = np.column_stack([np.full(steps, 0.15), np.full(steps, 0.15), top / 2])
    scene = particle_body(centroid, half, solver="sph")
    water = {"kind": "box", "solver": "sph"}
    level = one(scene, check="surface_height", object=water, z=0.0889, atol=0.01)
    assert level.passed and level.value == pytest.approx(0.089)
    assert not one(scene, check="surface_height", object=water, z=0.15, atol=0.01).passed
    assert one(scene, check="surface_height", object=water, side="lo", z=0.0, atol=1e-9).passed
    assert not one(scene, check="surface_height", object=water, side="middle", z=0.0).passed


def dam_break(g=G, height=0.4, steps=30):
    """A surge whose front runs at 1.5 sqrt(g H) from rest, starting at x = -0.3 (front of a 0.2 m column)."""
    t = np.arange(steps) * DT
    front = -0.3 + 1.5 * np.sqrt(g * height) * t
    centroid = np.column_stack([(front - 0.5) / 2, np.zeros(steps), np.full(steps, 0.1)])
    half = np.column_stack([(front + 0.5) / 2, np.full(steps, 0.1), np.full(steps, 0.1)])
    return particle_body(centroid, half, solver="sph", size=(0.2, 0.2, 0.4))


def test_front_speed_is_bounded_by_the_ritter_speed():
    column = {"kind": "box", "solver": "sph", "size": [0.2, 0.2, 0.4]}
    spec = {"check": "front_speed", "object": column, "height": 0.4, "distance": 0.3, "min": 0.5, "max": 2.0}
    result = run_checks(dam_break(), [spec])[0]
    assert result.passed and result.value == pytest.approx(1.5, rel=1e-6)  # interpolated crossing time
    too_fast = run_checks(dam_break(g=50.0), [spec])[0]  # the same surge under 50 m/s^2: 1.5 sqrt(50/9.81)
    assert not too_fast.passed and too_fast.value == pytest.approx(1.5 * np.sqrt(50 / G), rel=1e-6)
    assert not run_checks(dam_break(g=1.0), [spec])[0].passed  # far too slow: 1.5 sqrt(1/9.81) = 0.48 sqrt(gH)
    stuck = run_checks(dam_break(g=1e-6), [spec])[0]
    assert not stuck.passed and "never" in stuck.detail


def test_particle_checks_refuse_a_rigid_body():
    t = np.arange(10) * DT
    ball = Entity(1, "box", "rigid", {"size": [0.2, 0.2, 0.2]}, t=t, series={"pos": np.zeros((10, 3))})
    scene = Scene(DT, np.array([0.0, 0.0, -G]), 10, [ball])
    for check in ("extent_ratio", "bounce_fraction", "surface_height", "front_speed"):
        result = one(scene, check=check, object={"kind": "box", "size": [0.2, 0.2, 0.2]}, z=0, height=1, distance=1)
        assert not result.passed and "rigid" in result.detail
