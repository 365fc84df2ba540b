"""fem-dealii's second solution (``cases/fem-dealii/alternative_dealii.cc``, written from the prompt and the guide
apart from the oracle: Q3, CG with SSOR, BDF2) through the real workflow beside the oracle: it compiles, passes
every gate, and a wrong answer built on it (its grid rewritten at exit) fails the accuracy gate. Each program is
compiled once and cached (``.envs/dealii-builds``); benchmarks/second_solutions_fem.py runs all eight cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline import make_workdir, scores, snakemake

from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.core.cases import get_case

REPO = Path(__file__).resolve().parents[1]
CASE = "poisson_square_kappa"


def test_every_fem_dealii_case_names_the_second_solution() -> None:
    folders = sorted(p.parent.name for p in (REPO / "cases" / "fem-dealii").glob("*/case.yaml"))
    assert len(folders) == 8
    for name in folders:
        assert get_case("fem-dealii", name, root=REPO / "cases").hidden.alternative == "../alternative_dealii.cc"


def test_the_wrong_answer_mutant_wraps_any_program() -> None:
    case = get_case("fem-dealii", CASE, root=REPO / "cases")
    for base in ("oracle", "alternative"):
        mutant = build_mutant(case, 0, None, ["wrong-answer"], base)
        assert mutant.declared_class == "F-Acc"
        assert mutant.source.startswith("#include <fstream>") and "1.5 * value + 0.5" in mutant.source
        assert "int main(int argc, char **argv)" in mutant.source


@pytest.mark.slow
def test_the_second_solution_passes_and_its_wrong_answer_fails(tmp_path: Path, dealii_env) -> None:
    work = make_workdir(
        tmp_path,
        {
            "suites": ["fem-dealii"],
            "cases": {"fem-dealii": [CASE]},
            "agents": {
                "oracle": {"backend": "oracle"},
                "second": {"backend": "alternative"},
                "second-broken": {"backend": "mutant", "base": "alternative", "mutants": ["wrong-answer"]},
            },
        },
    )
    snakemake(work, timeout=1800)
    frame = scores(work)
    for agent in ("oracle", "second"):
        row = frame[frame.agent == agent]
        assert list(row.failure_class) == ["Pass"], row[["case", "failure_class", "message"]].to_string()
    broken = frame[frame.agent == "second-broken"]
    assert list(broken.mutant) == ["wrong-answer@alternative"]
    assert list(broken.failure_class) == ["F-Acc"], broken[["failure_class", "message"]].to_string()
    summary = (work / "results" / "summary" / "fem-dealii.md").read_text()
    assert "| second | alternative | Pass | Pass | 1 | yes |" in summary
