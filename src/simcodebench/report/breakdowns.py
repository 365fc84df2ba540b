"""The tidy frame broken down into small frames: pass rates and pass@k per agent, failure classes, attempts,
strategy stages (Re^4, SMRF), best-of-n selections, mutant checks (suites break down their own in their
``report`` hook). The
markdown tables in :mod:`simcodebench.report.tables` render them."""

from __future__ import annotations

import json
import math

import pandas as pd

from simcodebench.core.failure_classes import FAILURE_CLASSES, INFRA
from simcodebench.report.stats import pass_at_k, wilson_interval

SAMPLE = ["agent", "suite", "case", "sample"]
PASS_K = (1, 5, 10)
SPEND = ["cost_usd", "prompt_tokens", "completion_tokens"]


def finals_of(frame: pd.DataFrame) -> pd.DataFrame:
    """Each sample's final attempt."""
    return frame[frame["final"]]


def counted(frame: pd.DataFrame) -> pd.DataFrame:
    """Final attempts that count: F-Infra left out."""
    finals = finals_of(frame)
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
    for agent, finals in finals_of(frame).groupby("agent"):
        infra = finals["failure_class"].eq(INFRA)
        kept = finals[~infra]
        n, passed = len(kept), int(kept["passed"].sum())
        low, high = wilson_interval(passed, n)
        per_case = kept.groupby(["suite", "case"])["passed"].agg(n="size", c="sum")
        cost = kept[SAMPLE].join(spend, on=SAMPLE)
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
    finals = finals_of(frame)
    counts = pd.crosstab(finals["agent"], finals["failure_class"].fillna("(none)"))
    known = [c for c in FAILURE_CLASSES if c in counts.columns]
    return counts[known + sorted(set(counts.columns) - set(known))]


TRUNCATION_WARNING = 0.2
"""The share of an agent's replies cut at the token limit from which the summary warns."""


def truncation_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent over the attempts that asked (skipped ones left out): replies, those cut at the token limit
    (``truncated``), their share, and ``warn`` when the share reaches :data:`TRUNCATION_WARNING`."""
    asked = frame[frame["status"] != "skipped"]
    stats = asked.groupby("agent")["truncated"].agg(replies="size", truncated="sum").reset_index()
    stats["share"] = stats["truncated"] / stats["replies"]
    stats["warn"] = stats["share"] >= TRUNCATION_WARNING
    return stats


def stage_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent and attempt index: reached, passed, infra, pass rate among reached, cumulative pass rate."""
    scored = frame[frame["status"] == "scored"]
    first_pass = scored[scored["passed"]].groupby(SAMPLE)["attempt"].min().rename("first_pass")
    finals = counted(frame).join(first_pass, on=SAMPLE)
    rows = []
    for (agent, attempt), rows_at in frame.groupby(["agent", "attempt"]):
        run = rows_at[rows_at["status"] == "scored"]
        infra = run["failure_class"].eq(INFRA)
        reached, passed = int((~infra).sum()), int(run.loc[~infra, "passed"].sum())
        mine = finals[finals["agent"] == agent]
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
    finals = finals_of(frame)
    mutants = finals[finals["mutant"].notna()]
    keys = ["agent", "mutant", "declared_class", "failure_class"]
    grouped = mutants.groupby(keys, dropna=False).size().reset_index(name="samples")
    grouped["match"] = grouped["declared_class"] == grouped["failure_class"]
    return grouped


def self_check_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Final attempts of the self-check agents (oracle, second solution, mutants: the rows with a declared
    class) grouped by (agent, solution, declared, observed), with ``match``; ``solution`` is ``oracle``,
    ``alternative`` or the mutant's name (``<name>@alternative`` for a mutant of the second solution)."""
    finals = finals_of(frame)
    checks = finals[finals["declared_class"].notna()].copy()
    checks["solution"] = checks["mutant"].where(checks["mutant"].notna(), checks["model"])
    keys = ["agent", "solution", "declared_class", "failure_class"]
    grouped = checks.groupby(keys, dropna=False).size().reset_index(name="samples")
    grouped["match"] = grouped["declared_class"] == grouped["failure_class"]
    return grouped


