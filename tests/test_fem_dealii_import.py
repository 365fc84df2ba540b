"""`simcodebench import pdeagent-bench --library dealii`: the records upstream lists for deal.II become cases of
the deal.II track (fem-dealii's protocol, contract and oracle), the default stays DOLFINx, and an imported record
calibrates and passes with the deal.II oracle (here a linear reaction-diffusion record, the family the oracle
gained for the import)."""

from __future__ import annotations

import json

import pytest

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.agents.prompts import render_messages
from simcodebench.cli import main
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.errors import InputError
from simcodebench.execution.runtime import resolve_runtime
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.calibrate import calibrate_case
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.fem import scorer
from simcodebench.suites.fem.dealii_records import oracle_covers
from simcodebench.suites.fem.importer import import_pdeagent_bench, read_records

REACTION = "reaction_diffusion_transient_linear_time_decay"  # 20 Crank-Nicolson steps on 120^2 cells
PICKED = (REACTION, "stokes_basic", "poisson_basic")


@pytest.fixture(scope="module")
def small_jsonl(upstream, tmp_path_factory):
    """Three upstream records: a linear reaction-diffusion and a Poisson record that name deal.II, and a DOLFINx-
    only one (asserted below from the records themselves)."""
    records = read_records(upstream / "pdeagent-bench" / "benchmark_v2.jsonl")
    dolfinx_only = next(r for r in records if "dealii" not in r["supported_libraries"])
    chosen = [r for r in records if r["id"] in (REACTION, "poisson_basic")] + [dolfinx_only]
    assert len(chosen) == 3
    path = tmp_path_factory.mktemp("records") / "benchmark_v2.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in chosen))
    return path


def test_dealii_library_writes_the_dealii_records_as_a_dealii_suite(small_jsonl, tmp_path):
    out = tmp_path / "pdeagent-dealii"
    assert main(["import", "pdeagent-bench", str(small_jsonl), "--out", str(out), "--library", "dealii"]) == 0
    cases = {case.id: case for case in load_suite_cases(out)}
    assert set(cases) == {REACTION, "poisson_basic"}
    case = cases[REACTION]
    assert case.suite.environment == "dealii" and case.suite.data["language"] == "cpp"
    assert case.hidden.oracle == "../oracle_dealii.cc" and (out / "oracle_dealii.cc").is_file()
    assert case.visible.spec["target_library"] == "deal.II" and "using deal.II" in case.visible.problem
    assert [f["name"] for f in case.visible.contract["files"]] == ["solution_grid.bin", "meta.json"]
    assert json.loads((out / "import_report.json").read_text())["records"] == 2


def test_every_imported_record_of_the_oracles_families_renders_its_prompt(upstream, tmp_path):
    """Each family the deal.II oracle solves has its equation in the deal.II prompt (a family missing from the
    template failed every ask of its records, and with them the run that held them)."""
    records = [r for r in read_records(upstream / "pdeagent-bench" / "benchmark_v2.jsonl") if oracle_covers(r)]
    first = {r["oracle_config"]["pde"]["type"]: r for r in reversed(records)}
    assert "reaction_diffusion" in first
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in first.values()))
    import_pdeagent_bench(path, tmp_path / "pdeagent-dealii", library="dealii")
    for case in load_suite_cases(tmp_path / "pdeagent-dealii"):
        user = render_messages(case)[-1]["content"]
        assert f"## Equation ({case.visible.spec['family'].replace('_', ' ')})" in user
        assert " = f in Omega" in user.split("## Equation", 1)[1].split("##", 2)[0], case.id


def test_default_library_stays_dolfinx(small_jsonl, tmp_path):
    out = tmp_path / "pdeagent-bench"
    assert main(["import", "pdeagent-bench", str(small_jsonl), "--out", str(out)]) == 0
    cases = load_suite_cases(out)
    assert len(cases) == 3 and {case.suite.environment for case in cases} == {"dolfinx"}


def test_an_unknown_library_is_named_and_nothing_written(small_jsonl, tmp_path):
    with pytest.raises(InputError, match="--library"):
        import_pdeagent_bench(small_jsonl, tmp_path / "out", library="firedrake")
    assert not (tmp_path / "out").exists()


def test_oracle_covers_its_families_only(upstream):
    records = {r["id"]: r for r in read_records(upstream / "pdeagent-bench" / "benchmark_v2.jsonl")}
    assert [oracle_covers(records[name]) for name in PICKED] == [True, False, True]
    assert not oracle_covers(records["reaction_diffusion_allen_cahn_manufactured"])  # a nonlinear reaction


@pytest.mark.slow
def test_imported_reaction_record_calibrates_and_the_oracle_passes(small_jsonl, dealii_env, tmp_path):
    """The pipeline's calibration step on the imported record (its manufactured reference, a compile, warm-up
    and timed runs), then the oracle through every gate with those thresholds. Without the reaction term
    (alpha u, alpha = 1) the oracle misses the manufactured solution by far more than e_base_limit."""
    out = tmp_path / "pdeagent-dealii"
    import_pdeagent_bench(small_jsonl, out, library="dealii")
    case = next(c for c in load_suite_cases(out) if c.id == REACTION)
    runtime = resolve_runtime("auto", case.suite.environment)
    reference = scorer.generate_reference(case)
    calibration = calibrate_case(case, reference, tmp_path / "calibration", runtime)
    assert calibration["e_base"] < 1e-3 and calibration["thresholds"]["time"] > 0
    solution = tmp_path / "solution"
    write_solution(extract_files(case, oracle_reply(case)), solution)
    result = execute_solution(case, solution, tmp_path / "run", runtime)
    assert result.extra["compile_cached"] is True
    score = score_attempt(
        case,
        {"status": "ok"},
        {"status": "ok", "files": []},
        result.to_dict(),
        tmp_path / "run",
        reference,
        calibration,
    )
    assert score["failure_class"] == "Pass", score
