"""The deal.II track: a C++ submission is compiled once (timed apart from the run), run as
`solver case_spec.json OUTDIR`, and its solution_grid.bin scored like any fem run; the oracle passes, a program
that does not compile is F-Exec, and the deal.II guide's example compiles, runs and uses what the guide names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import get_case
from simcodebench.core.project import cases_root
from simcodebench.execution.compiled import build_program
from simcodebench.execution.runtime import run
from simcodebench.execution.sandbox import build_request, execute_solution
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.fem import scorer
from simcodebench.suites.fem.harness import prepare_run

pytestmark = pytest.mark.slow

GUIDE = cases_root() / "fem-dealii" / "DEALII_GUIDE.md"


def _execute(case, source: str, root: Path):
    solution = root / "solution"
    write_solution(extract_files(case, f"```cpp\n{source}\n```\n"), solution)
    return execute_solution(case, solution, root / "run", "local")


@pytest.mark.parametrize("case_id", ["poisson_square_kappa", "heat_square"])
def test_oracle_compiles_once_runs_and_passes(case_id, dealii_env, tmp_path):
    case = get_case("fem-dealii", case_id)
    reference = scorer.generate_reference(case)
    solution = tmp_path / "solution"
    write_solution(extract_files(case, oracle_reply(case)), solution)
    first = execute_solution(case, solution, tmp_path / "run", "local")
    assert first.status == "ok", (tmp_path / "run" / "stderr.txt").read_text()[-2000:]
    assert first.extra["compile_s"] > first.wall_s  # the build is timed apart, and it is the larger part
    again = execute_solution(case, solution, tmp_path / "again", "local")
    assert again.extra["compile_cached"] is True
    evaluation = scorer.measure(case, tmp_path / "again", reference)
    assert evaluation.outcome == "ok" and evaluation.error < 1e-3, evaluation.message


def test_a_program_that_does_not_compile_is_f_exec(dealii_env, tmp_path):
    case = get_case("fem-dealii", "poisson_square_kappa")
    mutant = build_mutant(case, mutant_names(case).index("compile-error"), tau_time=None)
    result = _execute(case, mutant.source, tmp_path)
    assert result.status == "error" and result.message.startswith("compilation failed")
    assert "undeclared_name" in (tmp_path / "run" / "stderr.txt").read_text()
    score = score_attempt(
        case,
        {"status": "ok"},
        {"status": "ok", "files": []},
        result.to_dict(),
        tmp_path / "run",
        scorer.generate_reference(case),
        {"thresholds": {"accuracy": 1e-3, "time": 10.0}},
    )
    assert score["failure_class"] == mutant.declared_class == "F-Exec"


def test_guide_example_compiles_and_runs(dealii_env, tmp_path):
    text = GUIDE.read_text()
    example = re.search(r"```cpp\n(.*?)```", text, re.S).group(1)
    prose = text.split("```cpp")[0]
    named = set(re.findall(r"dealii::((?:\w+::)*\w+)", prose))
    assert len(named) > 15
    unused = sorted(name for name in named if name.split("::")[-1] not in example)
    assert not unused, f"the guide names APIs its (compiled) example does not use: {unused}"
    case = get_case("fem-dealii", "poisson_square_kappa")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "solver.cc").write_text(example)
    prepare_run(case, run_dir)
    request = build_request(case, run_dir)
    built = build_program(case, request, "local")
    assert built is not None and built.status == "ok", (run_dir / "stderr.txt").read_text()[-3000:]
    result = run(request, "local")
    assert result.status == "ok", (run_dir / "stderr.txt").read_text()[-2000:]
    assert (run_dir / "solution_grid.bin").stat().st_size == 11 * 11 * 8
