"""The re4 prompt says how a result is judged and shows the case's calibrated thresholds (issue 38); the paper's
variant keeps the printed text and shows neither."""

from __future__ import annotations

import pytest

from simcodebench.agents.prompts import render_messages, showing_thresholds, shows_thresholds
from simcodebench.core.cases import load_suite_cases
from simcodebench.core.project import cases_root

CASES = load_suite_cases(cases_root() / "re4")
SHOWN = {"accuracy": 4.8e-3, "time": 57.0}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_the_prompt_states_the_metric_and_the_thresholds(case):
    judged = case.visible.contract.get("judged")
    assert judged, f"{case.key}: no contract.judged"
    assert shows_thresholds(case)
    with showing_thresholds(SHOWN):
        prompt = render_messages(case)[-1]["content"]
    assert "## How it is judged" in prompt and judged.strip() in prompt
    assert "at most 4.8e-03 and a wall time of at most 57 s." in prompt


@pytest.mark.parametrize("case", load_suite_cases(cases_root() / "re4", "paper"), ids=lambda c: c.id)
def test_the_paper_variant_shows_no_rule(case):
    assert not shows_thresholds(case)
    with showing_thresholds(SHOWN):
        prompt = render_messages(case)[-1]["content"]
    assert "How it is judged" not in prompt and "4.8e-03" not in prompt
