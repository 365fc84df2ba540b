"""Runs side by side (``simcodebench compare runs``): one table of agents by suites with the macro average
over suites beside the pooled rate, and for each two agents on the same cases a paired comparison per suite
(exact McNemar test, paired bootstrap interval of the difference in pass rate), and where the runs hold a suite
and its fresh instances, each agent's rate on both paired by family with the contamination gap
(:mod:`.fresh_gap`).

A run's verdicts count as in its summary: each sample's final attempt, F-Infra and F-Case left out. An agent's
name is kept where one run holds it; an agent that several runs hold is named ``agent@run``. Two agents are
paired on the samples they share (same suite, case and sample index) of cases judged on the same case version.
Where the runs' time gates differ (:mod:`.judging`) and ``compare_time_gates`` is off, the time gate is set
aside for that case: a sample that missed only the time gate (F-Time) counts with the passes, in every run.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simcodebench.core.errors import InputError
from simcodebench.core.failure_classes import INFRA
from simcodebench.report.fresh_gap import contamination_gaps, family_rates, gap_markdown
from simcodebench.report.judging import differences, judging
from simcodebench.report.markdown import NONE, ci, pct, table
from simcodebench.report.run_source import Run, final_verdicts, open_runs
from simcodebench.report.stats import mcnemar_exact, paired_bootstrap, wilson_interval

TIME_CLASS = "F-Time"
PAIR_KEY = ["suite", "case", "sample"]
VERDICT_COLUMNS = ["run", "agent", "suite", "case", "sample", "failure_class", "gate_class", "passed", "case_version"]


@dataclass(frozen=True)
class Comparison:
    """What ``compare runs`` found: the runs, every final verdict (``outcome`` the one compared, ``counted``
    False for F-Infra), the differences in judging, the cases whose time gate was set aside, and the paired
    comparisons."""

    runs: list[Run]
    verdicts: pd.DataFrame
    judged: pd.DataFrame
    differences: pd.DataFrame
    time_set_aside: list[tuple[str, str]]
    paired: pd.DataFrame
    compare_time_gates: bool
    seed: int
    resamples: int
    fresh_families: pd.DataFrame
    fresh_gaps: pd.DataFrame


def agent_labels(frames: dict[str, pd.DataFrame]) -> dict[tuple[str, str], str]:
    """(run, agent) -> the agent's name in the comparison: its own where one run holds it, else ``agent@run``."""
    holders: dict[str, list[str]] = {}
    for run, frame in frames.items():
        for agent in frame["agent"].unique():
            holders.setdefault(agent, []).append(run)
    return {
        (run, agent): agent if len(runs) == 1 else f"{agent}@{run}" for agent, runs in holders.items() for run in runs
    }


