"""FEABench's Gold table (Table 2 of the paper) from the fea suite's final attempts, per agent and per problem.

Columns: Exec (mean executability, a sample the runner never reported counts 0), Valid x/N (final attempts
whose ``result.json`` was a valid target), Rel. Error | Strict (mean relative error over the valid attempts
within the paper's 10% band; the paper's principal metric), pass rate under the case's threshold tau (our
pass) and under 10% (valid and within the paper's band), and API factuality. Exec, Rel. Error | Strict and
API factuality are given as mean ± standard error, as in the paper.
"""

from __future__ import annotations

import math

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import pct, table

SUITE_METRIC = "executability"
"""The metric that marks a fea-suite score (only the fea runner reports it)."""
NOTE = (
    "Exec: top-level statements that ran / statements (mean ± s.e.); Valid: result.json parsed, finite, in "
    "convertible units, not a default or an echoed input; Rel. Error | Strict: mean relative error over valid "
    "attempts under 10% (± s.e.); pass (tau): the case's calibrated threshold; pass (10%): the paper's band; "
    "API fact.: library names used that exist in the environment (± s.e.)."
)


def _mean_se(values: pd.Series) -> tuple[float, float]:
    values = values.dropna()
    if values.empty:
        return math.nan, math.nan
    se = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0
    return float(values.mean()), se


def fea_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Counted final attempts of fea suites with the table's per-attempt columns."""
    finals = counted(frame)
    finals = finals[finals["suite"].isin(suites_with(frame, SUITE_METRIC))]
    rel = metric(finals, "rel_error")
    return finals[["agent", "suite", "case", "sample"]].assign(
        exec=metric(finals, "executability").fillna(0.0),
        valid=rel.notna(),
        rel_error=rel,
        strict=rel.where(rel < 0.10),
        pass_tau=finals["passed"].astype(bool),
        pass_10=rel.lt(0.10),
        api=metric(finals, "api_factuality"),
    )


def fea_stats(frame: pd.DataFrame, by: tuple[str, ...] = ("agent", "suite")) -> pd.DataFrame:
    """The Gold-table numbers grouped by ``by`` (add ``case`` for the per-problem table)."""
    rows = []
    for key, group in fea_rows(frame).groupby(list(by)):
        exec_mean, exec_se = _mean_se(group["exec"])
        strict_mean, strict_se = _mean_se(group["strict"])
        api_mean, api_se = _mean_se(group["api"])
        rows.append(
            {
                **dict(zip(by, key, strict=True)),
                "n": len(group),
                "exec": exec_mean,
                "exec_se": exec_se,
                "valid": int(group["valid"].sum()),
                "strict": strict_mean,
                "strict_se": strict_se,
                "pass_tau": float(group["pass_tau"].mean()),
                "pass_10": float(group["pass_10"].mean()),
                "api": api_mean,
                "api_se": api_se,
            }
        )
    columns = [*by, "n", "exec", "exec_se", "valid", "strict", "strict_se", "pass_tau", "pass_10", "api", "api_se"]
    return pd.DataFrame(rows, columns=columns)


def _pm(mean: float, se: float) -> str:
    return "—" if math.isnan(mean) else f"{mean:.2f} ± {se:.2f}"


def fea_markdown(frame: pd.DataFrame) -> str:
    """The Gold table per agent and suite, then per problem."""

    def line(r: pd.Series) -> list[object]:
        return [
            _pm(r.exec, r.exec_se),
            f"{r.valid}/{r.n}",
            _pm(r.strict, r.strict_se),
            pct(r.pass_tau),
            pct(r.pass_10),
            _pm(r.api, r.api_se),
        ]

    columns = ["Exec", "Valid", "Rel. Error | Strict", "pass (tau)", "pass (10%)", "API fact."]
    overall = [[r.agent, r.suite, *line(r)] for _, r in fea_stats(frame).iterrows()]
    problems = [
        [r.agent, r.suite, r.case, *line(r)] for _, r in fea_stats(frame, ("agent", "suite", "case")).iterrows()
    ]
    return (
        table(["agent", "suite", *columns], overall, left=2)
        + "\nPer problem:\n\n"
        + table(["agent", "suite", "problem", *columns], problems, left=3)
        + f"\n{NOTE}\n"
    )


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The suite's table, where its scores carry ``{SUITE_METRIC}``."""
    if not suites_with(frame, SUITE_METRIC):
        return []
    return [ReportSection("FEABench Gold table: Exec / Valid / Rel. Error | Strict / pass rates", fea_markdown(frame))]
