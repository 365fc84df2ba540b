"""CFDQuery's accuracy table: correct answers per agent and suite, with the 95% Wilson interval."""

from __future__ import annotations

import math

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import ci, table
from simcodebench.report.stats import wilson_interval

NOTE = (
    "As CFDQuery: accuracy = correct / questions over final attempts (F-Infra left out), with its 95% Wilson "
    "interval; unanswered = no reply or no option 1-4 in it (counted wrong)."
)


def cfd_query_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """CFDQuery's accuracy per agent and suite over counted final attempts, with its 95% Wilson interval; an
    unparsable or missing answer is wrong."""
    finals = counted(frame)
    finals = finals[finals["suite"].isin(suites_with(frame, "correct"))]
    finals = finals.assign(correct=metric(finals, "correct").fillna(0.0).astype(int))
    rows = []
    for (agent, suite), at in finals.groupby(["agent", "suite"]):
        n, correct = len(at), int(at["correct"].sum())
        low, high = wilson_interval(correct, n)
        unparsed = int(at["failure_class"].isin(["F-Extract", "F-NoResponse"]).sum())
        rows.append(
            {
                "agent": agent,
                "suite": suite,
                "questions": n,
                "correct": correct,
                "unanswered": unparsed,
                "accuracy": correct / n if n else math.nan,
                "low": low,
                "high": high,
            }
        )
    columns = ["agent", "suite", "questions", "correct", "unanswered", "accuracy", "low", "high"]
    return pd.DataFrame(rows, columns=columns)


def cfd_query_markdown(frame: pd.DataFrame) -> str:
    """CFDQuery's accuracy per agent and suite."""
    header = ["agent", "suite", "questions", "correct", "unanswered", "accuracy [95% CI]"]
    rows = [
        [r.agent, r.suite, r.questions, r.correct, r.unanswered, ci(r.accuracy, r.low, r.high)]
        for r in cfd_query_stats(frame).itertuples()
    ]
    return table(header, rows, left=2)


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The CFDQuery section, where a suite's scores carry ``correct``."""
    if not suites_with(frame, "correct"):
        return []
    return [ReportSection("CFDQuery accuracy", f"{cfd_query_markdown(frame)}\n{NOTE}\n")]
