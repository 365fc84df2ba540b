"""PhysCodeBench's Table 1 from the physics suite's final attempts, with our physics score beside it.

Columns as the paper, with their scales in the headers: Code (S_exec + S_file, /50), Visual (S_clip + S_motion,
/50), Total (/100), then the Total over the easy and the hard cases and over each domain's cases (Rigid, Soft,
Fluid, Mech; /100). Where a sample lacks the visual scores (their models are not installed), Visual, Total and
its breakdowns are "not computed"; a second table then breaks Code (/50) down the same way, and gives ours:
Physics (/100, the share of the case's physics checks passed; never part of Total). Every number is averaged
over a case's samples (the paper's 5), then over the cases. An attempt that never ran scores 0 on every column.
A case counts in a domain column when its spec names the domain; an empty column shows a dash.
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
BREAKDOWNS = ["Easy", "Hard", *DOMAINS]
NOTE = (
    "Code: S_exec + S_file (/50); Visual: S_clip + S_motion (/50), 'not computed' where their models are not "
    "installed (CLIP and the motion model), and Total (/100) with its Easy ... Mech breakdowns is then not "
    "computed either: Code alone is never shown as Total. Means over each case's samples, then over cases."
)
CODE_NOTE = (
    "Code (/50) over the easy, hard and each domain's cases (ours: the paper breaks down only Total); Physics: "
    "our physics score (/100, share of the case's checks passed), beside PhysCodeEval, never added to it."
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


def _breakdowns(per_case: pd.DataFrame, column: str, prefix: str = "") -> dict[str, float]:
    """``column`` averaged over the easy, the hard and each domain's cases, keyed ``prefix + label``."""
    found = {
        f"{prefix}Easy": _mean_of_cases(per_case[per_case["case_hard"] == 0], column),
        f"{prefix}Hard": _mean_of_cases(per_case[per_case["case_hard"] == 1], column),
    }
    return found | {
        f"{prefix}{label}": _mean_of_cases(per_case[per_case[name] == 1], column) for label, name in DOMAINS.items()
    }


def physics_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 1 per agent and suite: samples, cases, code, visual and total (NaN: not computed), the Total
    breakdowns (``Easy`` ... ``Mech``; NaN without visual scores), the Code breakdowns (``code_Easy`` ...) and
    physics."""
    rows = []
    for (agent, suite), group in physics_rows(frame).groupby(["agent", "suite"]):
        visual_known = bool(group["visual"].notna().all())
        group = group.assign(total=group["code"] + group["visual"] if visual_known else math.nan)
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
            "total": _mean_of_cases(per_case, "total") if visual_known else math.nan,
            **_breakdowns(per_case, "total"),
            **_breakdowns(per_case, "code", "code_"),
            "physics": _mean_of_cases(per_case, "physics"),
        }
        if not visual_known:
            record |= dict.fromkeys(BREAKDOWNS, math.nan)
        rows.append(record)
    code_columns = [f"code_{label}" for label in BREAKDOWNS]
    columns = ["agent", "suite", "samples", "cases", "code", "visual", "total", *BREAKDOWNS, *code_columns, "physics"]
    return pd.DataFrame(rows, columns=columns)


def _number(value: float) -> str:
    return "—" if pd.isna(value) else f"{value:.1f}"


def _or_not_computed(value: float, known: bool) -> str:
    return _number(value) if known else NOT_COMPUTED


def physics_markdown(frame: pd.DataFrame) -> str:
    """Table 1 per agent and suite (scales in the headers, what lacks the visual scores "not computed"), the
    Code and Physics breakdowns, then the per-case code and physics scores with the frame strips' file names."""
    stats = physics_stats(frame)
    header = ["agent", "suite", "samples", "Code (/50)", "Visual (/50)", "Total (/100)"]
    header += [f"{label} (Total, /100)" for label in BREAKDOWNS]
    rows, codes = [], []
    for r in stats.itertuples(index=False):
        known = not pd.isna(r.visual)
        visual = [_or_not_computed(value, known) for value in (r.visual, r.total, *(getattr(r, b) for b in BREAKDOWNS))]
        rows.append([r.agent, r.suite, f"{r.samples} ({r.cases} cases)", _number(r.code), *visual])
        code = [_number(getattr(r, f"code_{label}")) for label in BREAKDOWNS]
        codes.append([r.agent, r.suite, *code, _number(r.physics)])
    code_header = ["agent", "suite", *(f"{label} (Code, /50)" for label in BREAKDOWNS), "Physics (/100)"]
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
        + f"\n{NOTE}\n\nCode and Physics by difficulty and domain:\n\n"
        + table(code_header, codes, left=2)
        + f"\n{CODE_NOTE}\n\nPer case:\n\n"
        + table(["agent", "suite", "case", "samples", "Code (/50)", "Physics (/100)", "frame strip"], cases, left=3)
        + f"\n{strips if cases else ''}"
    )


def _strip_name(agent: str, suite: str, case: str) -> str:
    """The frame strip the aggregate step draws for sample 0 (``results/summary/fields/``)."""
    return f"[{agent}__{suite}__{case}.png](fields/{agent}__{suite}__{case}.png)"


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The suite's table, where its scores carry ``{SUITE_METRIC}``."""
    if not suites_with(frame, SUITE_METRIC):
        return []
    return [ReportSection("As PhysCodeBench Table 1, with our physics score", physics_markdown(frame))]
