"""``fem@released`` and ``pdeagent-bench@released``: PDEAgent-Bench's released protocol. The prompt is the
released builder's, word for word (checked against upstream's own builder on every record, thresholds and knobs
included); the program gets the released ``case_spec`` (grid under ``output.grid``) and the released runner's
checks; solutions written to that contract run on DOLFINx and pass the same gates, and one that breaks it gets
one line naming the file, the field and the fix."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcodebench.agents.prompts import render_messages, showing_thresholds
from simcodebench.core.cases import get_case, load_suite_cases
from simcodebench.execution.sandbox import execute_solution
from simcodebench.suites.fem import harness, scorer
from simcodebench.suites.fem.importer import import_pdeagent_bench, read_records
from simcodebench.suites.fem.released_prompt import released_body
from simcodebench.suites.fem.released_spec import agent_view, released_case_spec

SOLUTION = Path(__file__).with_name("fem_released") / "poisson_solver.py"
RECORD = "poisson_basic"
"""An upstream record the Poisson solution above solves (kappa 1, u = sin(pi x) sin(pi y))."""
ALPHA_ACC, ALPHA_TIME, FLOOR = 10.0, 3.0, 1e-6
"""The fem suite's gates (suite.yaml): tau_acc = max(10 e_base, 1e-6), tau_time = 3 t_base."""


