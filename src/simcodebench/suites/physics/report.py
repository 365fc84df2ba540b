"""PhysCodeBench's Table 1 from the physics suite's final attempts, with our physics score beside it.

Columns as the paper: Code (S_exec + S_file, 0-50), Visual (S_clip + S_motion, 0-50), Total (0-100), then the
Total over the easy and the hard cases and over each domain's cases (Rigid, Soft, Fluid, Mech); and ours:
Physics (0-100, the share of the case's physics checks passed; never part of Total). Every number is averaged
over a case's samples (the paper's 5), then over the cases. Where a sample lacks the visual scores (their
models are not installed), Visual is "not computed" and Total is Code alone (0-50). An attempt that never ran
scores 0 on every column. A case counts in a domain column when its spec names the domain; an empty column
shows a dash.
"""

from __future__ import annotations

import math

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import table

SUITE_METRIC = "s_exec"
"""The metric that marks a physics-suite score (only the physics scorer gives it)."""
DOMAINS = {"Rigid": "case_rigid", "Soft": "case_soft", "Fluid": "case_fluid", "Mech": "case_mechanics"}
NOT_COMPUTED = "not computed"
NOTE = (
    "Code: S_exec + S_file (0-50); Visual: S_clip + S_motion (0-50), 'not computed' where their models are not "
    "installed, and Total is then Code alone (0-50); Easy ... Mech: Total over those cases; Physics: our physics "
    "score (0-100, share of the case's checks passed), beside PhysCodeEval, never added to it. Means over each "
    "case's samples, then over cases."
)


def physics_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Counted final attempts of physics suites with the table's per-attempt columns (missing scores: 0;
    ``visual`` NaN where a sample lacks S_clip or S_motion)."""
    finals = counted(frame)
    finals = finals[finals["suite"].isin(suites_with(frame, SUITE_METRIC))]
    meta = {name: metric(finals, name) for name in ["case_hard", *DOMAINS.values()]}
    rows = finals[["agent", "suite", "case", "sample"]].assign(
        code=metric(finals, "code").fillna(0.0),
        visual=metric(finals, "s_clip") + metric(finals, "s_motion"),
        physics=metric(finals, "physics").fillna(0.0),
        **meta,
    )
    # the case's metadata from any of its scored attempts (an attempt scored before it was recorded has none)
    for name in meta:
        rows[name] = rows.groupby(["suite", "case"])[name].transform("max").fillna(0.0)
    return rows


def _mean_of_cases(per_case: pd.DataFrame, column: str) -> float:
    return float(per_case[column].mean()) if not per_case.empty else math.nan


def physics_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 1 per agent and suite: samples, cases, code, visual (NaN: not computed), total, the breakdowns
    and physics."""
    rows = []
    for (agent, suite), group in physics_rows(frame).groupby(["agent", "suite"]):
        visual_known = bool(group["visual"].notna().all())
        group = group.assign(total=group["code"] + (group["visual"] if visual_known else 0.0))
        per_case = group.groupby("case").agg(
            code=("code", "mean"),
            visual=("visual", "mean"),
            total=("total", "mean"),
            physics=("physics", "mean"),
            **{name: (name, "max") for name in ["case_hard", *DOMAINS.values()]},
        )
        record = {
            "agent": agent,
            "suite": suite,
            "samples": len(group),
            "cases": len(per_case),
            "code": _mean_of_cases(per_case, "code"),
            "visual": _mean_of_cases(per_case, "visual") if visual_known else math.nan,
            "total": _mean_of_cases(per_case, "total"),
            "Easy": _mean_of_cases(per_case[per_case["case_hard"] == 0], "total"),
            "Hard": _mean_of_cases(per_case[per_case["case_hard"] == 1], "total"),
            **{label: _mean_of_cases(per_case[per_case[name] == 1], "total") for label, name in DOMAINS.items()},
            "physics": _mean_of_cases(per_case, "physics"),
        }
        rows.append(record)
    columns = ["agent", "suite", "samples", "cases", "code", "visual", "total", "Easy", "Hard", *DOMAINS, "physics"]
    return pd.DataFrame(rows, columns=columns)


def _number(value: float) -> str:
    return "—" if pd.isna(value) else f"{value:.1f}"


def physics_markdown(frame: pd.DataFrame) -> str:
    """Table 1 (with the Physics column) per agent and suite, then the per-case code and physics scores with
    the frame strips' file names."""
    stats = physics_stats(frame)
    header = ["agent", "suite", "samples", "Code", "Visual", "Total", "Easy", "Hard", *DOMAINS, "Physics"]
    rows = [
        [
            r.agent,
            r.suite,
            f"{r.samples} ({r.cases} cases)",
            _number(r.code),
            NOT_COMPUTED if pd.isna(r.visual) else _number(r.visual),
            _number(r.total),
            *(_number(getattr(r, column)) for column in ["Easy", "Hard", *DOMAINS]),
            _number(r.physics),
        ]
        for r in stats.itertuples(index=False)
    ]
    per_case = (
        physics_rows(frame)
        .groupby(["agent", "suite", "case"])
        .agg(samples=("code", "size"), code=("code", "mean"), physics=("physics", "mean"))
        .reset_index()
    )
    cases = [
        [
            r.agent,
            r.suite,
            r.case,
            r.samples,
            _number(r.code),
            _number(r.physics),
            _strip_name(r.agent, r.suite, r.case),
        ]
        for r in per_case.itertuples(index=False)
    ]
    strips = "Frame strips (sample 0 above the oracle, `fields/` beside this page):\n\n"
    return (
        table(header, rows, left=2)
        + f"\n{NOTE}\n\nPer case:\n\n"
        + table(["agent", "suite", "case", "samples", "Code", "Physics", "frame strip"], cases, left=3)
        + f"\n{strips if cases else ''}"
    )


def _strip_name(agent: str, suite: str, case: str) -> str:
    """The frame strip the aggregate step draws for sample 0 (``results/summary/fields/``)."""
    return f"[{agent}__{suite}__{case}.png](fields/{agent}__{suite}__{case}.png)"


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The suite's table, where its scores carry ``{SUITE_METRIC}``."""
    if not suites_with(frame, SUITE_METRIC):
        return []
    return [ReportSection("PhysCodeBench Table 1, with our physics score", physics_markdown(frame))]
