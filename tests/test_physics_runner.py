"""The physics runner on real Genesis (one session for the whole test session, small scenes): the backend the
harness picks, the recorded state, and the oracles, the second solutions and their mutants on physics@smoke, scored."""

from __future__ import annotations

import numpy as np
import pytest
from physics_support import harness_backend, start_session
from pipeline import REPO

from simcodebench.agents.backends.alternative import alternative_artifact
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.core.cases import get_case
from simcodebench.pipeline.gates import OUTCOME_CLASS
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.checks import run_checks

FALLING_BALL = """
import genesis as gs
gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(sim_options=gs.options.SimOptions(dt=0.01, substeps=4), show_viewer=False)
scene.add_entity(gs.morphs.Plane())
scene.add_entity(gs.morphs.Sphere(radius=0.05, pos=(0.0, 0.0, 2.0)))
scene.build()
for _ in range(40):
    scene.step()
"""


@pytest.fixture(scope="module")
def genesis():
    session = start_session()
    yield session
    session.close()


def failure_class(case, answer, run_dir):
    """The class our gates give a run of the worker (F-Exec for a script that raised)."""
    if not answer["ok"]:
        return "F-Exec"
    evaluation = scorer.measure(case, run_dir, scorer.generate_reference(case))
    if evaluation.outcome != "ok":
        return OUTCOME_CLASS[evaluation.outcome]
    return "Pass" if evaluation.error <= case.threshold_policy()["accuracy"]["value"] else "F-Acc"


def test_a_gpu_script_runs_on_the_harness_backend_and_its_fall_is_recorded(genesis, tmp_path):
    answer, recording = genesis.run(FALLING_BALL, tmp_path)
    assert answer["ok"], answer["error"]
    assert answer["backend"]["requested"] == "gpu" and answer["backend"]["used"] == harness_backend()
    scene = recording.main_scene()
    assert scene.steps == 40 and scene.dt == pytest.approx(0.01)
    kinds = [e.kind for e in scene.entities]
    assert kinds == ["plane", "sphere"] and scene.entities[0].fixed
    ball = scene.entities[1]
    assert ball.series["pos"].shape == (41, 3) and ball.series["quat"].shape == (41, 4)  # t = 0, then 40 steps
    assert ball.t[0] == 0.0 and ball.series["pos"][0].tolist() == pytest.approx([0.0, 0.0, 2.0])
    z = ball.series["pos"][:, 2]
    assert np.all(np.diff(z) < 0)  # still falling after 0.4 s from 2 m
    # the recorded fall, fitted independently of the check: z = 2 - g t^2 / 2
    assert np.polyfit(ball.t, z, 2)[0] * 2 == pytest.approx(-9.81, rel=0.02)
    spec = {"check": "fall_acceleration", "object": {"kind": "sphere", "radius": 0.05}}
    assert run_checks(scene, [spec])[0].passed


def test_a_script_that_never_steps_is_scored_as_such(genesis, tmp_path):
    source = FALLING_BALL.replace("    scene.step()", "    pass")
    answer, recording = genesis.run(source, tmp_path)
    assert answer["ok"] and recording.main_scene() is None
    case = get_case("physics@smoke", "ball_drop")
    evaluation = scorer.measure(case, tmp_path, scorer.generate_reference(case))
    assert evaluation.outcome == "missing"  # no video either
    assert evaluation.metrics["physics"] == 0.0


def test_particle_entities_are_summarised(genesis, tmp_path):
    source = """
import genesis as gs
gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=2e-3, substeps=10),
    mpm_options=gs.options.MPMOptions(lower_bound=(-0.3, -0.3, 0.0), upper_bound=(0.3, 0.3, 0.6), grid_density=32),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
scene.add_entity(gs.morphs.Box(pos=(0.0, 0.0, 0.3), size=(0.1, 0.1, 0.1)), material=gs.materials.MPM.Elastic())
scene.build()
for _ in range(3):
    scene.step()
"""
    answer, recording = genesis.run(source, tmp_path)
    assert answer["ok"], answer["error"]
    cube = recording.main_scene().entities[1]
    assert cube.solver == "mpm" and not cube.rigid
    count = cube.series["count"]
    assert count[0] > 10 and np.all(count == count[0]) and np.all(cube.series["nonfinite"] == 0)
    assert np.allclose(cube.series["centroid"][0], [0.0, 0.0, 0.3], atol=0.01)
    # particle centres lie inside the 10 cm cube, less than one grid cell (1/32 m) in from its faces
    extent = cube.series["hi"][0] - cube.series["lo"][0]
    assert np.all(extent <= 0.1) and np.all(extent >= 0.1 - 1 / 32), extent


