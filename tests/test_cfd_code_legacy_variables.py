"""cfd-code@legacy scores each saved variable on its own (the released protocol); the default contract does not.

One script saves ``rho`` and ``u`` of the shock tube, not ``E``, in the released layout (``np.save`` per
variable). It runs for real in both modes and is scored against a hand-made reference of 3 nodes, so every
NMSE below is computed by hand (``mean((y - y_hat)^2) / mean(y^2)``, index resampling by ``zoom(order=1)``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cfd_code_support import REPO, case

from simcodebench.artifacts import extract_files, write_solution
from simcodebench.cases import get_case
from simcodebench.execution import execute_solution
from simcodebench.references import Reference
from simcodebench.scoring import score_attempt

TASK = "1D_Euler_Shock_Tube"
CALIBRATION = {"thresholds": {"accuracy": 0.10, "time": None}}
OK = {"status": "ok"}
# E = 1, rho = 2, u = [1, 2, 3] on three nodes
REFERENCE = Reference(
    fields={"x": np.array([-1.0, 0.0, 1.0]), "E": np.ones(3), "rho": np.full(3, 2.0), "u": np.array([1.0, 2.0, 3.0])}
)
SCRIPT = """\
import numpy as np
rho = np.array([2.0, 2.0, 2.6])
u = np.array([1.0, 4.4])
np.save('rho_final.npy', rho)
np.save("u.npy", u)
{extra}
"""
# rho: errors [0, 0, 0.6] -> 0.36 / 3 / 4 = 0.03 (score 1).
# u: zoom([1, 4.4]) to 3 nodes = [1, 2.7, 4.4]; errors [0, 0.7, 1.4] -> (0.49 + 1.96) / 3 / (14 / 3) = 0.175 (0.5).
RHO, U = 0.03, 2.45 / 14


def _scored(suite: str, tmp_path: Path, extra: str = "") -> dict:
    """Extract, run (local runtime) and score the script under ``suite``."""
    the_case = get_case(suite, TASK, root=REPO / "cases")
    reply = "```python\n" + SCRIPT.format(extra=extra) + "```\n"
    write_solution(extract_files(the_case, reply), tmp_path / "solution")
    run = execute_solution(the_case, tmp_path / "solution", tmp_path / "run", "local").to_dict()
    return score_attempt(the_case, OK, OK, run, tmp_path / "run", REFERENCE, CALIBRATION)


def test_legacy_scores_the_saved_variables_and_fails_the_task_on_the_missing_one(tmp_path: Path) -> None:
    score = _scored("cfd-code@legacy", tmp_path)
    metrics = score["metrics"]
    assert metrics["nmse_rho"] == pytest.approx(RHO) and metrics["score_rho"] == 1.0
    assert metrics["nmse_u"] == pytest.approx(U) and metrics["score_u"] == 0.5
    assert "nmse_E" not in metrics and metrics["score_E"] == 0.0 and metrics["score"] == 0.0
    # the released rule: a variable with no file scores 0, so the problem cannot score 1
    assert score["failure_class"] == "F-Missing" and not score["passed"]
    assert "E_1D_Euler_Shock_Tube.npy" in score["message"] and "compared: rho, u" in score["message"]


def test_default_mode_keeps_its_contract(tmp_path: Path) -> None:
    score = _scored("cfd-code", tmp_path)
    assert score["failure_class"] == "F-Missing" and "solution.npz was not written" in score["message"]
    assert not any(key.startswith(("nmse_", "score")) for key in score["metrics"])
    assert case(TASK).suite.data.get("scoring", {}).get("report_failed_runs") is None


def test_legacy_reports_the_files_of_a_run_that_failed_its_gate(tmp_path: Path) -> None:
    """Upstream compares every file a script wrote, even when its output mentions a warning (execution fails)."""
    extra = "E = np.array([1.0, 1.0, 1.3])\nnp.save('E.npy', E)\nprint('Warning: CFL close to 1')"
    score = _scored("cfd-code@legacy", tmp_path, extra)
    assert score["failure_class"] == "F-Exec" and "'warning'" in score["message"]
    # E: errors [0, 0, 0.3] -> 0.09 / 3 / 1 = 0.03
    assert score["metrics"]["nmse_E"] == pytest.approx(0.03)
    assert score["metrics"]["nmse_rho"] == pytest.approx(RHO) and score["metrics"]["score"] == 0.5
    assert score["error"] is None  # reported, not gated


def test_legacy_with_every_variable_saved_gates_on_the_worst(tmp_path: Path) -> None:
    score = _scored("cfd-code@legacy", tmp_path, "E = np.ones(3)\nnp.save('E.npy', E)")
    assert score["failure_class"] == "F-Acc" and score["error"] == pytest.approx(U)
    assert score["metrics"]["nmse_E"] == 0.0 and score["metrics"]["score"] == 0.5


def test_legacy_a_file_that_cannot_be_compared_fails_alone(tmp_path: Path) -> None:
    """A 3-D array cannot be resampled to the 1-D reference (upstream: an error line for that file only)."""
    score = _scored("cfd-code@legacy", tmp_path, "E = np.ones((2, 2, 2))\nnp.save('E.npy', E)")
    assert score["failure_class"] == "F-Format" and "E_1D_Euler_Shock_Tube.npy" in score["message"]
    assert score["metrics"]["score_E"] == 0.0 and score["metrics"]["nmse_u"] == pytest.approx(U)
