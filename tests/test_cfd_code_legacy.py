"""cfd-code@legacy (the released CFDCodeBench protocol) and the upstream-log comparison, on inputs we write."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cfd_code_support import REPO, case, reference

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.agents.prompts import render_messages
from simcodebench.core.cases import get_case
from simcodebench.core.errors import InputError
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.gates import run_gate
from simcodebench.suites.cfd_code import scorer, upstream

TASKS = {"1D_Diffusion", "2D_Burgers_Equation", "1D_Burgers_Equation"}


def legacy(case_id: str):
    """A case of the legacy variant."""
    return get_case("cfd-code@legacy", case_id, root=REPO / "cases")


def test_the_variant_merges_its_keys_and_names_itself() -> None:
    the_case = legacy("1D_Diffusion")
    data = the_case.suite.data
    assert the_case.suite.name == "cfd-code@legacy" and the_case.suite.base == "cfd-code"
    assert data["prompt"] == {"system": "system.md.j2", "user": "user_legacy.md.j2", "problem": "released"}
    assert data["convergence"] == {"rewrite": "literals", "factor": 4, "wall_factor": 1, "floor": 0, "released": True}
    assert data["scoring"]["mode"] == "legacy" and [m["name"] for m in the_case.suite.mutants] == [
        "raises",
        "no-output",
        "hang",
    ]
    assert case("1D_Diffusion").suite.data["prompt"]["user"] == "user.md.j2"  # the plain suite is untouched
    with pytest.raises(InputError, match=r"variants.*no variant 'modern'.*use one of \['legacy'\]"):
        get_case("cfd-code@modern", "1D_Diffusion", root=REPO / "cases")


def test_a_case_adjusting_a_mutant_the_variant_leaves_out_still_loads() -> None:
    """Rayleigh-Benard adjusts wrong-answer and degrade-on-refine, which the legacy variant does not run."""
    the_case = legacy("2D_Rayleigh_Benard_Convection")
    assert "wrong-answer" in the_case.hidden.mutants
    assert "wrong-answer" not in [m["name"] for m in the_case.suite.mutants]


def test_the_legacy_prompt_is_the_released_one() -> None:
    user = render_messages(legacy("1D_Burgers_Equation"))[-1]["content"]
    assert "using the same name as provided in `save_values`" in user
    assert "solution.npz" not in user
    # upstream's build_conversation appends this to the prompt as it is, with no space before it
    assert user.endswith(
        "information is included.If it is an unsteady problem, only save the solution at the final time step If the"
        " problem is 1D, the saved array should be 1D. If the problem is 2D, the saved array should be 2D."
    )


def test_the_legacy_oracle_writes_the_released_layout_and_passes(tmp_path: Path) -> None:
    the_case = legacy("1D_Diffusion")
    files = extract_files(the_case, oracle_reply(the_case))
    assert "np.save('u_1D_Diffusion.npy', u)" in files["solution.py"]
    write_solution(files, tmp_path / "solution")
    result = execute_solution(the_case, tmp_path / "solution", tmp_path / "run", "local")
    assert result.status == "ok"
    evaluation = scorer.measure(the_case, tmp_path / "run", reference("1D_Diffusion"))
    assert evaluation.outcome == "ok" and evaluation.error < 0.01, evaluation


def test_legacy_execution_fails_on_error_or_warning_in_the_output(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "stderr.txt").write_text("solution.py:3: RuntimeWarning: overflow encountered in multiply\n")
    ok_run = {"status": "ok", "rc": 0}
    passed, failure, detail = run_gate(legacy("1D_Diffusion"), ok_run, run)
    assert (passed, failure) == (False, "F-Exec") and "'warning'" in detail
    assert run_gate(case("1D_Diffusion"), ok_run, run)[0] is True  # our rule: rc 0 is execution


COMPARISON_LOG = """\
2025-04-23 20:27:38,127 - INFO - ====== Starting Comparison ======
2025-04-23 20:27:38,140 - INFO - u_1D_Diffusion.npy: MSE=1.0e-01, NMSE=0.900
2025-04-23 21:55:55,170 - INFO - ====== Starting Comparison ======
2025-04-23 21:55:55,171 - INFO - Found 3 common files.
2025-04-23 21:55:55,187 - INFO - u_1D_Diffusion.npy: MSE=4.5e-04, MAE=1.4e-02, R2=0.996, NMSE=0.004
2025-04-23 21:55:55,188 - ERROR - \u274c v_2D_Burgers_Equation.npy failed: Input contains NaN.
2025-04-23 21:55:55,189 - INFO - u_2D_Burgers_Equation.npy: MSE=3.2e-01, NMSE=0.250
2025-04-23 21:55:55,190 - INFO - b_2D_Rayleigh_Benard_Convection.npy: MSE=1, NMSE=1.5
"""

EXECUTION_LOG = """\
====== Execution Results for Generated Solvers ======

