"""CFDLLMBench's FoamBench tables by protocol, as far as our agents reach (the paper's names and cell formats).

- Table 6 (zero-shot): ``single``-strategy agents, one column per split (suite), each cell
  exec/struct/file/NMSE/Success as the paper prints it;
- Table 2 (Sonnet ablations, Success): the "Reviewer only" column from ``feedback``-strategy agents (a retry with
  the run's error, no retrieval); "RAG only" is not computed;
- Table 8 (per case: prompt tokens, completion tokens, $ and loops): means per sample of every agent, summed over
  the sample's asked attempts (loops = attempts asked).

Table 7 (RAG+Reviewer: MetaOpenFOAM, Foam-Agent) is not computed: neither framework nor its tutorial retrieval
runs here.
"""

from __future__ import annotations

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, suites_with
from simcodebench.report.markdown import NONE, table
from simcodebench.suites.foam.report import foambench_stats

NOT_COMPUTED = "not computed"
NOTE = (
    "Table 7 (RAG+Reviewer: MetaOpenFOAM and Foam-Agent) and Table 2's RAG columns are not computed: no "
    "tutorial retrieval or agent framework runs here (cases/foam/README.md)."
)


def _cell(r: pd.Series) -> str:
    return "/".join(f"{v:.3f}" for v in (r.exec, r.struct, r.file, r.nmse, r.success))


def zero_shot_markdown(frame: pd.DataFrame) -> str:
    """Table 6: per zero-shot (``single``) agent, exec/struct/file/NMSE/Success in each split's column."""
    stats = foambench_stats(frame[frame["strategy"].eq("single")])
    splits = sorted(stats["suite"].unique())
    rows = []
    for agent, mine in stats.groupby("agent"):
        cells = {r.suite: f"{_cell(r)} ({r.samples})" for r in mine.itertuples()}
        rows.append([agent, *(cells.get(split, NONE) for split in splits)])
    header = ["agent", *(f"{split}: exec/struct/file/NMSE/Success (samples)" for split in splits)]
    return table(header, rows)


def ablation_markdown(frame: pd.DataFrame) -> str:
    """Table 2: Success per split of the ``feedback`` agents (Reviewer only); RAG only not computed."""
    stats = foambench_stats(frame[frame["strategy"].eq("feedback")])
    rows = [[r.agent, r.suite, NOT_COMPUTED, f"{r.success:.3f} ({r.samples})"] for r in stats.itertuples()]
    return table(["agent", "suite (split)", "RAG only", "Reviewer only: Success (samples)"], rows, left=2)


def cost_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent and suite: mean prompt and completion tokens, cost and attempts asked per counted sample."""
    keys = ["agent", "suite", "case", "sample"]
    samples = counted(frame)[keys]
    asked = frame[frame["status"].ne("skipped")].merge(samples, on=keys)
    per_sample = asked.groupby(keys, as_index=False).agg(
        prompt=("prompt_tokens", lambda s: s.astype("float64").sum(min_count=1)),
        completion=("completion_tokens", lambda s: s.astype("float64").sum(min_count=1)),
        cost=("cost_usd", lambda s: s.sum(min_count=1)),
        loops=("attempt", "size"),
    )
    return per_sample.groupby(["agent", "suite"], as_index=False).agg(
        samples=("loops", "size"),
        prompt=("prompt", "mean"),
        completion=("completion", "mean"),
        cost=("cost", "mean"),
        loops=("loops", "mean"),
    )


def cost_markdown(frame: pd.DataFrame) -> str:
    """Table 8: prompt tokens / completion tokens / $ / loops per case (means per sample)."""

    def number(x: float, spec: str) -> str:
        return NONE if pd.isna(x) else format(x, spec)

    rows = [
        [
            r.agent,
            r.suite,
            r.samples,
            number(r.prompt, ",.0f"),
            number(r.completion, ",.0f"),
            number(r.cost, ".4f"),
            number(r.loops, ".1f"),
        ]
        for r in cost_stats(frame).itertuples()
    ]
    header = ["agent", "suite (split)", "samples", "prompt tok", "completion tok", "$", "loops"]
    return table(header, rows, left=2)


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """Tables 6, 2 and 8 where agents of their protocol ran, over the suites whose scores carry FoamBench's
    diagnostics."""
    frame = frame[frame["suite"].isin(suites_with(frame, "struct"))]
    if frame.empty:
        return []
    found = []
    if frame["strategy"].eq("single").any():
        found.append(ReportSection("As CFDLLMBench Table 6 (FoamBench, zero-shot)", zero_shot_markdown(frame)))
    if frame["strategy"].eq("feedback").any():
        title = "As CFDLLMBench Table 2 (FoamBench ablations, Success)"
        found.append(ReportSection(title, ablation_markdown(frame)))
    title = "As CFDLLMBench Table 8 (FoamBench: tokens, cost and loops per case)"
    found.append(ReportSection(title, f"{cost_markdown(frame)}\n{NOTE}\n"))
    return found
