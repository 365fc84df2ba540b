"""The fea suite's parts on hand-made inputs: units, valid-target rules, the statement-wise runner, API
factuality, the API reference of fea@apidoc, the one-shot example, prompts and the agent's controller."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from simcodebench.agents.prompts import render_messages
from simcodebench.agents.strategies.feabench_agent import FeabenchAgent, choose, fitness, update_state
from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.fea import sandbox_runner
from simcodebench.suites.fea.refinement import ReferenceRejected, summarise
from simcodebench.suites.fea.scorer import measure, prepare_run, run_metrics
from simcodebench.suites.fea.units import UnitsError, convert
from simcodebench.suites.fea.validity import Invalid, check, numbers_in

SUITE = Path(__file__).resolve().parents[1] / "cases" / "fea"


@pytest.mark.parametrize(
    ("value", "units", "target", "expected"),
    [
        (60.0, "degC", "K", 333.15),
        (333.15, "K", "degC", 60.0),
        (1.0, "Ohm", "ohm", 1.0),
        (75.0, "Ω", "ohm", 75.0),
        (2.0, "kOhm", "ohm", 2000.0),
        (99.5, "%", "dimensionless", 0.995),
        (0.995, "1", "percent", 99.5),
        (-0.7, "dB", "dB", -0.7),
        (61.4, "MPa", "Pa", 61.4e6),
        (0.0526, "m/s", "mm/s", 52.6),
        (42.663, "1/s", "Hz", 42.663),
    ],
)
def test_units_convert_with_offsets_and_spellings(value, units, target, expected):
    assert convert(value, units, target) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("units", "target"), [("dB", "dimensionless"), ("percent", "dB"), ("kg", "K"), ("furlongs per", "m"), ("", "m")]
)
def test_units_that_do_not_convert_raise(units, target):
    with pytest.raises(UnitsError):
        convert(1.0, units, target)


PROBLEM = "A rod 0.1 m long held at 273.15 K at one end, with k = 52 W/(m*K) and a flux of 5e5 W/m^2."


def _result(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


@pytest.mark.parametrize(
    ("data", "target", "converted"),
    [({"value": 60, "units": "degC"}, "K", 333.15), ({"value": 333.0, "units": "K"}, "degC", 59.85)],
)
def test_a_valid_value_is_converted(tmp_path, data, target, converted):
    assert check(_result(tmp_path, data), target, PROBLEM).converted == pytest.approx(converted)


@pytest.mark.parametrize(
    ("data", "target", "reason"),
    [
        ({"value": 20, "units": "degC"}, "K", "20 degC"),
        ({"value": 293.15, "units": "K"}, "degC", "20 degC"),
        ({"value": 0, "units": "MPa"}, "MPa", "0, a default"),
        ({"value": 52, "units": "K"}, "K", "repeats the number 52"),
        ({"value": 0.0, "units": "degC"}, "K", "0, a default"),
        ({"value": 5e5, "units": "Pa"}, "Pa", "repeats"),
        ({"value": -0.1, "units": "m"}, "m", "repeats"),  # a negated echo
        ({"value": 1.0, "units": "dB"}, "dimensionless", "converts only to dB"),
        ({"value": 1.0, "units": "kg"}, "K", "does not convert"),
        ({"value": float("nan"), "units": "K"}, "K", "not finite"),
        ({"value": "300", "units": "K"}, "K", "not a number"),
        ({"value": True, "units": "K"}, "K", "not a number"),
        ({"value": 300.0}, "K", "'units'"),
        ("[300, 'K']", "K", "not JSON"),
    ],
)
def test_defaults_echoes_and_bad_values_are_invalid(tmp_path, data, target, reason):
    with pytest.raises(Invalid, match=re.escape(reason)):
        check(_result(tmp_path, data), target, PROBLEM)


def test_a_value_echoed_after_conversion_is_invalid(tmp_path):
    # 0 degC is 273.15 K, the number the problem gives: an echo once converted
    with pytest.raises(Invalid, match="273.15"):
        check(_result(tmp_path, {"value": 0.0001, "units": "degC"}), "K", "T0 = 273.1501 K")


def test_numbers_in_reads_decimals_exponents_and_signs():
    assert numbers_in("x = -2.5e-3, y=.5 and 1E4 (id comsol_453, name x2), 0.5 again") == [-0.0025, 0.5, 1e4]


def test_evaluate_gives_the_relative_error_and_the_paper_band(tmp_path):
    case = get_case("fea", "example_torsion")
    reference = Reference(scalars={"target": 201.06192982974676})
    _result(tmp_path, {"value": 0.180, "units": "kN*m"})
    evaluation = measure(case, tmp_path, reference)
    assert evaluation.outcome == "ok"
    assert evaluation.error == pytest.approx((201.06192982974676 - 180.0) / 201.06192982974676)
    assert evaluation.metrics["within_10pct"] == 0.0  # 10.5% off
    _result(tmp_path, {"value": 20, "units": "N*m"})  # 20 mm is the radius: an echo
    assert measure(case, tmp_path, reference).outcome == "invalid"
    (tmp_path / "result.json").unlink()
    assert measure(case, tmp_path, reference).outcome == "missing"


TORSION_TARGET = 64 * math.pi
"""The torsion example's target in N*m (201.06...)."""