--- Running: 1D_Diffusion.py ---
Exit Code: 0
Output:

Errors:

--------------------------------------------------

====== Execution Summary ======
Total Scripts Passed: 1
--- Running: 2D_Burgers_Equation.py ---
Exit Code: 0
Output:

Errors:
/x/2D_Burgers_Equation.py:51: RuntimeWarning: overflow encountered in multiply
--------------------------------------------------
--- Running: 1D_Burgers_Equation.py ---
Exception occurred while logging execution: 'NoneType' object has no attribute 'returncode'
"""


def test_the_comparison_log_is_read_from_its_last_block() -> None:
    lines = upstream.parse_comparison_log(COMPARISON_LOG, TASKS)
    assert set(lines) == {("1D_Diffusion", "u"), ("2D_Burgers_Equation", "v"), ("2D_Burgers_Equation", "u")}
    assert lines[("1D_Diffusion", "u")].nmse == pytest.approx(0.004)
    assert lines[("2D_Burgers_Equation", "v")].nmse is None
    assert lines[("2D_Burgers_Equation", "v")].failure == "Input contains NaN."
    assert upstream.split_name("u_final_1D_Burgers_Equation", TASKS) == ("1D_Burgers_Equation", "u_final")


def test_the_execution_log_applies_the_released_rule() -> None:
    assert upstream.parse_execution_log(EXECUTION_LOG) == {
        "1D_Diffusion": True,
        "2D_Burgers_Equation": False,  # rc 0 but a warning
        "1D_Burgers_Equation": False,  # no exit code: the harness itself failed
    }


def test_compare_sets_both_sides_and_counts_agreement() -> None:
    ours = {
        "1D_Diffusion": {
            "failure_class": "Pass",
            "metrics": {"nmse_u": 0.006},
            "gates": [{"name": "run", "passed": True}],
        },
        "2D_Burgers_Equation": {
            "failure_class": "F-NaN",
            "metrics": {"nmse_u": 0.05, "nmse_v": float("inf")},
            "gates": [{"name": "run", "passed": False}],
        },
    }
    rows = upstream.compare(
        upstream.parse_comparison_log(COMPARISON_LOG, TASKS), upstream.parse_execution_log(EXECUTION_LOG), ours
    )
    by_key = {(r["task"], r["variable"]): r for r in rows}
    assert (by_key[("1D_Diffusion", "u")]["upstream_bin"], by_key[("1D_Diffusion", "u")]["our_bin"]) == (1.0, 1.0)
    assert (by_key[("2D_Burgers_Equation", "u")]["upstream_bin"], by_key[("2D_Burgers_Equation", "u")]["our_bin"]) == (
        0.5,
        1.0,
    )
    assert by_key[("2D_Burgers_Equation", "v")]["our_bin"] == 0.0  # NaN and inf both score 0
    table = upstream.markdown(rows)
    assert "score bins agree on 2 of 3 variables; execution agrees on 3 of 3" in table


def test_replay_lines_wrap_each_script_and_skip_unknown_tasks(tmp_path: Path) -> None:
    (tmp_path / "1D_Diffusion.py").write_text("import numpy as np\nnp.save('u.npy', np.zeros(3))\n")
    (tmp_path / "3D_Unknown_Task.py").write_text("print(1)\n")
    (tmp_path / "notes.txt").write_text("not a script")
    out = tmp_path / "replay.jsonl"
    count, skipped = upstream.write_replay(tmp_path, out, TASKS)
    assert (count, skipped) == (1, ["3D_Unknown_Task"])
    line = json.loads(out.read_text())
    assert (line["suite"], line["case"], line["sample"], line["attempt"]) == ("cfd-code", "1D_Diffusion", 0, 0)
    assert re.fullmatch(r"```python\n.*\n```\n", line["response"], flags=re.S)
    with pytest.raises(InputError, match="holds no <task>.py script"):
        upstream.write_replay(tmp_path / "missing", out, TASKS)
