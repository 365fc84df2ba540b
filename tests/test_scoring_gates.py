"""The gate order and failure classes, on hand-made run records and outputs (re4 Hilbert contract)."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.core.registry import plugin_of
from simcodebench.pipeline.gates import score_attempt

CALIBRATION = {"thresholds": {"accuracy": 1e-2, "time": 10.0}}
OK_RESPONSE = {"status": "ok"}
OK_MANIFEST = {"status": "ok"}
OK_RUN = {"status": "ok", "wall_s": 1.0}


@pytest.fixture(scope="module")
def hilbert():
    case = get_case("re4", "hilbert")
    return case, plugin_of(case).generate_reference(case)


def _write(run_dir, offset=0.0, sizes=(5, 10, 15, 20, 25), nan=False):
    arrays = {f"x_{n}": np.ones(n) + offset for n in sizes}
    if nan:
        arrays["x_5"][2] = np.nan
    np.savez(run_dir / "solution.npz", **arrays)


@pytest.mark.parametrize(
    ("response", "manifest", "run", "outputs", "expected"),
    [
        ({"status": "no_response"}, OK_MANIFEST, OK_RUN, None, "F-NoResponse"),
        (OK_RESPONSE, {"status": "extract_failed", "reason": "no block"}, OK_RUN, None, "F-Extract"),
        (OK_RESPONSE, OK_MANIFEST, {"status": "timeout", "wall_s": 60}, None, "F-Timeout"),
        (OK_RESPONSE, OK_MANIFEST, {"status": "error", "wall_s": 1}, None, "F-Exec"),
        (OK_RESPONSE, OK_MANIFEST, {"status": "killed", "wall_s": 1}, None, "F-Exec"),
        (OK_RESPONSE, OK_MANIFEST, {"status": "infra", "wall_s": 0}, None, "F-Infra"),
        (OK_RESPONSE, OK_MANIFEST, OK_RUN, None, "F-Missing"),
        (OK_RESPONSE, OK_MANIFEST, OK_RUN, {"sizes": (5, 10, 15, 20)}, "F-Format"),
        (OK_RESPONSE, OK_MANIFEST, OK_RUN, {"nan": True}, "F-NaN"),
        (OK_RESPONSE, OK_MANIFEST, OK_RUN, {"offset": 0.02}, "F-Acc"),
        (OK_RESPONSE, OK_MANIFEST, {"status": "ok", "wall_s": 11.0}, {"offset": 0.005}, "F-Time"),
        (OK_RESPONSE, OK_MANIFEST, OK_RUN, {"offset": 0.005}, "Pass"),
    ],
)
def test_first_missed_gate_names_the_class(tmp_path, hilbert, response, manifest, run, outputs, expected):
    case, reference = hilbert
    if outputs is not None:
        _write(tmp_path, **outputs)
    score = score_attempt(case, response, manifest, run, tmp_path, reference, CALIBRATION)
    assert score["failure_class"] == expected
    assert score["passed"] == (expected == "Pass")
    assert [g["passed"] for g in score["gates"]].count(False) == (0 if expected == "Pass" else 1)


def test_accuracy_is_the_hand_computed_linf(tmp_path, hilbert):
    case, reference = hilbert
    _write(tmp_path, offset=0.004)
    score = score_attempt(case, OK_RESPONSE, OK_MANIFEST, OK_RUN, tmp_path, reference, CALIBRATION)
    assert score["error"] == pytest.approx(0.004)


def test_no_time_gate_when_the_suite_has_none(tmp_path, hilbert):
    case, reference = hilbert
    _write(tmp_path)
    calibration = {"thresholds": {"accuracy": 1e-2, "time": None}}
    slow = {"status": "ok", "wall_s": 1e6}
    score = score_attempt(case, OK_RESPONSE, OK_MANIFEST, slow, tmp_path, reference, calibration)
    assert score["passed"] and [g["name"] for g in score["gates"]][-1] == "accuracy"


def test_reference_object_is_what_scoring_uses(tmp_path, hilbert):
    case, _ = hilbert
    _write(tmp_path)
    shifted = Reference(fields={f"x_{n}": np.full(n, 2.0) for n in (5, 10, 15, 20, 25)})
    score = score_attempt(case, OK_RESPONSE, OK_MANIFEST, OK_RUN, tmp_path, shifted, CALIBRATION)
    assert score["failure_class"] == "F-Acc"