def _gate(case, tmp_path: Path, tau: float) -> str:
    """The failure class of an attempt that ran cleanly and wrote ``result.json``, under accuracy threshold ``tau``."""
    reference = Reference(scalars={"target": TORSION_TARGET})
    ok, run = {"status": "ok"}, {"status": "ok", "rc": 0, "wall_s": 1.0}
    calibration = {"thresholds": {"accuracy": tau, "time": None}}
    return score_attempt(case, ok, ok, run, tmp_path, reference, calibration)["failure_class"]


def test_an_over_estimate_is_a_positive_error_and_fails_a_tighter_threshold(tmp_path):
    case = get_case("fea", "example_torsion")
    _result(tmp_path, {"value": 0.215, "units": "kN*m"})  # 215 N*m
    evaluation = measure(case, tmp_path, Reference(scalars={"target": TORSION_TARGET}))
    over = 0.0693222738986718  # 215 / (64 pi) - 1, by hand
    assert evaluation.outcome == "ok" and evaluation.error == pytest.approx(over, rel=1e-12)
    assert evaluation.metrics == pytest.approx({"fea_value": 215.0, "rel_error": over, "within_10pct": 1.0})
    assert (_gate(case, tmp_path, 0.05), _gate(case, tmp_path, 0.07)) == ("F-Acc", "Pass")


def test_the_exact_value_has_zero_error_and_passes(tmp_path):
    case = get_case("fea", "example_torsion")
    _result(tmp_path, {"value": TORSION_TARGET, "units": "N*m"})
    evaluation = measure(case, tmp_path, Reference(scalars={"target": TORSION_TARGET}))
    assert (evaluation.outcome, evaluation.error, evaluation.metrics["within_10pct"]) == ("ok", 0.0, 1.0)
    assert _gate(case, tmp_path, case.threshold_policy()["accuracy"]["minimum"]) == "Pass"


SCRIPT = """\
import json
import numpy as np
from skfem import MeshTri, ElementTriP7
import skfem.helpers as h
mesh = MeshTri().refined(2)
element = ElementTriP7()
count = undefined_name + 1
basis = skfem.Basis(mesh, skfem.ElementTriP1())
grad = h.grad
json.dump({"value": float(mesh.p.shape[1]), "units": "1"}, open("result.json", "w"))
if __name__ == "__main__":
    raise SystemExit(0)
print("never reached")
"""


def _run(tmp_path: Path, fea_env, source: str) -> tuple[int, dict]:
    (tmp_path / "solution.py").write_text(source)
    prepare_run(get_case("fea", "example_torsion"), tmp_path)
    done = subprocess.run([str(fea_env.python), "fea_runner.py"], cwd=tmp_path, capture_output=True, text=True)
    return done.returncode, json.loads((tmp_path / "fea_report.json").read_text())


