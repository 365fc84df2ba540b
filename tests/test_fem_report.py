"""PDEAgent-Bench's per-family tables on hand-made scores (the expected cells counted by hand in the comments):
Table 1 for DOLFINx suites, Table 2's deal.II part for fem-dealii, and the family metrics read from real cases."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pandas as pd

from simcodebench.core.cases import get_case
from simcodebench.core.registry import plugin
from simcodebench.report.collect import COLUMNS
from simcodebench.report.tables import summary_markdown
from simcodebench.suites.fem.families import family_metrics
from simcodebench.suites.fem.report import DEALII_FAMILIES, family_rows, family_stats, sections

POISSON = {"family_poisson": 1.0, "dealii": 0.0}
HEAT = {"family_heat": 1.0, "dealii": 0.0}
HEAT_DEALII = {"family_heat": 1.0, "dealii": 1.0}


def _row(agent: str, suite: str, case: str, sample: int, failure_class: str, **fields: Any) -> dict[str, Any]:
    metrics = fields.pop("metrics", {})
    row: dict[str, Any] = {column: None for column in COLUMNS}
    row |= {"agent": agent, "suite": suite, "case": case, "sample": sample, "attempt": 0, "status": "scored"}
    row |= {"failure_class": failure_class, "passed": failure_class == "Pass", "final": True, "selected": False}
    return row | {"metrics": json.dumps(metrics), **fields}


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame.from_records(rows, columns=list(COLUMNS)).astype(COLUMNS)


ROWS = [
    # agent a on fem: poisson 2 of 3 pass; heat: 0 of 1 (the failed run's family comes from its case's other row)
    _row("a", "fem", "poisson_square", 0, "Pass", metrics=POISSON),
    _row("a", "fem", "poisson_square", 1, "F-Acc", metrics=POISSON),
    _row("a", "fem", "poisson_lshape", 0, "Pass", metrics=POISSON),
    _row("a", "fem", "heat_square", 0, "F-Exec", metrics=HEAT),
    _row("a", "fem", "heat_square", 1, "F-Infra", metrics=HEAT),  # left out
    _row("a", "fem", "heat_square", 1, "Pass", attempt=1, final=False, metrics=HEAT),  # not final: left out
    # a case of no paper family: only in All
    _row("a", "fem", "maxwell_box", 0, "Pass", metrics={"dealii": 0.0}),
    # agent a on fem-dealii: heat 1 of 2
    _row("a", "fem-dealii", "heat_square", 0, "Pass", metrics=HEAT_DEALII),
    _row("a", "fem-dealii", "heat_square", 1, "F-Time", metrics=HEAT_DEALII),
    # another suite: never in these tables
    _row("a", "fea", "p1", 0, "Pass", metrics={"executability": 1.0}),
]


def test_family_counts_by_hand():
    rows = family_rows(_frame(ROWS))
    stats = family_stats(rows[~rows["dealii"]], ("poisson", "heat", "wave")).iloc[0]
    assert (stats["poisson_passed"], stats["poisson_counted"]) == (2, 3)
    assert (stats["heat_passed"], stats["heat_counted"]) == (0, 1)
    assert (stats["wave_passed"], stats["wave_counted"]) == (0, 0)
    assert (stats["All_passed"], stats["All_counted"]) == (3, 5)
    dealii = family_stats(rows[rows["dealii"]], DEALII_FAMILIES).iloc[0]
    assert (dealii["suite"], dealii["heat_passed"], dealii["heat_counted"]) == ("fem-dealii", 1, 2)


def test_tables_1_and_2_in_the_summary():
    frame = _frame(ROWS)
    table_1, table_2 = sections(frame)
    assert table_1.title.startswith("As PDEAgent-Bench Table 1")
    header = "| agent | suite | Bih (%) | CD (%) | Heat (%) | Helm (%) | LE (%) | Stokes (%) | Pois (%) | RD (%) |"
    assert table_1.markdown.startswith(header + " NS (%) | Burg (%) | Wave (%) | All (%) |")
    assert "| a | fem | — | — | 0.0 (0/1) | — | — | — | 66.7 (2/3) | — | — | — | — | 60.0 (3/5) |" in table_1.markdown
    assert table_2.title.startswith("As PDEAgent-Bench Table 2") and "Firedrake not computed" in table_2.title
    assert table_2.markdown.startswith(header + " NS (%) | All (%) |")
    assert "| a | fem-dealii | — | — | 50.0 (1/2) | — | — | — | — | — | — | 50.0 (1/2) |" in table_2.markdown
    summary = summary_markdown(frame, {"fem": plugin("fem"), "fem-dealii": plugin("fem"), "fea": plugin("fea")})
    assert "## As PDEAgent-Bench Table 1" in summary and "## As PDEAgent-Bench Table 2" in summary


def test_no_fem_scores_no_section():
    assert sections(_frame(ROWS[-1:])) == []


def test_family_metrics_from_real_cases():
    assert family_metrics(get_case("fem", "poisson_lshape_corner")) == {"family_poisson": 1.0, "dealii": 0.0}
    assert family_metrics(get_case("fem-dealii", "heat_square")) == {"family_heat": 1.0, "dealii": 1.0}
    # every scored attempt gets them through the plugin's hook
    assert plugin("fem").timed_metrics(get_case("fem", "heat_square"), {}, None, {}) == {
        "family_heat": 1.0,
        "dealii": 0.0,
    }
    case = get_case("fem", "heat_square")
    odd = dataclasses.replace(case, visible=dataclasses.replace(case.visible, spec={"family": "maxwell"}))
    assert family_metrics(odd) == {"dealii": 0.0}  # not a paper family: only in the All column
