"""Markdown tables from the tidy frame, in the layout of the papers' own where there is one; the numbers come
from :mod:`simcodebench.report.breakdowns`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from simcodebench.core.failure_classes import INFRA
from simcodebench.core.io import atomic_write_text
from simcodebench.core.plugin import ReportSection, SuitePlugin
from simcodebench.report.breakdowns import (
    PASS_K,
    agent_stats,
    best_of_n_stats,
    failure_class_counts,
    finals_of,
    re4_stage_stats,
    self_check_stats,
    stage_name_stats,
    stage_stats,
    truncation_stats,
)
from simcodebench.report.markdown import NONE, ci, count, money, pct, scientific, share, table

AGENT_NOTE = (
    "pass rate: passed / (samples − infra), with its 95% Wilson interval. pass@k: unbiased estimator over "
    f"the samples of each case, averaged over cases; {NONE} where a case has fewer than k counted samples. "
    "Cost and tokens: mean per sample, summed over its attempts; cost / solve: total cost / passed samples."
)
STAGE_NOTE = (
    "reached: samples run (not skipped) at this attempt, F-Infra excluded; pass rate: passed / reached; "
    "cumulative: samples passed by this attempt / counted samples (final class not F-Infra)."
)

TRUNCATION_NOTE = (
    "replies: attempts that asked the agent (skipped ones left out); cut: the endpoint's finish_reason was "
    "`length`. A cut reply is still extracted and scored (an unterminated last code fence is read to the end of "
    "the reply); scores.csv marks it in `truncated`."
)
STAGES_NOTE = (
    "asked: samples whose stage made its calls and was scored; skipped: not needed (an earlier pass, an SMRF "
    "attempt that already executes, a Re^4 early stop); executable: ran and wrote well-formed, finite outputs."
)
RE4_NOTE = (
    "As Re^4's Table 2 and Fig. 2: exec = executable / samples run at the stage (skipped and F-Infra left out); "
    "error = mean error of the executable samples; pass = passed / run. The sample's final answer is its last "
    "stage."
)
BEST_OF_N_NOTE = (
    "The sample is chosen blind to the reference: executable first (ran, outputs well-formed and finite), then "
    "fewer warning lines on stderr, then the shorter wall time, then the lower sample index. pass@k over the "
    "samples is in the pass-rate table; scores.csv marks the chosen row in `selected`."
)


def agent_markdown(frame: pd.DataFrame) -> str:
    """Pass-rate table: one row per agent (see ``agent_stats``)."""
    header = ["agent", "samples", "infra (excluded)", "passed", "pass rate [95% CI]"]
    header += [f"pass@{k}" for k in PASS_K]
    header += ["mean cost", "mean prompt tokens", "mean completion tokens", "cost / solve"]
    rows = [
        [
            r.agent,
            r.samples,
            r.infra,
            r.passed,
            ci(r.rate, r.low, r.high),
            *(pct(getattr(r, f"pass_{k}")) for k in PASS_K),
            money(r.cost_usd),
            count(r.prompt_tokens),
            count(r.completion_tokens),
            money(r.cost_per_solve),
        ]
        for r in agent_stats(frame).rename(columns=lambda c: c.replace("@", "_")).itertuples()
    ]
    return table(header, rows)


def failure_class_markdown(frame: pd.DataFrame) -> str:
    """Failure-class table: final-attempt counts per agent and class, with a total."""
    counts = failure_class_counts(frame)
    header = ["agent", *(f"{c} (excluded)" if c == INFRA else c for c in counts.columns), "total"]
    rows = [[agent, *row, sum(row)] for agent, row in zip(counts.index, counts.values.tolist(), strict=True)]
    return table(header, rows)


def truncation_markdown(frame: pd.DataFrame) -> str:
    """Replies cut at the token limit, per agent (see ``truncation_stats``), with a warning line for each agent
    with many; empty when no reply was cut."""
    stats = truncation_stats(frame)
    if not stats["truncated"].any():
        return ""
    rows = [[r.agent, r.replies, r.truncated, pct(r.share)] for r in stats.itertuples()]
    text = table(["agent", "replies", "cut at max_tokens", "share"], rows)
    for r in stats[stats["warn"]].itertuples():
        text += (
            f"\n**Warning:** {r.truncated} of {r.replies} replies of agent `{r.agent}` ({pct(r.share)}) were cut at "
            "max_tokens (finish_reason length): their failures measure the run's token limit more than the model; "
            "raise its `max_tokens`.\n"
        )
    return text


def stage_markdown(frame: pd.DataFrame) -> str:
    """Attempt table: one row per agent and attempt index (see ``stage_stats``)."""
    header = ["agent", "attempt", "reached", "passed", "infra (excluded)", "pass rate", "cumulative"]
    rows = [
        [r.agent, r.attempt, r.reached, r.passed, r.infra, pct(r.rate), pct(r.cumulative)]
        for r in stage_stats(frame).itertuples()
    ]
    return table(header, rows)


def self_check_markdown(frame: pd.DataFrame) -> str:
    """Self-check: the oracle, the second solutions and the mutants, declared vs observed final class, then every
    mismatching sample with its message."""
    header = ["agent", "solution", "declared class", "observed class", "samples", "match"]
    rows = [
        [r.agent, r.solution, r.declared_class, r.failure_class, r.samples, "yes" if r.match else "no"]
        for r in self_check_stats(frame).itertuples()
    ]
    text = table(header, rows, left=4)
    finals = finals_of(frame)
    bad = finals[finals["declared_class"].notna() & (finals["declared_class"] != finals["failure_class"])].copy()
    if not bad.empty:
        bad["solution"] = bad["mutant"].where(bad["mutant"].notna(), bad["model"])
        cols = ["agent", "solution", "suite", "case", "sample", "declared_class", "failure_class", "message"]
        header = ["agent", "solution", "suite", "case", "sample", "declared", "observed", "message"]
        text += "\nMismatches:\n\n" + table(header, bad[cols].values.tolist(), left=len(header))
    return text


def stage_name_markdown(frame: pd.DataFrame) -> str:
    """Stage table of ``re4`` and ``smrf`` agents (see ``stage_name_stats``)."""
    header = ["agent", "strategy", "attempt", "stage", "asked", "skipped", "infra (excluded)", "executable", "passed"]
    rows = [list(r) for r in stage_name_stats(frame).itertuples(index=False)]
    return table(header, rows, left=4)


def re4_stage_markdown(frame: pd.DataFrame) -> str:
    """Re^4's per-stage table: one row per agent and case, execution success, mean error and pass rate by
    stage (ans-0, rev-1, rev-2, ...)."""
    stats = re4_stage_stats(frame)
    stages = stats.drop_duplicates("attempt").sort_values("attempt")["stage"].tolist()
    header = ["agent", "case"]
    for stage in stages:
        header += [f"{stage} exec", f"{stage} error", f"{stage} pass"]
    rows = []
    stats = stats.assign(pooled=stats["case"].eq("all")).sort_values(["agent", "pooled", "case"], kind="stable")
    for (agent, case), at in stats.groupby(["agent", "case"], sort=False):
        by_stage = at.set_index("stage")
        row: list[object] = [agent, case]
        for stage in stages:
            if stage not in by_stage.index:
                row += [NONE, NONE, NONE]
                continue
            r = by_stage.loc[stage]
            row += [
                share(int(r["executed"]), int(r["run"])),
                scientific(r["error"]),
                share(int(r["passed"]), int(r["run"])),
            ]
        rows.append(row)
    return table(header, rows, left=2)


def best_of_n_markdown(frame: pd.DataFrame) -> str:
    """Best-of-n selection per agent and case (see ``best_of_n_stats``), then the selected pass rate per agent."""
    stats = best_of_n_stats(frame)
    header = ["agent", "case", "samples", "executable", "passed", "selected sample", "its class", "selected passed"]
    rows = [
        [
            r.agent,
            r.case,
            r.samples,
            r.executable,
            r.passed,
            r.selected,
            r.selected_class,
            "yes" if r.selected_passed else "no",
        ]
        for r in stats.itertuples()
    ]
    text = table(header, rows, left=2)
    pooled = [
        [agent, share(int(at["selected_passed"].sum()), len(at)), share(int((at["passed"] > 0).sum()), len(at))]
        for agent, at in stats.groupby("agent")
    ]
    return text + "\n" + table(["agent", "selected passes (cases)", "any sample passes (cases)"], pooled)


def suite_matrix_markdown(frame: pd.DataFrame) -> str:
    """Pass rate per agent (rows) and suite (columns), as ``rate (passed/counted)``."""
    suites = sorted(frame["suite"].unique())
    cells: dict[str, dict[str, str]] = {}
    for suite in suites:
        for r in agent_stats(frame[frame["suite"] == suite]).itertuples():
            cells.setdefault(r.agent, {})[suite] = f"{pct(r.rate)} ({r.passed}/{r.samples - r.infra})"
    rows = [[agent, *(row.get(s, NONE) for s in suites)] for agent, row in sorted(cells.items())]
    return table(["agent", *suites], rows)


def suite_sections(frame: pd.DataFrame, plugins: Mapping[str, SuitePlugin]) -> list[ReportSection]:
    """The sections the suites' plugins add (their ``report`` hook), each plugin once, given the rows of every
    suite it serves; ``plugins`` maps a suite name to its plugin."""
    serves: dict[str, list[str]] = {}
    for suite in sorted(frame["suite"].unique()):
        if suite in plugins:
            serves.setdefault(plugins[suite].name, []).append(suite)
    by_name = {plugin.name: plugin for plugin in plugins.values()}
    return [
        section
        for name, suites in serves.items()
        for section in by_name[name].report(frame[frame["suite"].isin(suites)])
    ]


def _sections(frame: pd.DataFrame, plugins: Mapping[str, SuitePlugin]) -> str:
    text = f"## Pass rates\n\n{agent_markdown(frame)}\n{AGENT_NOTE}\n\n"
    text += f"## Failure classes (final attempts)\n\n{failure_class_markdown(frame)}\n"
    text += f"## Attempts\n\n{stage_markdown(frame)}\n{STAGE_NOTE}\n"
    truncation = truncation_markdown(frame)
    if truncation:
        text += f"\n## Replies cut at max_tokens\n\n{truncation}\n{TRUNCATION_NOTE}\n"
    strategies = set(frame["strategy"].dropna())
    if strategies & {"re4", "smrf"}:
        text += f"\n## Stages\n\n{stage_name_markdown(frame)}\n{STAGES_NOTE}\n"
    if "re4" in strategies:
        text += f"\n## Re^4 stages: execution success and error\n\n{re4_stage_markdown(frame)}\n{RE4_NOTE}\n"
    if "best_of_n" in strategies:
        text += f"\n## Best-of-n selection\n\n{best_of_n_markdown(frame)}\n{BEST_OF_N_NOTE}\n"
    for section in suite_sections(frame, plugins):
        text += f"\n## {section.title}\n\n{section.markdown}"
    if frame["declared_class"].notna().any():
        text += (
            "\n## Self-check: oracle, second solutions and mutants, declared vs observed class\n\n"
            f"{self_check_markdown(frame)}"
        )
    return text


def suite_markdown(frame: pd.DataFrame, suite: str, plugins: Mapping[str, SuitePlugin]) -> str:
    """The markdown page for one suite: pass rates, failure classes, attempts, the suite's own tables, mutant
    checks."""
    intro = "Final attempt of each (case, sample); F-Infra samples are infrastructure failures, not counted."
    return f"# Suite `{suite}`\n\n{intro}\n\n{_sections(frame[frame['suite'] == suite], plugins)}"


def summary_markdown(frame: pd.DataFrame, plugins: Mapping[str, SuitePlugin]) -> str:
    """The overall markdown page: links to suites, pass rate per suite, then all suites pooled."""
    suites = sorted(frame["suite"].unique())
    links = ", ".join(f"[{s}]({s}.md)" for s in suites) or "none"
    return (
        f"# Summary\n\nSuites: {links}\n\n## Pass rate by suite\n\n{suite_matrix_markdown(frame)}\n"
        f"# All suites pooled\n\n{_sections(frame, plugins)}"
    )


def write_tables(frame: pd.DataFrame, out_dir: Path, plugins: Mapping[str, SuitePlugin]) -> list[Path]:
    """Write ``<out_dir>/<suite>.md`` for each suite and ``<out_dir>/summary.md`` (``plugins``: each suite's
    plugin, whose ``report`` adds the suite's own tables); return their paths."""
    out_dir = Path(out_dir)
    suites = sorted(frame["suite"].unique())
    if "summary" in suites:
        raise ValueError("a suite named 'summary' would overwrite summary.md; fix: rename the suite")
    pages = {out_dir / f"{suite}.md": suite_markdown(frame, suite, plugins) for suite in suites}
    pages[out_dir / "summary.md"] = summary_markdown(frame, plugins)
    for path, text in pages.items():
        atomic_write_text(path, text, mode=0o644)
    return list(pages)
