"""Markdown tables from the tidy frame: pass rates and pass@k, failure classes, attempts, mutant checks."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simcodebench.aggregate.collect import INFRA
from simcodebench.aggregate.stats import pass_at_k, wilson_interval
from simcodebench.io import atomic_write_text
from simcodebench.scoring import FAILURE_CLASSES

SAMPLE = ["agent", "suite", "case", "sample"]
PASS_K = (1, 5, 10)
SPEND = ["cost_usd", "prompt_tokens", "completion_tokens"]
NONE = "—"

AGENT_NOTE = (
    "pass rate: passed / (samples − infra), with its 95% Wilson interval. pass@k: unbiased estimator over "
    f"the samples of each case, averaged over cases; {NONE} where a case has fewer than k counted samples. "
    "Cost and tokens: mean per sample, summed over its attempts; cost / solve: total cost / passed samples."
)
STAGE_NOTE = (
    "reached: samples run (not skipped) at this attempt, F-Infra excluded; pass rate: passed / reached; "
    "cumulative: samples passed by this attempt / counted samples (final class not F-Infra)."
)


def _finals(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["final"]]


def _counted(frame: pd.DataFrame) -> pd.DataFrame:
    finals = _finals(frame)
    return finals[finals["failure_class"] != INFRA]


def _mean_pass_at_k(per_case: pd.DataFrame, k: int) -> float:
    if per_case.empty or (per_case["n"] < k).any():
        return math.nan
    return sum(pass_at_k(int(n), int(c), k) for n, c in zip(per_case["n"], per_case["c"], strict=True)) / len(per_case)


def agent_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent over final attempts: samples, infra, passed, rate with Wilson low/high, pass@k, spend.

    F-Infra samples are counted in ``infra`` and left out of every rate. pass@k is averaged over the
    (suite, case) pairs and is NaN when some case has fewer than k counted samples. ``cost``,
    ``prompt_tokens`` and ``completion_tokens`` are means per counted sample (summed over its attempts);
    ``cost_per_solve`` is their total cost over passed samples.
    """
    spend = frame.groupby(SAMPLE)[SPEND].sum(min_count=1).astype("float64")
    rows = []
    for agent, finals in _finals(frame).groupby("agent"):
        infra = finals["failure_class"].eq(INFRA)
        counted = finals[~infra]
        n, passed = len(counted), int(counted["passed"].sum())
        low, high = wilson_interval(passed, n)
        per_case = counted.groupby(["suite", "case"])["passed"].agg(n="size", c="sum")
        cost = counted[SAMPLE].join(spend, on=SAMPLE)
        total = cost["cost_usd"].sum(min_count=1)
        rows.append(
            {
                "agent": agent,
                "samples": len(finals),
                "infra": int(infra.sum()),
                "passed": passed,
                "rate": passed / n if n else math.nan,
                "low": low,
                "high": high,
                **{f"pass@{k}": _mean_pass_at_k(per_case, k) for k in PASS_K},
                **{col: cost[col].mean() for col in SPEND},
                "cost_per_solve": total / passed if passed else math.nan,
            }
        )
    columns = ["agent", "samples", "infra", "passed", "rate", "low", "high"]
    return pd.DataFrame(rows, columns=[*columns, *(f"pass@{k}" for k in PASS_K), *SPEND, "cost_per_solve"])


def failure_class_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Counts of final failure classes: one row per agent, one column per class present (gate order)."""
    finals = _finals(frame)
    counts = pd.crosstab(finals["agent"], finals["failure_class"].fillna("(none)"))
    known = [c for c in FAILURE_CLASSES if c in counts.columns]
    return counts[known + sorted(set(counts.columns) - set(known))]


def stage_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent and attempt index: reached, passed, infra, pass rate among reached, cumulative pass rate."""
    scored = frame[frame["status"] == "scored"]
    first_pass = scored[scored["passed"]].groupby(SAMPLE)["attempt"].min().rename("first_pass")
    counted = _counted(frame).join(first_pass, on=SAMPLE)
    rows = []
    for (agent, attempt), rows_at in frame.groupby(["agent", "attempt"]):
        run = rows_at[rows_at["status"] == "scored"]
        infra = run["failure_class"].eq(INFRA)
        reached, passed = int((~infra).sum()), int(run.loc[~infra, "passed"].sum())
        mine = counted[counted["agent"] == agent]
        rows.append(
            {
                "agent": agent,
                "attempt": attempt,
                "reached": reached,
                "passed": passed,
                "infra": int(infra.sum()),
                "rate": passed / reached if reached else math.nan,
                "cumulative": (mine["first_pass"] <= attempt).sum() / len(mine) if len(mine) else math.nan,
            }
        )
    return pd.DataFrame(rows, columns=["agent", "attempt", "reached", "passed", "infra", "rate", "cumulative"])


