"""The pieces of :mod:`simcodebench.core.case_failures` apart from the pipeline: the score of an attempt at a failed
case, the skip of the attempts after it, and the summary's section (on a frame written by hand)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from simcodebench.agents.strategies.base import Previous, after_pass
from simcodebench.core.case_failures import CASE_FAILED, failed_score, failure, markdown, split
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.registry import plugin_of
from simcodebench.pipeline import reference


def test_a_failed_case_is_scored_apart_and_not_asked_again():
    failed = failure("reference", ValueError("e_base 0.3 >= 0.05"))
    score = failed_score({"agent": "a", "attempt": 0}, {}, failed)
    assert score["failure_class"] == CASE_FAILED and not score["passed"]
    assert score["message"] == "the case's reference failed: ValueError: e_base 0.3 >= 0.05"
    assert after_pass(Previous({}, {}, score, Path("run"))) == score["message"]
    model_failure = {**score, "status": "scored", "failure_class": "F-Acc"}
    assert after_pass(Previous({}, {}, model_failure, Path("run"))) is None


def test_summary_section_lists_each_failed_case_once():
    rows = [
        ("ok", 0, True, "Pass", ""),
        ("bad", 0, True, CASE_FAILED, "the case's calibration failed: boom"),
        ("bad", 1, True, CASE_FAILED, "the case's calibration failed: boom"),
        ("bad", 0, False, CASE_FAILED, "an earlier attempt"),
    ]
    frame = pd.DataFrame(rows, columns=["case", "sample", "final", "failure_class", "message"]).assign(suite="s")
    scored, failed = split(frame)
    assert list(scored["case"]) == ["ok"] and len(failed) == 3
    text = markdown(failed)
    assert "| s | bad | 2 | the case's calibration failed: boom |" in text
    assert markdown(scored.iloc[0:0]) == ""


def test_an_infrastructure_failure_is_not_recorded_as_the_cases_own(tmp_path, monkeypatch, repo):
    """A broken sandbox or environment while making a reference fails the job (retried, F-Infra), and leaves no
    failed reference behind that would pass the case off as F-Case."""
    case = next(c for c in load_suite_cases(repo / "cases" / "re4") if c.id == "hilbert")

    def broken(self, _case):
        raise InfrastructureError("the python environment is not provisioned")

    monkeypatch.setattr(type(plugin_of(case)), "generate_reference", broken)
    out_json, out_h5 = tmp_path / "reference.json", tmp_path / "reference.h5"
    with pytest.raises(InfrastructureError):
        reference.make_reference(case, out_json, out_h5)
    assert not out_json.exists() and not out_h5.exists()
