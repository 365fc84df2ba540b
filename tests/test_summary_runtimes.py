"""The summary says where every sample ran: counts per agent, suite and runtime, and a warning for unconfined runs."""

from __future__ import annotations

import pandas as pd

from simcodebench.report import runtimes


def _frame(rows: list[tuple[str, str, str | None, bool]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["agent", "suite", "runtime", "final"])


def test_counts_final_samples_per_agent_suite_and_runtime():
    frame = _frame(
        [
            ("oracle", "re4", "apptainer", True),
            ("oracle", "re4", "apptainer", True),
            ("oracle", "re4", "bwrap", False),  # an earlier attempt: not counted
            ("gpt", "re4", "bwrap", True),
            ("gpt", "cfd-query", None, True),  # nothing executed
        ]
    )
    text = runtimes.markdown(frame)
    assert "| agent | suite | apptainer | bwrap | not run |" in text
    assert "| gpt | cfd-query | 0 | 0 | 1 |" in text
    assert "| gpt | re4 | 0 | 1 | 0 |" in text
    assert "| oracle | re4 | 2 | 0 | 0 |" in text
    assert "unconfined" not in text


def test_unconfined_samples_are_called_out():
    text = runtimes.markdown(_frame([("a", "re4", "local", True), ("a", "re4", "local", True)]))
    assert "**2 samples ran unconfined**" in text


def test_nothing_to_say_for_no_final_sample():
    assert runtimes.markdown(_frame([("a", "re4", "bwrap", False)])) == ""
