"""re4's second solutions (``hidden.alternative``): each, written apart from its reference and oracle, meets the
case's accuracy rule (a fixed threshold, or the calibrated one from the oracle's own error on this machine); a
wrong answer built on one still fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.alternative import alternative_reply
from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import Case, get_case
from simcodebench.core.measurement import Measurement
from simcodebench.core.registry import plugin_of
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.calibrate import accuracy_threshold

REPO = Path(__file__).resolve().parents[1]
CASES = sorted(p.parent.name for p in (REPO / "cases" / "re4").glob("*/alternative_solution.py"))
# Run through the pipeline by benchmarks/second_solutions_fea_foam.py's entry instead (its DOLFINx reference,
# oracle and second solution add about 40 s to the suite): benchmarks/results/second-solutions.md
PIPELINE_ONLY = {"unsteady_ns"}


def _case(case_id: str) -> Case:
    return get_case("re4", case_id, root=REPO / "cases")


def _measure(the_case: Case, reply: str, folder: Path) -> Measurement:
    solution = folder / "solution"
    solution.mkdir(parents=True)
    write_solution(extract_files(the_case, reply), solution)
    run = execute_solution(the_case, solution, folder / "run", "local").to_dict()
    assert run["status"] == "ok", run
    plugin = plugin_of(the_case)
    return plugin.measure(the_case, folder / "run", plugin.generate_reference(the_case))


def _threshold(the_case: Case, folder: Path) -> float:
    """The case's accuracy threshold: fixed, or calibrated from the oracle's error as the pipeline does."""
    policy = the_case.threshold_policy()["accuracy"]
    if policy.get("policy") == "fixed":
        return float(policy["value"])
    oracle = _measure(the_case, oracle_reply(the_case), folder / "oracle")
    assert oracle.error is not None
    tau = accuracy_threshold(policy, oracle.error)
    assert tau is not None
    return tau


def test_the_cases_with_a_second_solution() -> None:
    assert CASES == [
        "burgers",
        "helmholtz_holes",
        "hilbert",
        "keyhole",
        "lid_driven",
        "poisson_holes",
        "sod",
        "unsteady_ns",
    ]
    assert all(_case(c).hidden.alternative == "alternative_solution.py" for c in CASES)


@pytest.mark.parametrize("case_id", [c for c in CASES if c not in PIPELINE_ONLY])
def test_the_second_solution_meets_the_accuracy_rule(
    case_id: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    the_case = _case(case_id)
    if the_case.hidden.reference["generator"] == "dolfinx_plane":  # a 2-D reference is a DOLFINx run
        request.getfixturevalue("dolfinx_env")
    measured = _measure(the_case, alternative_reply(the_case), tmp_path / "alternative")
    assert measured.outcome == "ok" and measured.error is not None, measured
    assert measured.error <= _threshold(the_case, tmp_path), measured


def test_a_wrong_answer_on_the_second_solution_fails(tmp_path: Path) -> None:
    the_case = _case("sod")
    mutant = build_mutant(the_case, 0, None, ["wrong-answer"], "alternative")
    measured = _measure(the_case, mutant.reply or "", tmp_path / "mutant")
    assert measured.error is not None and measured.error > _threshold(the_case, tmp_path)