@pytest.mark.parametrize("case_id", ["ball_drop", "block_slide", "sphere_collision_glancing", "incline_stick_slip"])
def test_the_oracle_passes_and_each_mutant_lands_in_its_class(genesis, tmp_path, case_id):
    case = get_case("physics@smoke", case_id)
    answer, _ = genesis.run(scorer.oracle_source(case), tmp_path / "oracle")
    assert answer["ok"], answer["error"]
    evaluation = scorer.measure(case, tmp_path / "oracle", scorer.generate_reference(case))
    assert evaluation.outcome == "ok" and evaluation.error == 0, evaluation.message
    assert evaluation.metrics["code"] == 50.0 and evaluation.metrics["physics"] == 100.0
    landed = {}
    for index, name in enumerate(mutant_names(case)):
        mutant = build_mutant(case, index, None)
        answer, _ = genesis.run(mutant.source, tmp_path / name)
        landed[name] = (failure_class(case, answer, tmp_path / name), mutant.declared_class)
    assert all(got == want for got, want in landed.values()), landed


@pytest.mark.parametrize("case_id", ["ball_drop", "block_slide", "sphere_collision_glancing", "incline_stick_slip"])
def test_the_second_solution_passes_every_check(genesis, tmp_path, case_id):
    """The case's second solution (``hidden.alternative``, written apart from the oracle: two steps per frame,
    other substeps, frictions the prompt leaves free, another camera and creation order), as the alternative
    agent gets it: at the smoke variant's video contract."""
    case = get_case("physics@smoke", case_id)
    answer, recording = genesis.run(alternative_artifact(case), tmp_path)
    assert answer["ok"], answer["error"]
    assert recording.main_scene().dt == pytest.approx(1 / 60)  # two steps per frame of the 30 fps video
    evaluation = scorer.measure(case, tmp_path, scorer.generate_reference(case))
    assert evaluation.outcome == "ok" and evaluation.error == 0, evaluation.message
    assert evaluation.metrics["code"] == 50.0 and evaluation.metrics["physics"] == 100.0


@pytest.mark.parametrize("name", ["gravity-50", "too-short"])
def test_a_mutant_of_a_second_solution_lands_in_its_class(genesis, tmp_path, name):
    case = get_case("physics@smoke", "ball_drop")
    mutant = build_mutant(case, 0, None, [name], base="alternative")
    assert mutant.name == f"{name}@alternative"
    answer, _ = genesis.run(mutant.source, tmp_path)
    assert failure_class(case, answer, tmp_path) == mutant.declared_class


@pytest.mark.parametrize("name", ["rigid_box_drop.py", "mpm_elastic_cube.py", "sph_water_column.py"])
def test_our_prompt_examples_run_on_the_pinned_genesis(genesis, tmp_path, name):
    source = (REPO / "cases" / "physics" / "examples" / name).read_text()
    answer, recording = genesis.run(source, tmp_path)
    assert answer["ok"], answer["error"]
    assert recording.main_scene().steps >= 10


PARTICLE_MUTANTS = ("api-misuse", "nan-blowup")
"""The mutants whose class is particular to a particle case: the material's own keyword (F-Exec) and a blow-up
that MPM and SPH clamp inside their domain instead of going NaN (F-Acc). The video mutants and gravity-50 act as
on the rigid cases above; every mutant of every particle case is run by ``benchmarks/physics_scenes.py``. One
SPH case only: a particle scene costs about a minute of CPU even at smoke size."""


@pytest.mark.parametrize("case_id", ["water_drop_tank"])
def test_a_particle_oracle_passes_and_its_physics_mutants_land(genesis, tmp_path, case_id):
    case = get_case("physics@smoke", case_id)
    answer, _ = genesis.run(scorer.oracle_source(case), tmp_path / "oracle")
    assert answer["ok"], answer["error"]
    evaluation = scorer.measure(case, tmp_path / "oracle", scorer.generate_reference(case))
    assert evaluation.outcome == "ok" and evaluation.error == 0, evaluation.message
    landed = {}
    for index, name in enumerate(mutant_names(case)):
        if name in PARTICLE_MUTANTS:
            mutant = build_mutant(case, index, None)
            answer, _ = genesis.run(mutant.source, tmp_path / name)
            landed[name] = (failure_class(case, answer, tmp_path / name), mutant.declared_class)
    assert set(landed) == set(PARTICLE_MUTANTS)
    assert all(got == want for got, want in landed.values()), landed
