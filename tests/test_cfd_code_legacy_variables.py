"""cfd-code@legacy scores each saved variable on its own (the released protocol); the default contract does not.

One script saves ``rho`` and ``u`` of the shock tube, not ``E``, in the released layout (``np.save`` per
variable). It runs for real in both modes and is scored against a hand-made reference of 3 nodes, so every
NMSE below is computed by hand (``mean((y - y_hat)^2) / mean(y^2)``, index resampling by ``zoom(order=1)``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cfd_code_support import REPO, case, upstream

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code.references.convection import linear_convection_1d

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


def _centred_convection(nodes: int = 100, steps: int = 500) -> np.ndarray:
    """Forward-time centred differences for ``u_t + u_x = 5e-4 u_xx`` on [-5, 5] (last node = first), t = 10:
    the scheme of the replayed generation that scores 0.181 upstream and 0.056 here."""
    x = np.linspace(-5.0, 5.0, nodes)
    dx, dt = x[1] - x[0], 10.0 / steps
    u = np.exp(-(x**2))
    for _ in range(steps):
        ring = u[:-1]  # the periodic unknowns
        ahead, behind = np.roll(ring, -1), np.roll(ring, 1)
        ring = ring - dt / (2 * dx) * (ahead - behind) + 5e-4 * dt / dx**2 * (ahead - 2 * ring + behind)
        u = np.append(ring, ring[0])
    return u


def test_the_linear_convection_gap_is_the_upstream_array_not_the_grid() -> None:
    """cases/cfd-code/README.md, "Where a replayed generation's bin differs": the gap is upstream's over-damped
    array."""
    sample = _centred_convection()
    exact_101 = linear_convection_1d(101).fields["u"]
    assert metric.legacy_nmse(exact_101, sample) == pytest.approx(0.0563, abs=5e-4)  # bin 1 here
    assert metric.nmse(linear_convection_1d(100).fields["u"], sample) == pytest.approx(0.0581, abs=5e-4)  # no zoom
    assert metric.legacy_nmse(exact_101, linear_convection_1d(100).fields["u"]) < 1e-5  # zoom 100 -> 101: nothing
    array = upstream("u", "1D_Linear_Convection")
    assert array.max() == pytest.approx(0.812, abs=1e-3) and sample.max() == pytest.approx(1.231, abs=1e-3)
    assert metric.released_score(metric.legacy_nmse(array, sample)) == 0.5  # 0.181, as the upstream log
    assert f"{metric.legacy_nmse(array, sample):.3f}" == "0.181"