def _run_at_stage(frame: pd.DataFrame, strategies: tuple[str, ...]) -> pd.DataFrame:
    """Rows of agents using ``strategies``, with ``executable`` as a plain bool."""
    rows = frame[frame["strategy"].isin(strategies)].copy()
    rows["executable"] = rows["executable"].fillna(False).astype(bool)
    return rows


def stage_name_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent and named stage of ``re4`` and ``smrf`` agents: asked, skipped, infra, executable, passed."""
    rows = _run_at_stage(frame, ("re4", "smrf"))
    out = []
    for (agent, attempt), at in rows.groupby(["agent", "attempt"]):
        run = at[at["status"].eq("scored") & at["failure_class"].ne(INFRA)]
        out.append(
            {
                "agent": agent,
                "strategy": at["strategy"].iloc[0],
                "attempt": attempt,
                "stage": at["stage"].iloc[0],
                "asked": int(at["status"].eq("scored").sum()),
                "skipped": int(at["status"].eq("skipped").sum()),
                "infra": int(at["failure_class"].eq(INFRA).sum()),
                "executable": int(run["executable"].sum()),
                "passed": int(run["passed"].sum()),
            }
        )
    columns = ["agent", "strategy", "attempt", "stage", "asked", "skipped", "infra", "executable", "passed"]
    return pd.DataFrame(out, columns=columns)


def re4_stage_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Re^4's per-stage numbers per agent and case, plus ``case == "all"`` pooled per agent: samples run at
    the stage (skipped and F-Infra left out), executed (ran, outputs well-formed and finite), mean error over
    the executed ones, passed."""
    rows = _run_at_stage(frame, ("re4",))
    rows = rows[rows["status"].eq("scored") & rows["failure_class"].ne(INFRA)]
    rows = rows.assign(case=rows["suite"] + "/" + rows["case"])
    out = []
    for keys, at in [*rows.groupby(["agent", "case", "attempt"]), *rows.groupby(["agent", "attempt"])]:
        agent, case, attempt = keys if len(keys) == 3 else (keys[0], "all", keys[1])
        executed = at[at["executable"]]
        out.append(
            {
                "agent": agent,
                "case": case,
                "attempt": attempt,
                "stage": at["stage"].iloc[0],
                "run": len(at),
                "executed": len(executed),
                "error": executed["error"].mean(),
                "passed": int(at["passed"].sum()),
            }
        )
    return pd.DataFrame(out, columns=["agent", "case", "attempt", "stage", "run", "executed", "error", "passed"])


def best_of_n_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per ``best_of_n`` agent and case: samples, executable and passed ones, the sample chosen blind to the
    reference (``selected``) with its final class and whether it passed."""
    finals = _run_at_stage(finals_of(frame), ("best_of_n",))
    out = []
    for (agent, suite, case), rows in finals.groupby(["agent", "suite", "case"]):
        chosen = rows[rows["selected"]].iloc[0]
        out.append(
            {
                "agent": agent,
                "case": f"{suite}/{case}",
                "samples": len(rows),
                "executable": int(rows["executable"].sum()),
                "passed": int(rows["passed"].sum()),
                "selected": int(chosen["sample"]),
                "selected_class": chosen["failure_class"],
                "selected_passed": bool(chosen["passed"]),
            }
        )
    columns = ["agent", "case", "samples", "executable", "passed", "selected", "selected_class", "selected_passed"]
    return pd.DataFrame(out, columns=columns)


def metric(frame: pd.DataFrame, name: str) -> pd.Series:
    """Metric ``name`` of each row (from the ``metrics`` JSON column), NaN where the row has none."""
    return frame["metrics"].map(lambda text: json.loads(text).get(name)).astype("float64")


def suites_with(frame: pd.DataFrame, name: str) -> list[str]:
    """Suites whose scores carry metric ``name`` (the paper tables follow the metrics, whatever a suite is called)."""
    return sorted(frame.loc[metric(frame, name).notna(), "suite"].unique())
