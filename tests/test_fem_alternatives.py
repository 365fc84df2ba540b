"""fem's second solution (``cases/fem/alternative_dolfinx.py``, written from the prompt and the guide apart from
the oracle: cubic elements, Krylov solvers, BDF2) through the real workflow beside the oracle: it passes every
gate on two cases (a transient one on quadrilaterals, a vector one on a gmsh mesh), and a wrong answer built on
it (the grid transposed) fails the accuracy gate. benchmarks/second_solutions_fem.py runs all 26 cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline import make_workdir, scores, snakemake

from simcodebench.core.cases import get_case

REPO = Path(__file__).resolve().parents[1]
CASES = ["elasticity_sector", "heat_square"]


def test_every_fem_case_names_the_second_solution() -> None:
    folders = sorted(p.parent.name for p in (REPO / "cases" / "fem").glob("*/case.yaml"))
    assert len(folders) == 26
    for name in folders:
        assert get_case("fem", name, root=REPO / "cases").hidden.alternative == "../alternative_dolfinx.py", name


@pytest.mark.slow
def test_the_second_solution_passes_and_its_wrong_answer_fails(tmp_path: Path, dolfinx_env) -> None:
    work = make_workdir(
        tmp_path,
        {
            "suites": ["fem"],
            "cases": {"fem": CASES},
            "agents": {
                "oracle": {"backend": "oracle"},
                "second": {"backend": "alternative"},
                "second-broken": {"backend": "mutant", "base": "alternative", "mutants": ["transposed"]},
            },
        },
    )
    snakemake(work)
    frame = scores(work)
    for agent in ("oracle", "second"):
        rows = frame[frame.agent == agent]
        assert sorted(rows.case) == CASES
        assert (rows.failure_class == "Pass").all(), rows[["case", "failure_class", "message"]].to_string()
    broken = frame[frame.agent == "second-broken"]
    assert sorted(broken.mutant) == ["transposed@alternative"] * len(CASES)
    assert (broken.failure_class == "F-Acc").all(), broken[["case", "failure_class", "message"]].to_string()
    summary = (work / "results" / "summary" / "fem.md").read_text()
    assert f"| second | alternative | Pass | Pass | {len(CASES)} | yes |" in summary
