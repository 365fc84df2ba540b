"""``calibration.timing``: t_base from the oracle's whole run (``subprocess``, the default) or from its solve
inside the process (``released``, as PDEAgent-Bench's released harness times its oracle)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from simcodebench.core.cases import load_suite, load_suite_cases
from simcodebench.core.measurement import Measurement
from simcodebench.core.project import cases_root
from simcodebench.core.references import Reference
from simcodebench.pipeline import calibrate as calibration
from simcodebench.suites.fem import harness, outputs
from simcodebench.suites.fem.plugin import FemSuite

CASE = next(c for c in load_suite_cases(cases_root() / "fem") if c.hidden.reference["generator"] == "manufactured")

SLOW_IMPORT_SOLVER = """
import time
import numpy as np
time.sleep(0.6)  # stands for the imports and JIT an in-process timing leaves out


def solve(case_spec):
    time.sleep(0.2)
    grid = case_spec["eval_grid"]
    return {"u": np.zeros((grid["ny"], grid["nx"])), "solver_info": {}}
"""


def test_the_runner_times_the_solve_apart_from_the_imports(tmp_path):
    (tmp_path / "solver.py").write_text(SLOW_IMPORT_SOLVER)
    spec = {"eval_grid": {"nx": 3, "ny": 2, "bbox": [0, 1, 0, 1]}}
    (tmp_path / "case_spec.json").write_text(json.dumps(spec))
    shutil.copy(harness.RUNNER, tmp_path / "runner.py")
    subprocess.run([sys.executable, "runner.py"], cwd=tmp_path, check=True, capture_output=True)
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert 0.2 <= meta["solve_time_sec"] < 0.55
    assert meta["wall_time_sec"] >= 0.8
    assert outputs.solve_seconds(tmp_path) == meta["solve_time_sec"]
    (tmp_path / "meta.json").write_text(json.dumps({"status": "ok"}))  # a deal.II program's meta.json
    assert outputs.solve_seconds(tmp_path) is None


RELEASED_SLOW_IMPORT_SOLVER = SLOW_IMPORT_SOLVER.replace(
    'grid = case_spec["eval_grid"]', 'grid = case_spec["output"]["grid"]'
).replace(
    '"solver_info": {}',
    '"solver_info": dict(mesh_resolution=8, element_degree=1, ksp_type="cg", pc_type="gamg", rtol=1e-8)',
)


def test_the_released_runner_times_the_solve_and_the_released_variant_uses_it(tmp_path):
    """The released runner (the ``@released`` variant's) times the solver call as the plain runner does, and the
    variant calibrates with ``timing: released``, the plain suite with ``subprocess``."""
    (tmp_path / "solver.py").write_text(RELEASED_SLOW_IMPORT_SOLVER)
    (tmp_path / "case_spec.json").write_text(json.dumps({"output": {"grid": {"nx": 3, "ny": 2, "bbox": [0, 1, 0, 1]}}}))
    shutil.copy(harness.RELEASED_RUNNER, tmp_path / "runner.py")
    done = subprocess.run([sys.executable, "runner.py"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert 0.2 <= meta["solve_time_sec"] < 0.55 and meta["wall_time_sec"] >= 0.8
    assert outputs.solve_seconds(tmp_path) == meta["solve_time_sec"]
    released = load_suite(cases_root() / "fem", "released").data["calibration"]
    assert released["timing"] == "released" and released["repeats"] == CASE.suite.data["calibration"]["repeats"]
    assert CASE.suite.data["calibration"].get("timing", "subprocess") == "subprocess"


@pytest.fixture
def oracle_runs(monkeypatch):
    """Calibrate with runs of 2 s whole whose meta.json says the solve took 0.5 s (or says nothing)."""
    meta = {"status": "ok", "solve_time_sec": 0.5}

    def execute(case, solution_dir, run_dir, *args):
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "meta.json").write_text(json.dumps(meta))
        return SimpleNamespace(status="ok", wall_s=2.0, message="")

    monkeypatch.setattr(calibration, "execute_solution", execute)
    plugin = SimpleNamespace(
        measure=lambda *args: Measurement(outcome="ok", error=1e-3),
        in_process_seconds=FemSuite().in_process_seconds,
    )
    monkeypatch.setattr(calibration, "plugin_of", lambda case: plugin)
    return meta


@pytest.mark.parametrize(("timing", "t_base"), [(None, 2.0), ("subprocess", 2.0), ("released", 0.5)])
def test_t_base_follows_the_timing(oracle_runs, monkeypatch, tmp_path, timing, t_base):
    settings = {"warmup": 0, "repeats": 2} | ({"timing": timing} if timing else {})
    monkeypatch.setitem(CASE.suite.data, "calibration", settings)
    record = calibration.calibrate_case(CASE, Reference(), tmp_path / "work", "local")
    assert record["t_base"] == t_base and record["thresholds"]["time"] == pytest.approx(3 * t_base)
    assert ("inside its process" in record["timing_includes"]) == (timing == "released")


def test_released_timing_needs_runs_that_measure_their_solve(oracle_runs, monkeypatch, tmp_path):
    del oracle_runs["solve_time_sec"]
    monkeypatch.setitem(CASE.suite.data, "calibration", {"warmup": 0, "repeats": 1, "timing": "released"})
    with pytest.raises(calibration.CalibrationError, match="timing 'released' needs the run's in-process solve"):
        calibration.calibrate_case(CASE, Reference(), tmp_path / "work", "local")