def test_runner_runs_statement_by_statement_and_checks_names(tmp_path, fea_env):
    rc, report = _run(tmp_path, fea_env, SCRIPT)
    assert rc == 1
    # 12 statements; failing: the import (no ElementTriP7), its use, the undefined name, skfem (never imported
    # as a name); the exit(0) in the main block ends the script, so the print is never run: 7 ran correctly
    assert report["statements"] == 12
    assert [e["line"] for e in report["errors"]] == [3, 6, 7, 8]
    assert report["ok"] == 7
    assert report["api"]["names"] == ["skfem.ElementTriP7", "skfem.MeshTri", "skfem.helpers", "skfem.helpers.grad"]
    assert report["api"]["unknown"] == ["skfem.ElementTriP7"]
    assert json.loads((tmp_path / "result.json").read_text())["value"] == 25.0
    metrics = run_metrics(get_case("fea", "example_torsion"), tmp_path)
    assert metrics == {"executability": pytest.approx(7 / 12), "api_factuality": pytest.approx(3 / 4)}


def test_runner_scores_an_unparsable_script_zero(tmp_path, fea_env):
    rc, report = _run(tmp_path, fea_env, "import skfem\ndef broken(:\n")
    assert rc == 1 and report["parsed"] is False
    assert run_metrics(get_case("fea", "example_torsion"), tmp_path) == {"executability": 0.0}


def test_library_names_follow_aliases_and_skip_other_packages():
    source = "import numpy as np\nimport dolfinx.fem.petsc as P\nfrom mpi4py import MPI\nfrom ufl import *\n"
    source += "x = P.LinearProblem\ny = MPI.COMM_WORLD.rank\nz = np.zeros(3)\nw = obj.skfem.Thing\n"
    assert sandbox_runner.library_names(source) == [
        "dolfinx.fem.petsc",
        "dolfinx.fem.petsc.LinearProblem",
        "mpi4py.MPI",
        "mpi4py.MPI.COMM_WORLD.rank",
        "ufl",
    ]


APIDOC_NAME = re.compile(r"`((?:skfem|dolfinx|ufl|basix|gmsh|mpi4py|scipy)\.[A-Za-z0-9_.]+)")