def mutant_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Final attempts of mutant agents grouped by (agent, mutant, declared, observed), with ``match``."""
    finals = _finals(frame)
    mutants = finals[finals["mutant"].notna()]
    keys = ["agent", "mutant", "declared_class", "failure_class"]
    grouped = mutants.groupby(keys, dropna=False).size().reset_index(name="samples")
    grouped["match"] = grouped["declared_class"] == grouped["failure_class"]
    return grouped


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown(header: list[str], rows: list[list[object]], left: int = 1) -> str:
    if not rows:
        return "_no results_\n"
    align = [":---" if i < left else "---:" for i in range(len(header))]
    lines = [header, align, *rows]
    return "\n".join("| " + " | ".join(_cell(v) for v in line) + " |" for line in lines) + "\n"


def _pct(x: float) -> str:
    return NONE if pd.isna(x) else f"{100 * x:.1f}%"


def _ci(rate: float, low: float, high: float) -> str:
    return NONE if pd.isna(rate) else f"{_pct(rate)} [{100 * low:.1f}, {100 * high:.1f}]"


def _money(x: float) -> str:
    return NONE if pd.isna(x) else f"${x:.4f}"


def _count(x: float) -> str:
    return NONE if pd.isna(x) else f"{x:,.0f}"


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
            _ci(r.rate, r.low, r.high),
            *(_pct(getattr(r, f"pass_{k}")) for k in PASS_K),
            _money(r.cost_usd),
            _count(r.prompt_tokens),
            _count(r.completion_tokens),
            _money(r.cost_per_solve),
        ]
        for r in agent_stats(frame).rename(columns=lambda c: c.replace("@", "_")).itertuples()
    ]
    return _markdown(header, rows)


def failure_class_markdown(frame: pd.DataFrame) -> str:
    """Failure-class table: final-attempt counts per agent and class, with a total."""
    counts = failure_class_counts(frame)
    header = ["agent", *(f"{c} (excluded)" if c == INFRA else c for c in counts.columns), "total"]
    rows = [[agent, *row, sum(row)] for agent, row in zip(counts.index, counts.values.tolist(), strict=True)]
    return _markdown(header, rows)


def stage_markdown(frame: pd.DataFrame) -> str:
    """Attempt table: one row per agent and attempt index (see ``stage_stats``)."""
    header = ["agent", "attempt", "reached", "passed", "infra (excluded)", "pass rate", "cumulative"]
    rows = [
        [r.agent, r.attempt, r.reached, r.passed, r.infra, _pct(r.rate), _pct(r.cumulative)]
        for r in stage_stats(frame).itertuples()
    ]
    return _markdown(header, rows)


def mutant_markdown(frame: pd.DataFrame) -> str:
    """Mutant check: declared vs observed final class, then every mismatching sample with its message."""
    header = ["agent", "mutant", "declared class", "observed class", "samples", "match"]
    stats = mutant_stats(frame)
    rows = [
        [r.agent, r.mutant, r.declared_class, r.failure_class, r.samples, "yes" if r.match else "no"]
        for r in stats.itertuples()
    ]
    text = _markdown(header, rows, left=4)
    finals = _finals(frame)
    bad = finals[finals["mutant"].notna() & (finals["declared_class"] != finals["failure_class"])]
    if not bad.empty:
        cols = ["agent", "mutant", "suite", "case", "sample", "declared_class", "failure_class", "message"]
        header = ["agent", "mutant", "suite", "case", "sample", "declared", "observed", "message"]
        text += "\nMismatches:\n\n" + _markdown(header, bad[cols].values.tolist(), left=len(header))
    return text


def suite_matrix_markdown(frame: pd.DataFrame) -> str:
    """Pass rate per agent (rows) and suite (columns), as ``rate (passed/counted)``."""
    suites = sorted(frame["suite"].unique())
    cells: dict[str, dict[str, str]] = {}
    for suite in suites:
        for r in agent_stats(frame[frame["suite"] == suite]).itertuples():
            cells.setdefault(r.agent, {})[suite] = f"{_pct(r.rate)} ({r.passed}/{r.samples - r.infra})"
    rows = [[agent, *(row.get(s, NONE) for s in suites)] for agent, row in sorted(cells.items())]
    return _markdown(["agent", *suites], rows)


def _sections(frame: pd.DataFrame) -> str:
    text = f"## Pass rates\n\n{agent_markdown(frame)}\n{AGENT_NOTE}\n\n"
    text += f"## Failure classes (final attempts)\n\n{failure_class_markdown(frame)}\n"
    text += f"## Attempts\n\n{stage_markdown(frame)}\n{STAGE_NOTE}\n"
    if frame["mutant"].notna().any():
        text += f"\n## Mutants: declared vs observed class\n\n{mutant_markdown(frame)}"
    return text


def suite_markdown(frame: pd.DataFrame, suite: str) -> str:
    """The markdown page for one suite: pass rates, failure classes, attempts, mutant checks."""
    intro = "Final attempt of each (case, sample); F-Infra samples are infrastructure failures, not counted."
    return f"# Suite `{suite}`\n\n{intro}\n\n{_sections(frame[frame['suite'] == suite])}"


def summary_markdown(frame: pd.DataFrame) -> str:
    """The overall markdown page: links to suites, pass rate per suite, then all suites pooled."""
    suites = sorted(frame["suite"].unique())
    links = ", ".join(f"[{s}]({s}.md)" for s in suites) or "none"
    return (
        f"# Summary\n\nSuites: {links}\n\n## Pass rate by suite\n\n{suite_matrix_markdown(frame)}\n"
        f"# All suites pooled\n\n{_sections(frame)}"
    )


def write_tables(frame: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Write ``<out_dir>/<suite>.md`` for each suite and ``<out_dir>/summary.md``; return their paths."""
    out_dir = Path(out_dir)
    suites = sorted(frame["suite"].unique())
    if "summary" in suites:
        raise ValueError("a suite named 'summary' would overwrite summary.md; fix: rename the suite")
    pages = {out_dir / f"{suite}.md": suite_markdown(frame, suite) for suite in suites}
    pages[out_dir / "summary.md"] = summary_markdown(frame)
    for path, text in pages.items():
        atomic_write_text(path, text, mode=0o644)
    return list(pages)
