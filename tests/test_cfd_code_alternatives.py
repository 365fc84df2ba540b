"""cfd-code's second solutions (``hidden.alternative``): each, written apart from its reference (another method,
grid or convention the prompt allows), passes the accuracy gate and converges; a wrong answer built on one still
fails. The slowest (the shear flow, the two cavities, the cylinder, whose reference takes minutes) are marked
slow."""

from __future__ import annotations

from pathlib import Path

import pytest
from cfd_code_support import REPO, case, reference

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.alternative import alternative_reply
from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.core.registry import plugin_of
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.convergence import check_convergence

PASS_MARK = {"thresholds": {"accuracy": 0.10}}
SLOW = {"2D_Shear_Flow_With_Tracer", "Lid_Driven_Cavity", "2D_Navier_Stokes_Cavity", "Flow_Past_Circular_Cylinder"}
# Measured, not tested: the Rayleigh-Benard second solution's convergence rerun (256 x 129 nodes to t = 50) takes
# minutes of one core; its errors are in benchmarks/results/second-solutions.md (it passed this test once, 560 s
# with the tests' ensemble).
MEASURED_ONLY = {"2D_Rayleigh_Benard_Convection"}


def _with_alternative() -> list:
    ids = sorted(p.parent.name for p in (REPO / "cases" / "cfd-code").glob("*/alternative_solution.py"))
    return [
        pytest.param(cid, marks=pytest.mark.slow) if cid in SLOW else cid for cid in ids if cid not in MEASURED_ONLY
    ]


def _run(case_id: str, reply: str, tmp_path: Path) -> tuple[Path, dict]:
    the_case = case(case_id)
    solution = tmp_path / "solution"
    solution.mkdir(parents=True)
    write_solution(extract_files(the_case, reply), solution)
    return solution, execute_solution(the_case, solution, tmp_path / "run", "local").to_dict()


def test_every_second_solution_file_is_named_by_its_case() -> None:
    files = sorted((REPO / "cases" / "cfd-code").glob("*/alternative_solution.py"))
    assert len(files) >= 20
    assert all(case(f.parent.name).hidden.alternative == f.name for f in files)


@pytest.mark.parametrize("case_id", _with_alternative())
def test_the_second_solution_passes_and_converges(case_id: str, tmp_path: Path) -> None:
    the_case = case(case_id)
    solution, run = _run(case_id, alternative_reply(the_case), tmp_path)
    assert run["status"] == "ok", run
    first = plugin_of(the_case).measure(the_case, tmp_path / "run", reference(case_id))
    assert first.outcome == "ok" and first.error is not None and first.error <= 0.10, first
    record = check_convergence(
        the_case,
        {"status": "ok"},
        solution,
        run,
        tmp_path / "run",
        reference(case_id),
        PASS_MARK,
        tmp_path / "converge",
        "local",
    )
    assert record["converged"] is True, record["message"]


def test_a_wrong_answer_on_the_second_solution_fails_the_accuracy_gate(tmp_path: Path) -> None:
    the_case = case("1D_Diffusion")
    mutant = build_mutant(the_case, 0, None, ["wrong-answer"], "alternative")
    _, run = _run("1D_Diffusion", mutant.reply or "", tmp_path)
    measured = plugin_of(the_case).measure(the_case, tmp_path / "run", reference("1D_Diffusion"))
    assert run["status"] == "ok" and measured.error is not None and measured.error > 0.10
