"""FoamBench's table (Tables 6-7 of CFDLLMBench): exec, struct, file, NMSE and success per agent and split."""

from __future__ import annotations

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import table

NOTE = (
    "As FoamBench's Tables 6-7, over final attempts (F-Infra left out), one row per agent and suite (a split): "
    "exec = the solver log ends in End; struct = share of the reference case's files present (0/, constant/, "
    "system/, averaged); file = mean ROUGE-L F1 over the reference files (a missing file scores 0); NMSE = mean "
    "NMSE score (1 at <= 10%, 0.5 at <= 30%, else 0, and 0 when not run); success = passed (exec and NMSE <= 10%). "
    "A reply from which no case could be extracted scores 0 in every column."
)


def foambench_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """FoamBench's columns per agent and suite (split) over counted final attempts: exec, struct, file, NMSE
    score and success as means; a missing diagnostic or NMSE score (no case extracted, not run) counts 0."""
    rows = counted(frame)
    rows = rows[rows["suite"].isin(suites_with(frame, "struct"))]
    columns = {
        "exec": rows["run_status"].eq("ok").astype(float),
        "struct": metric(rows, "struct").fillna(0.0),
        "file": metric(rows, "file").fillna(0.0),
        "nmse": metric(rows, "nmse_score").fillna(0.0),
        "success": rows["passed"].astype(float),
    }
    per_sample = rows[["agent", "suite"]].assign(**columns)
    stats = per_sample.groupby(["agent", "suite"], as_index=False).agg(
        samples=("exec", "size"), **{name: (name, "mean") for name in columns}
    )
    return stats[["agent", "suite", "samples", *columns]]


def foambench_markdown(frame: pd.DataFrame) -> str:
    """FoamBench's table (Tables 6-7 of the paper): exec / struct / file / NMSE / success per agent and split."""
    header = ["agent", "suite (split)", "samples", "exec", "struct", "file", "NMSE", "success"]
    rows = [
        [r.agent, r.suite, r.samples, *(f"{v:.3f}" for v in (r.exec, r.struct, r.file, r.nmse, r.success))]
        for r in foambench_stats(frame).itertuples()
    ]
    return table(header, rows, left=2)


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """The FoamBench section, where a suite's scores carry its diagnostics."""
    if not suites_with(frame, "struct"):
        return []
    return [ReportSection("FoamBench: exec / struct / file / NMSE / success", f"{foambench_markdown(frame)}\n{NOTE}\n")]