def _verdicts(runs: list[Run]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every run's final verdicts, agents labelled, and how each run judged each case."""
    frames = {run.label: final_verdicts(run) for run in runs}
    labels = agent_labels(frames)
    parts, judged = [], []
    for run in runs:
        frame = frames[run.label].assign(run=run.label)
        frame["agent"] = [labels[(run.label, a)] for a in frame["agent"]]
        parts.append(frame[VERDICT_COLUMNS])
        judged.append(judging(run.label, frames[run.label], run.calibrations()))
    return pd.concat(parts, ignore_index=True), pd.concat(judged, ignore_index=True)


def _outcomes(verdicts: pd.DataFrame, set_aside: list[tuple[str, str]]) -> pd.DataFrame:
    """``counted`` (not F-Infra) and ``outcome``: passed, or missed only the time gate of a case set aside."""
    keys = pd.MultiIndex.from_frame(verdicts[["suite", "case"]])
    aside = pd.Series(keys.isin(set_aside) if set_aside else False, index=verdicts.index, dtype=bool)
    time_only = verdicts["gate_class"].fillna(verdicts["failure_class"]).eq(TIME_CLASS)
    return verdicts.assign(
        counted=verdicts["failure_class"].ne(INFRA),
        outcome=verdicts["passed"].astype(bool) | (time_only & aside),
        time_aside=time_only & aside & ~verdicts["passed"].astype(bool),
    )


def _pair(
    verdicts: pd.DataFrame, a: str, b: str, excluded: set[tuple[str, str]], seed: int, resamples: int
) -> list[dict[str, object]]:
    """The paired comparison of agents ``a`` and ``b``: one row per suite they share, then all suites pooled
    (when there are several)."""
    counted = verdicts[verdicts["counted"]]
    left = counted[counted["agent"] == a][[*PAIR_KEY, "outcome"]]
    right = counted[counted["agent"] == b][[*PAIR_KEY, "outcome"]]
    both = left.merge(right, on=PAIR_KEY, suffixes=("_a", "_b"))
    if excluded:
        keep = ~pd.MultiIndex.from_frame(both[["suite", "case"]]).isin(list(excluded))
        both = both[keep]
    groups = [(suite, rows) for suite, rows in both.groupby("suite")]
    if len(groups) > 1:
        groups.append(("all suites (pooled)", both))
    rows = []
    for suite, at in groups:
        clusters = list(zip(at["suite"], at["case"], strict=True))
        diff, low, high = paired_bootstrap(list(at["outcome_a"]), list(at["outcome_b"]), clusters, resamples, seed)
        only_a = int((at["outcome_a"] & ~at["outcome_b"]).sum())
        only_b = int((~at["outcome_a"] & at["outcome_b"]).sum())
        rows.append(
            {
                "a": a,
                "b": b,
                "suite": suite,
                "cases": len(set(clusters)),
                "pairs": len(at),
                "rate_a": float(at["outcome_a"].mean()),
                "rate_b": float(at["outcome_b"].mean()),
                "difference": diff,
                "low": low,
                "high": high,
                "only_a": only_a,
                "only_b": only_b,
                "p_value": mcnemar_exact(only_a, only_b),
            }
        )
    return rows


PAIRED_COLUMNS = ["a", "b", "suite", "cases", "pairs", "rate_a", "rate_b", "difference", "low", "high"]
PAIRED_COLUMNS += ["only_a", "only_b", "p_value"]


def compare_runs(
    runs: list[Run], compare_time_gates: bool = False, seed: int = 0, resamples: int = 10_000
) -> Comparison:
    """Compare the runs (see the module's docstring). Raises :class:`InputError` when there are several agents
    but no two of them share a sample of a case judged on the same version."""
    verdicts, judged = _verdicts(runs)
    found = differences(judged)
    timed = found[found["what"] == "time gate"]
    set_aside = [] if compare_time_gates else sorted(zip(timed["suite"], timed["case"], strict=True))
    verdicts = _outcomes(verdicts, set_aside)
    versions = found[found["what"] == "case version"]
    excluded = set(zip(versions["suite"], versions["case"], strict=True))
    agents = list(dict.fromkeys(verdicts["agent"]))
    rows = [
        row for a, b in itertools.combinations(agents, 2) for row in _pair(verdicts, a, b, excluded, seed, resamples)
    ]
    families = family_rates(verdicts)
    if len(agents) > 1 and not rows and families.empty:
        sources = ", ".join(str(run.source) for run in runs)
        held = "; ".join(
            f"{agent}: {', '.join(sorted(set(verdicts[verdicts['agent'] == agent]['suite'])))}" for agent in agents
        )
        raise InputError(
            sources,
            "cases",
            f"the agents share no sample of a case judged on the same case version ({held})",
            "compare runs made on the same suites and cases (the same 'suites' and 'cases' in their configs, "
            "from the same case files)",
        )
    return Comparison(
        runs=runs,
        verdicts=verdicts,
        judged=judged,
        differences=found,
        time_set_aside=set_aside,
        paired=pd.DataFrame(rows, columns=PAIRED_COLUMNS),
        compare_time_gates=compare_time_gates,
        seed=seed,
        resamples=resamples,
        fresh_families=families,
        fresh_gaps=contamination_gaps(families, seed, resamples),
    )


def suite_rates(verdicts: pd.DataFrame) -> pd.DataFrame:
    """One row per agent: its run(s), per suite ``(passed, counted)``, the macro average over its suites (each
    suite weighs the same) and the pooled rate over all its samples with a 95% Wilson interval."""
    counted = verdicts[verdicts["counted"]]
    rows = []
    for agent, at in verdicts.groupby("agent", sort=False):
        kept = counted[counted["agent"] == agent]
        per_suite = kept.groupby("suite")["outcome"].agg(passed="sum", n="size")
        rates = [p / n for p, n in zip(per_suite["passed"], per_suite["n"], strict=True) if n]
        passed, n = int(per_suite["passed"].sum()), int(per_suite["n"].sum())
        low, high = wilson_interval(passed, n)
        rows.append(
            {
                "agent": agent,
                "runs": ", ".join(dict.fromkeys(at["run"])),
                "suites": {s: (int(r.passed), int(r.n)) for s, r in per_suite.iterrows()},
                "infra": int((~at["counted"]).sum()),
                "macro": sum(rates) / len(rates) if rates else math.nan,
                "pooled": passed / n if n else math.nan,
                "low": low,
                "high": high,
                "passed": passed,
                "n": n,
            }
        )
    return pd.DataFrame(rows)


def _p(value: float) -> str:
    return f"{value:.3g}" if value >= 1e-4 else f"{value:.1e}"


def _runs_markdown(cmp: Comparison) -> str:
    header = ["run", "source", "agents", "suites", "samples", "commit", "calibrated on"]
    rows = []
    for run in cmp.runs:
        at = cmp.verdicts[cmp.verdicts["run"] == run.label]
        judged = cmp.judged[cmp.judged["run"] == run.label]
        commits = run.commits()
        machines = sorted(judged["calibrated_on"].dropna().unique())
        kind = "bundle" if run.meta else "directory"
        rows.append(
            [
                run.label,
                f"{kind} {run.source}",
                ", ".join(dict.fromkeys(at["agent"])),
                ", ".join(sorted(at["suite"].unique())),
                len(at),
                ", ".join(c[:12] for c in commits) or NONE,
                ", ".join(machines) or NONE,
            ]
        )
    return table(header, rows, left=4)


def _rates_markdown(cmp: Comparison) -> str:
    rates = suite_rates(cmp.verdicts)
    suites = sorted(cmp.verdicts["suite"].unique())
    header = ["agent", *suites, "macro average (suites)", "pooled [95% CI]", "infra (excluded)"]
    rows = []
    for r in rates.itertuples():
        cells = [f"{pct(p / n)} ({p}/{n})" if n else NONE for p, n in (r.suites.get(s, (0, 0)) for s in suites)]
        missing = len(suites) - len(r.suites)
        macro = pct(r.macro) + (f" ({len(r.suites)} of {len(suites)} suites)" if missing else "")
        rows.append([r.agent, *cells, macro, f"{ci(r.pooled, r.low, r.high)} ({r.passed}/{r.n})", r.infra])
    return table(header, rows)


def _paired_markdown(cmp: Comparison) -> str:
    if cmp.paired.empty:
        return "_one agent: nothing to pair_\n"
    header = ["A", "B", "suite", "cases", "pairs", "A rate", "B rate", "A − B [95% bootstrap CI]"]
    header += ["only A passed", "only B passed", "McNemar exact p"]
    rows = [
        [
            r.a,
            r.b,
            r.suite,
            r.cases,
            r.pairs,
            pct(r.rate_a),
            pct(r.rate_b),
            f"{100 * r.difference:+.1f} pp [{100 * r.low:+.1f}, {100 * r.high:+.1f}]",
            r.only_a,
            r.only_b,
            _p(r.p_value),
        ]
        for r in cmp.paired.itertuples()
    ]
    return table(header, rows, left=3)


LISTED = 20
"""Differences listed case by case; beyond, one row per suite and kind, with a few cases as examples."""


def _differences_markdown(found: pd.DataFrame) -> str:
    if len(found) <= LISTED:
        return table(["suite", "case", "differs in", "each run's value"], found.values.tolist(), left=4)
    rows = [
        [suite, what, len(at), "; ".join(f"{r.case}: {r.detail}" for r in at.head(3).itertuples())]
        for (suite, what), at in found.groupby(["suite", "what"])
    ]
    return table(["suite", "differs in", "cases", "for example"], rows, left=2)


def _judging_markdown(cmp: Comparison) -> str:
    if cmp.differences.empty:
        return "Every case the runs share was judged on the same case version, thresholds and calibrating machine.\n"
    text = _differences_markdown(cmp.differences)
    if cmp.time_set_aside:
        n = int(cmp.verdicts["time_aside"].sum())
        text += (
            f"\nTime gate set aside for {len(cmp.time_set_aside)} case(s) whose time thresholds or calibrating "
            f"machines differ: {n} F-Time verdict(s) (a sample that missed only the time gate) count with the "
            "passes in every table above and below. `--compare-time-gates` compares them as judged.\n"
        )
    elif cmp.compare_time_gates and (cmp.differences["what"] == "time gate").any():
        text += "\nTime gates compared as judged (`--compare-time-gates`), although they differ.\n"
    if (cmp.differences["what"] == "case version").any():
        text += "\nCases of different versions are in the pass-rate table but left out of the paired tests.\n"
    return text


NOTE = (
    "pass rate: passed / counted final samples (F-Infra and cases whose reference or calibration failed left "
    "out). Macro average: the mean of the agent's per-suite rates, each suite weighing the same; pooled: all "
    "its samples together, so larger suites weigh more."
)


def comparison_markdown(cmp: Comparison) -> str:
    """The comparison as one markdown page."""
    paired_note = (
        "Pairs: the two agents' final verdicts on the same suite, case and sample index (samples of an agent "
        "with more samples per case than the other have no partner and are left out). McNemar's exact test "
        "(two-sided binomial test of the discordant pairs at 1/2); the interval is a percentile bootstrap of the "
        f"difference in pass rate drawing whole cases ({cmp.resamples} resamples, seed {cmp.seed})."
    )
    aside = (
        f" F-Time counted with the passes in {len(cmp.time_set_aside)} case(s) judged by different time gates "
        "(see Judged differently)."
        if cmp.time_set_aside
        else ""
    )
    return (
        f"# Runs compared\n\n{_runs_markdown(cmp)}\n## Pass rate by suite\n\n{_rates_markdown(cmp)}\n"
        f"{NOTE}{aside}\n\n"
        f"## Paired comparisons\n\n{_paired_markdown(cmp)}\n{paired_note}\n\n"
        f"{gap_markdown(cmp.fresh_gaps, cmp.fresh_families, cmp.seed, cmp.resamples)}"
        f"## Judged differently\n\n{_judging_markdown(cmp)}"
    )


def compare_paths(
    paths: list[Path], scratch: Path, compare_time_gates: bool = False, seed: int = 0, resamples: int = 10_000
) -> Comparison:
    """Open each path (a run's working directory or a bundle, unpacked under ``scratch``) and compare them."""
    return compare_runs(open_runs(paths, scratch), compare_time_gates, seed, resamples)
