"""The papers' tables on rows with mixed values, every number worked by hand: FEABench's Gold table (Exec, Valid,
Rel. Error | Strict, pass rates, API factuality, mean ± standard error), FoamBench's means (a missing column
counts 0) and CFDQuery's accuracy (Wilson interval from scipy, unanswered count). Each frame also holds rows the
table must leave out: F-Infra finals, non-final attempts, another suite."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import pytest
from scipy.stats import binomtest

from simcodebench.report.collect import COLUMNS
from simcodebench.suites.cfd_query.report import cfd_query_markdown, cfd_query_stats
from simcodebench.suites.fea.report import fea_markdown, fea_stats
from simcodebench.suites.foam import paper_tables
from simcodebench.suites.foam.report import foambench_markdown, foambench_stats


def _row(agent: str, suite: str, case: str, sample: int, failure_class: str, **fields: Any) -> dict[str, Any]:
    """One row of the tidy frame: a final, scored attempt unless ``fields`` say otherwise."""
    metrics = fields.pop("metrics", {})
    row: dict[str, Any] = {column: None for column in COLUMNS}
    row |= {"agent": agent, "suite": suite, "case": case, "sample": sample, "attempt": 0, "status": "scored"}
    row |= {"failure_class": failure_class, "passed": failure_class == "Pass", "final": True, "selected": False}
    row |= {"metrics": json.dumps(metrics, sort_keys=True), **fields}
    return row


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame.from_records(rows, columns=list(COLUMNS)).astype(COLUMNS)


def _left_out(suite: str, metrics: dict[str, float]) -> list[dict[str, Any]]:
    """Rows that would change every number if counted: an F-Infra final, a non-final attempt, another suite."""
    return [
        _row("a", suite, "p1", 9, "F-Infra", metrics=metrics, run_status="ok"),
        _row("a", suite, "p1", 0, "Pass", attempt=1, final=False, metrics=metrics, run_status="ok"),
        _row("a", "re4", "hilbert", 0, "Pass", metrics={"rel_l2": 0.0}, run_status="ok"),
    ]


# ---------------------------------------------------------------- FEABench Gold table

GOLD = [
    _row("a", "fea", "p1", 0, "Pass", metrics={"executability": 1.0, "rel_error": 0.02, "api_factuality": 1.0}),
    _row("a", "fea", "p1", 1, "F-Acc", metrics={"executability": 0.5, "rel_error": 0.08, "api_factuality": 0.5}),
    _row("a", "fea", "p2", 0, "F-Acc", metrics={"executability": 0.75, "rel_error": 0.10}),  # on the band: not in
    _row("a", "fea", "p2", 1, "F-Valid", metrics={"executability": 0.25}),  # invalid: no error
    _row("a", "fea", "p2", 2, "F-Exec"),  # the runner reported nothing: Exec counts 0
    *_left_out("fea", {"executability": 0.0, "rel_error": 0.5, "api_factuality": 0.0}),
]


def test_gold_table_overall_by_hand():
    stats = fea_stats(_frame(GOLD))
    assert stats[["agent", "suite"]].values.tolist() == [["a", "fea"]]
    row = stats.iloc[0]
    # Exec 1, 0.5, 0.75, 0.25, 0: mean 0.5, sample variance 0.625 / 4, s.e. sqrt(0.15625 / 5)
    assert (row.n, row.exec, row.exec_se) == (5, 0.5, pytest.approx(math.sqrt(0.03125)))
    assert (row.valid, row.problems, row.valid_problems) == (3, 2, pytest.approx(4 / 3))
    # strict: 0.02 and 0.08 (0.10 is not under 10%): mean 0.05, s.d. 0.03 sqrt(2), s.e. 0.03
    assert (row.strict, row.strict_se) == (pytest.approx(0.05), pytest.approx(0.03))
    assert (row.pass_tau, row.pass_10) == (0.2, 0.4)
    assert (row.api, row.api_se) == (0.75, pytest.approx(0.25))  # two samples report names: 1 and 0.5


def test_gold_table_per_problem_by_hand():
    stats = fea_stats(_frame(GOLD), ("agent", "suite", "case")).set_index("case")
    p1, p2 = stats.loc["p1"], stats.loc["p2"]
    assert (p1.n, p1.exec, p1.exec_se, p1.valid, p1.pass_tau, p1.pass_10) == (2, 0.75, pytest.approx(0.25), 2, 0.5, 1.0)
    # Exec 0.75, 0.25, 0: mean 1/3, deviations 5/12, -1/12, -1/3: variance (25 + 1 + 16) / 144 / 2 = 7/48
    assert (p2.n, p2.exec, p2.exec_se) == (3, pytest.approx(1 / 3), pytest.approx(math.sqrt(7 / 48 / 3)))
    assert (p2.valid, p2.pass_tau, p2.pass_10) == (1, 0.0, 0.0)
    assert math.isnan(p2.strict) and math.isnan(p2.api)


def test_gold_table_markdown():
    text = fea_markdown(_frame(GOLD))
    nc2, nc5 = " | ".join(["not computed"] * 2), " | ".join(["not computed"] * 5)
    header = (
        "| agent | suite | samples | Exec | Tree | CodeSim | Valid (problems) | IfFact | IfRec | FeatRec | PropRec |"
    )
    assert text.startswith(header + " FeatDim | Rel. Error \\| Strict | pass (tau) | pass (10%) | API fact. |")
    # Valid over problems: p1 valid in 2 of 2 samples, p2 in 1 of 3: 1 + 1/3 of the 2 problems
    assert f"| a | fea | 5 | 0.50 ± 0.18 | {nc2} | 1.3/2 | {nc5} | 0.05 ± 0.03 | 20.0% | 40.0% | 0.75 ± 0.25 |" in text
    assert f"| a | fea | p1 | 0.75 ± 0.25 | {nc2} | 2/2 | {nc5} | 0.05 ± 0.03 | 50.0% | 100.0% | 0.75 ± 0.25 |" in text
    assert f"| a | fea | p2 | 0.33 ± 0.22 | {nc2} | 1/3 | {nc5} | — | 0.0% | 0.0% | — |" in text
    assert "COMSOL's model tree" in text


def test_gold_table_valid_counts_problems_as_the_paper():
    """One sample per problem, as the paper: Valid is x/15 style, whole problems."""
    rows = [_row("a", "fea", f"p{i}", 0, "F-Acc", metrics={"executability": 1.0, "rel_error": 0.5}) for i in range(3)]
    rows.append(_row("a", "fea", "p3", 0, "F-Valid", metrics={"executability": 1.0}))
    stats = fea_stats(_frame(rows)).iloc[0]
    assert (stats.valid_problems, stats.problems) == (3.0, 4)
    assert "| a | fea | 4 | 1.00 ± 0.00 | not computed | not computed | 3/4 |" in fea_markdown(_frame(rows))


# ---------------------------------------------------------------- FoamBench

FOAM = [
    _row("a", "foam", "p1", 0, "Pass", run_status="ok", metrics={"struct": 1.0, "file": 0.9, "nmse_score": 1.0}),
    _row("a", "foam", "p1", 1, "F-Acc", run_status="ok", metrics={"struct": 0.8, "file": 0.6, "nmse_score": 0.5}),
    _row("a", "foam", "p2", 0, "F-Exec", run_status="error", metrics={"struct": 0.6, "file": 0.3}),  # not run: NMSE 0
    _row("a", "foam", "p2", 1, "F-Extract"),  # no case extracted: 0 in every column
    _row("a", "foam-hard", "p3", 0, "F-Acc", run_status="ok", metrics={"struct": 0.5, "file": 0.5, "nmse_score": 0}),
    _row("b", "foam", "p1", 0, "Pass", run_status="ok", metrics={"struct": 1.0, "file": 1.0, "nmse_score": 1.0}),
    *_left_out("foam", {"struct": 0.0, "file": 0.0, "nmse_score": 0.0}),
]


def test_foambench_means_by_hand():
    stats = foambench_stats(_frame(FOAM)).set_index(["agent", "suite"])
    columns = ["samples", "exec", "struct", "file", "nmse", "success"]
    assert stats.loc[("a", "foam"), columns].tolist() == pytest.approx([4, 0.5, 0.6, 0.45, 0.375, 0.25])
    assert stats.loc[("a", "foam-hard"), columns].tolist() == pytest.approx([1, 1.0, 0.5, 0.5, 0.0, 0.0])
    assert stats.loc[("b", "foam"), columns].tolist() == pytest.approx([1, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert len(stats) == 3
    assert "| a | foam | 4 | 0.500 | 0.600 | 0.450 | 0.375 | 0.250 |" in foambench_markdown(_frame(FOAM))


def _foam(agent: str, suite: str, case: str, cls: str, strategy: str, **fields: Any) -> dict[str, Any]:
    return _row(agent, suite, case, fields.pop("sample", 0), cls, strategy=strategy, **fields)


PROTOCOLS = [
    # z, zero-shot: on foam p1 passes, p2 does not run (exec 0.5, struct 0.75, file 0.6, NMSE 0.5, success 0.5)
    _foam(
        "z",
        "foam",
        "p1",
        "Pass",
        "single",
        run_status="ok",
        prompt_tokens=100,
        completion_tokens=50,
        cost_usd=0.01,
        metrics={"struct": 1.0, "file": 0.8, "nmse_score": 1.0},
    ),
    _foam(
        "z",
        "foam",
        "p2",
        "F-Exec",
        "single",
        run_status="error",
        prompt_tokens=300,
        completion_tokens=70,
        cost_usd=0.03,
        metrics={"struct": 0.5, "file": 0.4},
    ),
    _foam("z", "foam", "p1", "F-Infra", "single", sample=9, prompt_tokens=10**6, cost_usd=9.0),  # not counted
    # z on the second split, no token counts from the endpoint
    _foam(
        "z",
        "foam-hard",
        "p3",
        "F-Acc",
        "single",
        run_status="ok",
        metrics={"struct": 0.5, "file": 0.5, "nmse_score": 0.5},
    ),
    # r, retry with the error (Reviewer only): fails, passes, then a skipped attempt (not a loop)
    _foam(
        "r",
        "foam",
        "p1",
        "F-Exec",
        "feedback",
        final=False,
        run_status="error",
        prompt_tokens=100,
        completion_tokens=10,
        metrics={"struct": 1.0, "file": 1.0},
    ),
    _foam(
        "r",
        "foam",
        "p1",
        "Pass",
        "feedback",
        attempt=1,
        run_status="ok",
        prompt_tokens=200,
        completion_tokens=20,
        metrics={"struct": 1.0, "file": 1.0, "nmse_score": 1.0},
    ),
    _foam("r", "foam", "p1", "Pass", "feedback", attempt=2, final=False, status="skipped"),
    _row("a", "fea", "p1", 0, "Pass", strategy="single", metrics={"executability": 1.0}),  # another suite
]


def test_cfdllmbench_tables_6_2_and_8_by_hand():
    table_6, table_2, table_8 = paper_tables.sections(_frame(PROTOCOLS))
    assert table_6.title == "As CFDLLMBench Table 6 (FoamBench, zero-shot)"
    assert table_6.markdown.startswith(
        "| agent | foam: exec/struct/file/NMSE/Success (samples) | foam-hard: exec/struct/file/NMSE/Success (samples) |"
    )
    assert "| z | 0.500/0.750/0.600/0.500/0.500 (2) | 1.000/0.500/0.500/0.500/0.000 (1) |" in table_6.markdown
    assert "| r |" not in table_6.markdown  # a retrying agent is not zero-shot
    assert table_2.title == "As CFDLLMBench Table 2 (FoamBench ablations, Success)"
    assert "| r | foam | not computed | 1.000 (1) |" in table_2.markdown and "| z |" not in table_2.markdown
    # per sample, summed over asked attempts: z on foam (100 + 300) / 2 prompt, (50 + 70) / 2 completion
    assert "| z | foam | 2 | 200 | 60 | 0.0200 | 1.0 |" in table_8.markdown
    assert "| z | foam-hard | 1 | — | — | — | 1.0 |" in table_8.markdown
    assert "| r | foam | 1 | 300 | 30 | — | 2.0 |" in table_8.markdown
    assert "Table 7 (RAG+Reviewer" in table_8.markdown and "fea" not in table_8.markdown
    assert paper_tables.sections(_frame(PROTOCOLS[-1:])) == []


# ---------------------------------------------------------------- CFDQuery

QUERY = [
    *(_row("a", "cfdquery", f"q{i}", 0, "Pass", metrics={"correct": 1}) for i in range(3)),
    *(_row("a", "cfdquery", f"q{i}", 0, "F-Acc", metrics={"correct": 0}) for i in range(3, 5)),
    _row("a", "cfdquery", "q5", 0, "F-Extract"),  # no option 1-4 in the reply: wrong, unanswered
    _row("a", "cfdquery", "q6", 0, "F-NoResponse"),  # no reply: wrong, unanswered
    *_left_out("cfdquery", {"correct": 1}),
]


def test_cfd_query_accuracy_wilson_interval_and_unanswered():
    stats = cfd_query_stats(_frame(QUERY))
    assert len(stats) == 1
    row = stats.iloc[0]
    assert (row.questions, row.correct, row.unanswered, row.accuracy) == (7, 3, 2, pytest.approx(3 / 7))
    interval = binomtest(3, 7).proportion_ci(confidence_level=0.95, method="wilson")
    assert (row.low, row.high) == (pytest.approx(interval.low, abs=1e-12), pytest.approx(interval.high, abs=1e-12))
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.1582, 0.7495)
    assert "| a | cfdquery | 7 | 3 | 2 | 42.9% [15.8, 75.0] |" in cfd_query_markdown(_frame(QUERY))