def _upstream_builder(upstream: Path):
    """Upstream's released prompt builder, loaded from ``../shared/upstream`` (never copied)."""
    path = upstream / "pdeagent-bench" / "code" / "pdebench" / "core" / "prompt_builder.py"
    spec = importlib.util.spec_from_file_location("upstream_prompt_builder", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def records(upstream):
    return read_records(upstream / "pdeagent-bench" / "benchmark_v2.jsonl")


@pytest.fixture(scope="module")
def imported(records, tmp_path_factory):
    """The one record, imported as a suite of its own and loaded under the released variant."""
    folder = tmp_path_factory.mktemp("released")
    jsonl = folder / "one.jsonl"
    jsonl.write_text(json.dumps(next(r for r in records if r["id"] == RECORD)) + "\n")
    out = folder / "pdeagent-bench"
    import_pdeagent_bench(jsonl, out)
    return load_suite_cases(out, "released")[0]


def test_released_body_is_upstreams_for_every_record(upstream, records):
    builder = _upstream_builder(upstream)
    for record in records:
        theirs = builder.generate_prompt(record).split("\n---\n\n**Output only")[0]
        assert released_body(agent_view(record)) == theirs, record["id"]


def test_released_prompt_shows_the_thresholds_and_knobs(upstream, records, imported):
    record = next(r for r in records if r["id"] == RECORD)
    e_base, t_base = 1.234e-4, 2.5
    shown = {"accuracy": max(ALPHA_ACC * e_base, FLOOR), "time": ALPHA_TIME * t_base}
    with showing_thresholds(shown):
        system, user = render_messages(imported)
    theirs = _upstream_builder(upstream).generate_prompt(record, oracle_info={"error": e_base, "time": t_base})
    ours = user["content"].split("## DOLFINx 0.11 Guide")[0].strip()
    assert ours == theirs.split("## DOLFINX 0.10.0 Guide")[0].strip()
    assert "- Accuracy: error ≤ 1.23e-03\n- Time: wall_time_sec ≤ 7.500s" in user["content"]
    assert "- mesh_resolution: Grid resolution for your solver\n" in user["content"]
    assert "FEniCSx/dolfinx" in system["content"] and "library_guide" not in user["content"]
    assert released_case_spec(imported) == agent_view(record)  # no repair in this record


def test_own_case_in_the_released_layout():
    case = get_case("fem@released", "heat_square")
    spec = released_case_spec(case)
    native = case.visible.spec["case_spec"]
    assert spec["output"]["grid"] == {"nx": 51, "ny": 51, "bbox": [0, 1, 0, 1]} and "eval_grid" not in spec
    assert spec["pde"]["coefficients"] == {"kappa": {"type": "expr", "expr": "1 + x"}}
    assert spec["pde"]["source_term"] == native["pde"]["forcing"]["value"]
    assert spec["pde"]["initial_condition"] == native["ic"]["u0"]
    assert spec["pde"]["time"] == {"t0": 0.0, "t_end": 0.1, "dt": 0.005, "scheme": "crank_nicolson"}
    assert spec["pde_classification"] == {"equation_type": "heat", "math_type": ["parabolic"]}


def _run_released(case, tmp_path: Path, source: str) -> subprocess.CompletedProcess:
    """The released runner on ``source`` in a fresh directory prepared by the harness (numpy only, no DOLFINx)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    harness.prepare_run(case, tmp_path)
    (tmp_path / "solver.py").write_text(source)
    return subprocess.run(
        [sys.executable, case.suite.entrypoint], cwd=tmp_path, capture_output=True, text=True, check=False
    )


STUB = """import numpy as np


def {name}(case_spec):
    grid = case_spec["output"]["grid"]
    x = np.linspace(grid["bbox"][0], grid["bbox"][1], grid["nx"])
    y = np.linspace(grid["bbox"][2], grid["bbox"][3], grid["ny"])
    u = np.add.outer(10 * y, x)
    info = {{"mesh_resolution": 8, "element_degree": 1, "ksp_type": "cg", "pc_type": "jacobi", "rtol": 1e-8}}
    info.pop({drop!r}, None)
    return {{{key!r}: u{flat}, "solver_info": info}}
"""


def test_released_runner_takes_upstreams_alternatives(tmp_path):
    case = get_case("fem@released", "poisson_square_kappa")
    done = _run_released(case, tmp_path, STUB.format(name="solve_case", key="u_grid", flat=".ravel()", drop=""))
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "case_spec.json").read_text())["output"]["grid"]["nx"] == 51
    with np.load(tmp_path / "solution.npz") as saved:
        assert saved["u"].shape == (51, 51) and saved["u"][2, 3] == pytest.approx(10 * 0.04 + 0.06)
        assert saved["x"][-1] == 1.0
    assert json.loads((tmp_path / "meta.json").read_text())["solver_info"]["rtol"] == 1e-8


@pytest.mark.parametrize(
    ("stub", "line"),
    [
        (
            {"name": "solve", "key": "u", "flat": "", "drop": "rtol"},
            'contract violation: solver.py: solve(case_spec)["solver_info"]["rtol"] is missing; '
            'fix: add "rtol" to solver_info',
        ),
        (
            {"name": "solve", "key": "u", "flat": "[:, :-1]", "drop": ""},
            'contract violation: solver.py: solve(case_spec)["u"] has shape (51, 50), the grid (51, 51); '
            "fix: sample on output.grid's nx, ny, nz",
        ),
        (
            {"name": "solve", "key": "field", "flat": "", "drop": ""},
            'contract violation: solver.py: solve(case_spec)["u"] is missing; '
            'fix: return the field on output.grid under "u"',
        ),
    ],
    ids=["solver-info-key", "grid-shape", "no-field"],
)
def test_a_broken_contract_gets_one_line(tmp_path, stub, line):
    done = _run_released(get_case("fem@released", "poisson_square_kappa"), tmp_path, STUB.format(**stub))
    assert done.returncode == 3
    assert done.stderr.strip() == line
    assert not (tmp_path / "solution.npz").exists() and not (tmp_path / "meta.json").exists()


def _gated(case, tmp_path: Path, source: str) -> tuple[float, float]:
    """(error, wall time) of ``source`` run through the sandbox and the fem scorer."""
    solution = tmp_path / "solution"
    solution.mkdir(parents=True)
    (solution / "solver.py").write_text(source)
    result = execute_solution(case, solution, tmp_path / "run", "local")
    assert result.status == "ok", (tmp_path / "run" / "stderr.txt").read_text()[-2000:]
    measured = scorer.measure(case, tmp_path / "run", scorer.generate_reference(case))
    assert measured.outcome == "ok", measured.message
    return measured.error, result.wall_s


def _passes_the_gates(case, tmp_path: Path, source: str) -> None:
    """The oracle (through the variant's adapter) sets the gates; the Poisson solution ``source`` passes them."""
    e_base, t_base = _gated(case, tmp_path / "oracle", harness.oracle_source(case))
    assert e_base < 1e-3
    error, wall = _gated(case, tmp_path / "solution", source)
    assert error <= max(ALPHA_ACC * e_base, FLOOR), (error, e_base)
    assert wall <= ALPHA_TIME * t_base, (wall, t_base)


@pytest.mark.slow
def test_own_case_solution_passes(dolfinx_env, tmp_path):
    _passes_the_gates(get_case("fem@released", "poisson_square_kappa"), tmp_path, SOLUTION.read_text())


@pytest.mark.slow
def test_upstream_record_solution_passes(dolfinx_env, imported, tmp_path):
    """Written the other way the released runner allows: ``solve_case`` returning ``u_grid``."""
    other = SOLUTION.read_text().replace("def solve(", "def solve_case(").replace('{"u": on_grid', '{"u_grid": on_grid')
    assert "def solve_case(" in other and '"u_grid"' in other
    _passes_the_gates(imported, tmp_path, other)
