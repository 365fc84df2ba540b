"""The suite's ``e_base_limit``: a case whose oracle misses its reference by that much is dropped at calibration.

PDEAgent-Bench keeps a case only if e_base < 0.05 (Table 7's maximum over all cases, manufactured ones too, is
4.9e-2). Upstream ``helmholtz_square_offset_hole`` (P1 at h = 0.02, k = 11.5 near a resonance of the domain) has
e_base 1.10 at its own configuration, which would make its accuracy gate 11: every finite field would pass.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simcodebench.core.cases import load_suite_cases
from simcodebench.core.measurement import Measurement
from simcodebench.core.project import cases_root
from simcodebench.core.references import Reference
from simcodebench.pipeline import calibrate as calibration

CASE = next(c for c in load_suite_cases(cases_root() / "fem") if c.hidden.reference["generator"] == "manufactured")


@pytest.fixture
def oracle_error(monkeypatch):
    """Calibrate with the oracle's runs replaced by ones that take 2 s and err by the value set here."""
    error = {}
    monkeypatch.setattr(
        calibration, "execute_solution", lambda *args, **kwargs: SimpleNamespace(status="ok", wall_s=2.0, message="")
    )
    measured = SimpleNamespace(measure=lambda *args: Measurement(outcome="ok", error=error["value"]))
    monkeypatch.setattr(calibration, "plugin_of", lambda case: measured)
    return error


def test_the_fem_suites_drop_a_case_at_the_papers_limit(oracle_error, tmp_path):
    assert CASE.threshold_policy()["accuracy"]["e_base_limit"] == 0.05
    oracle_error["value"] = 0.05
    with pytest.raises(calibration.CalibrationError, match=r"e_base 0.05 >= 0.05.*drop the case"):
        calibration.calibrate_case(CASE, Reference(), tmp_path / "work", "local")


def test_below_the_limit_the_thresholds_follow_e_base(oracle_error, tmp_path):
    oracle_error["value"] = 0.049
    record = calibration.calibrate_case(CASE, Reference(), tmp_path / "work", "local")
    assert record["e_base"] == 0.049 and record["t_base"] == 2.0
    assert record["thresholds"] == {"accuracy": pytest.approx(0.49), "time": pytest.approx(6.0)}
