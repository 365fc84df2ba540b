"""FEABench's Gold table (Table 2 of the paper) from the fea suite's final attempts, per agent and per problem.

The paper's columns in its order: Exec (mean executability, a sample the runner never reported counts 0), Tree
and CodeSim (not computed), Valid x/P (problems with a valid target, out of the P problems: the paper's x/15;
with several samples, each problem counts its share of valid samples), IfFact, IfRec, FeatRec, PropRec and
FeatDim (not computed: COMSOL's model tree, interfaces, features and properties; no open solver has them). Then
ours: Rel. Error | Strict (mean relative error over the valid attempts within the paper's 10% band; the paper's
principal metric), pass rate under the case's threshold tau (our pass) and under 10% (valid and within the paper's
band), and API factuality. Exec, Rel. Error | Strict and API factuality are given as mean ± standard error, as in
the paper.
"""

from __future__ import annotations

import math

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import pct, table

SUITE_METRIC = "executability"
"""The metric that marks a fea-suite score (only the fea runner reports it)."""
NOT_COMPUTED = "not computed"
PAPER_ONLY = ("Tree", "CodeSim")
COMSOL_ONLY = ("IfFact", "IfRec", "FeatRec", "PropRec", "FeatDim")
NOTE = (
    "Tree, CodeSim, IfFact, IfRec, FeatRec, PropRec, FeatDim: not computed (COMSOL's model tree, its physics "
    "interfaces, features and properties, and the similarity to the COMSOL Java code: none exists for the open "
    "solvers here; cases/fea/README.md). Valid x/P: problems with a valid target out of the P problems (per "
    "problem: valid final attempts / samples). Exec: top-level statements that ran / statements (mean ± s.e.); "
    "Valid: result.json parsed, finite, in convertible units, not a default or an echoed input; "
    "Rel. Error | Strict: mean relative error over valid attempts under 10% (± s.e.); "
    "pass (tau): the case's calibrated threshold; pass (10%): the paper's band; "
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
                "problems": int(group["case"].nunique()),
                "valid_problems": float(group.groupby("case")["valid"].mean().sum()),
                "strict": strict_mean,
                "strict_se": strict_se,
                "pass_tau": float(group["pass_tau"].mean()),
                "pass_10": float(group["pass_10"].mean()),
                "api": api_mean,
                "api_se": api_se,
            }
        )
    columns = [
        *by,
        "n",
        "exec",
        "exec_se",
        "valid",
        "problems",
        "valid_problems",
        "strict",
        "strict_se",
        "pass_tau",
        "pass_10",
        "api",
        "api_se",
    ]
    return pd.DataFrame(rows, columns=columns)


def _pm(mean: float, se: float) -> str:
    return "—" if math.isnan(mean) else f"{mean:.2f} ± {se:.2f}"


def _count(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def fea_markdown(frame: pd.DataFrame) -> str:
    """The Gold table per agent and suite (Valid over problems, x/P), then per problem (Valid over samples)."""

    def line(r: pd.Series, valid: str) -> list[object]:
        return [
            _pm(r.exec, r.exec_se),
            *[NOT_COMPUTED] * len(PAPER_ONLY),
            valid,
            *[NOT_COMPUTED] * len(COMSOL_ONLY),
            _pm(r.strict, r.strict_se),
            pct(r.pass_tau),
            pct(r.pass_10),
            _pm(r.api, r.api_se),
        ]

    ours = ["Rel. Error | Strict", "pass (tau)", "pass (10%)", "API fact."]
    overall = [
        [r.agent, r.suite, r.n, *line(r, f"{_count(r.valid_problems)}/{r.problems}")]
        for _, r in fea_stats(frame).iterrows()
    ]
    problems = [
        [r.agent, r.suite, r.case, *line(r, f"{r.valid}/{r.n}")]
        for _, r in fea_stats(frame, ("agent", "suite", "case")).iterrows()
    ]
    paper = ["Exec", *PAPER_ONLY]
    return (
        table(["agent", "suite", "samples", *paper, "Valid (problems)", *COMSOL_ONLY, *ours], overall, left=2)
        + "\nPer problem:\n\n"
        + table(["agent", "suite", "problem", *paper, "Valid (samples)", *COMSOL_ONLY, *ours], problems, left=3)
        + f"\n{NOTE}\n"
    )


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The suite's table, where its scores carry ``{SUITE_METRIC}``."""
    if not suites_with(frame, SUITE_METRIC):
        return []
    return [
        ReportSection(
            "As FEABench Table 2 (Gold): Exec / Valid / Rel. Error | Strict / pass rates", fea_markdown(frame)
        )
    ]