def test_every_name_of_the_api_reference_exists_in_the_environment(fea_env):
    names = sorted(set(APIDOC_NAME.findall((SUITE / "apidoc.md").read_text())))
    assert len(names) > 50
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import sandbox_runner as r; "
        "print(json.dumps(r.api_report(json.loads(sys.argv[2]))))"
    )
    folder = str(Path(sandbox_runner.__file__).parent)
    done = subprocess.run([str(fea_env.python), "-c", code, folder, json.dumps(names)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["names"] == names and report["unknown"] == []
    # the same look-up does reject a misspelt name
    done = subprocess.run(
        [str(fea_env.python), "-c", code, folder, json.dumps(["skfem.MeshTriangle", "dolfinx.fem.FunctionSpaceX"])],
        capture_output=True,
        text=True,
    )
    assert json.loads(done.stdout)["unknown"] == ["skfem.MeshTriangle", "dolfinx.fem.FunctionSpaceX"]


def test_the_one_shot_example_runs_and_matches_its_series_solution(tmp_path, fea_env):
    shutil.copy2(SUITE / "example_answer.py", tmp_path / "example.py")
    subprocess.run([str(fea_env.python), "example.py"], cwd=tmp_path, check=True, capture_output=True)
    result = json.loads((tmp_path / "result.json").read_text())
    # -Laplace u = 1 on the unit square, u = 0 on the edges: u(centre) = 0.0736713532 (series solution)
    assert result == {"value": pytest.approx(300 + 1e6 * 0.1**2 / 15 * 0.0736713532, rel=1e-6), "units": "K"}


def test_variants_add_the_plan_or_the_api_reference_and_keep_the_example():
    plain, plan, apidoc = (
        "\n".join(m["content"] for m in render_messages(get_case(suite, "example_torsion")))
        for suite in ("fea", "fea@plan", "fea@apidoc")
    )
    example = (SUITE / "example_answer.py").read_text()
    for text in (plain, plan, apidoc):
        assert example.strip() in text and "result.json" in text and "in N*m" in text
        assert "201.06" not in text and "prandtl" in text.lower()
    assert "PLAN:" in plan and "PLAN:" not in plain and "PLAN:" not in apidoc
    assert "skfem.MeshTri.init_circle" in apidoc and "skfem.MeshTri.init_circle" not in plain


def _score(executability: float, exported: bool, passed: bool = False) -> dict:
    gates = [{"name": "outputs", "passed": exported}]
    return {"status": "scored", "metrics": {"executability": executability}, "gates": gates, "passed": passed}


def test_fitness_is_executability_plus_an_export_above_ninety_percent():
    assert fitness(_score(0.95, True)) == pytest.approx(1.95)
    assert fitness(_score(0.85, True)) == pytest.approx(0.85)
    assert fitness(_score(1.0, False)) == pytest.approx(1.0)
    assert fitness({"status": "scored", "gates": []}) == 0.0


def test_controller_keeps_the_best_and_the_exporters_and_accepts_by_alpha():
    state: dict = {}
    for attempt, fit in enumerate([0.5, 1.9, 0.4, 1.95]):
        state = update_state(state, {"attempt": attempt, "fitness": fit, "code": f"c{attempt}", "report": ""})
    assert [e["attempt"] for e in state["kept"]] == [1, 3] and state["best"]["attempt"] == 3
    assert choose(state, "any") is state["last"]  # the last is the best
    state = update_state(state, {"attempt": 4, "fitness": 0.39, "code": "c4", "report": ""})
    picks = [choose(state, f"seed{i}")["attempt"] for i in range(400)]
    assert set(picks) == {3, 4}
    assert picks.count(4) / len(picks) == pytest.approx(0.39 / 1.95, abs=0.06)  # alpha = last / best


def test_final_pick_never_reads_the_target():
    scores = [
        {**_score(1.0, True, passed=False), "attempt": 0},
        {**_score(0.5, False, passed=True), "attempt": 1, "error": 0.0},
        {**_score(1.0, True, passed=False), "attempt": 2, "error": 9.0},
    ]
    assert FeabenchAgent().select_attempt(scores)["attempt"] == 2


def _with_closed_form(value: float | None):
    case = get_case("fea", "example_torsion")
    params = {"levels": [0, 1, 2], **({"closed_form": value} if value is not None else {})}
    hidden = dataclasses.replace(case.hidden, reference={"generator": "fea_refinement", "params": params})
    return dataclasses.replace(case, hidden=hidden)


def test_refinement_summary_takes_the_finest_level_and_its_spread():
    reference = summarise(_with_closed_form(None), [0, 1, 2], [90.0, 99.0, 100.0], [1.0, 2.0, 3.0])
    assert reference.scalars == {"target": 100.0, "finest": 100.0, "spread": pytest.approx(0.01)}
    assert reference.meta["spreads"] == [pytest.approx(9 / 99), pytest.approx(1 / 100)]
    assert [lv["wall_s"] for lv in reference.meta["levels"]] == [1.0, 2.0, 3.0]


def test_a_closed_form_is_used_only_when_the_finest_solve_agrees():
    # finest spread 1%: the closed form may sit max(3 x 1%, 1%) = 3% from the finest value
    agreed = summarise(_with_closed_form(102.0), [0, 1, 2], [90.0, 99.0, 100.0], [1.0, 1.0, 1.0])
    assert agreed.scalars["target"] == 102.0 and agreed.scalars["closed_form_gap"] == pytest.approx(2 / 102)
    with pytest.raises(ReferenceRejected, match="differ by 0.0385"):
        summarise(_with_closed_form(104.0), [0, 1, 2], [90.0, 99.0, 100.0], [1.0, 1.0, 1.0])
    with pytest.raises(ReferenceRejected, match="at least two levels"):
        summarise(_with_closed_form(None), [1], [100.0], [1.0])
