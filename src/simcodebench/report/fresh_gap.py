"""Published against fresh (docs/fresh-variants.md): an agent's pass rate on a suite beside its rate on the
suite's fresh instances (``<suite>-fresh-s<seed>``, :mod:`simcodebench.pipeline.generate`), paired by family.

A family is a published case; its fresh cases are the instances drawn from it (their ids name it,
:func:`~simcodebench.core.fresh.family_of`). For each agent that has verdicts on both suites, each family both
hold gives two rates: the agent's pass rate on the published case (over its samples) and on the family's fresh
cases (over their cases and samples). The contamination gap is the mean over families of published minus
fresh, with a percentile bootstrap interval that draws whole families
(:func:`~simcodebench.report.stats.paired_bootstrap`). A positive gap says the agent does better on the
problems it may have seen; it is evidence of contamination, not proof (a fresh draw may be harder or easier
than its family's published case).
"""

from __future__ import annotations

import pandas as pd

from simcodebench.core.fresh import family_of, parent_of
from simcodebench.report.markdown import NONE, pct, table
from simcodebench.report.stats import paired_bootstrap

GAP_COLUMNS = ["agent", "published", "fresh", "families", "rate_published", "rate_fresh", "gap", "low", "high"]
FAMILY_COLUMNS = ["agent", "published", "fresh", "family", "passed_published", "n_published"]
FAMILY_COLUMNS += ["passed_fresh", "n_fresh"]
DETAIL_HEADER = ["agent", "fresh suite", "family", "published passed", "fresh passed"]


def family_rates(verdicts: pd.DataFrame) -> pd.DataFrame:
    """One row per agent, published suite and family with verdicts on both sides: the passes and counted final
    samples on the published case and on its fresh cases. ``verdicts`` holds ``agent``, ``suite``, ``case``,
    ``counted`` and ``outcome`` (as :func:`simcodebench.report.compare.compare_runs` makes them)."""
    counted = verdicts[verdicts["counted"]]
    rows = []
    for fresh_suite in sorted(counted["suite"].unique()):
        found = parent_of(fresh_suite)
        if found is None or found[0] not in set(counted["suite"]):
            continue
        parent = found[0]
        for agent in dict.fromkeys(counted["agent"]):
            mine = counted[counted["agent"] == agent]
            published = mine[mine["suite"] == parent]
            fresh = mine[mine["suite"] == fresh_suite].assign(family=lambda f: f["case"].map(family_of))
            for family, at in fresh.groupby("family", sort=True):
                base = published[published["case"] == family]
                if base.empty:
                    continue
                rows.append(
                    [agent, parent, fresh_suite, family, int(base["outcome"].sum()), len(base)]
                    + [int(at["outcome"].sum()), len(at)]
                )
    return pd.DataFrame(rows, columns=FAMILY_COLUMNS)


def contamination_gaps(families: pd.DataFrame, seed: int = 0, resamples: int = 10_000) -> pd.DataFrame:
    """One row per agent and (published, fresh) suite pair of :func:`family_rates`: the mean family rates on
    each side, their difference (published minus fresh) and its 95% bootstrap interval over families."""
    rows = []
    for (agent, published, fresh), at in families.groupby(["agent", "published", "fresh"], sort=False):
        rate_published = list(at["passed_published"] / at["n_published"])
        rate_fresh = list(at["passed_fresh"] / at["n_fresh"])
        gap, low, high = paired_bootstrap(rate_published, rate_fresh, list(at["family"]), resamples, seed)
        rows.append(
            [agent, published, fresh, len(at), sum(rate_published) / len(at), sum(rate_fresh) / len(at)]
            + [gap, low, high]
        )
    return pd.DataFrame(rows, columns=GAP_COLUMNS)


def gap_markdown(gaps: pd.DataFrame, families: pd.DataFrame, seed: int, resamples: int) -> str:
    """The section of ``compare runs``: the gaps, then each family's counts."""
    if gaps.empty:
        return ""
    header = ["agent", "published", "fresh", "families", "published rate", "fresh rate"]
    header += ["gap (published − fresh) [95% CI]"]
    rows = [
        [r.agent, r.published, r.fresh, r.families, pct(r.rate_published), pct(r.rate_fresh)]
        + [f"{100 * r.gap:+.1f} pp [{100 * r.low:+.1f}, {100 * r.high:+.1f}]"]
        for r in gaps.itertuples()
    ]
    detail = [
        [r.agent, r.fresh, r.family, f"{r.passed_published}/{r.n_published}", f"{r.passed_fresh}/{r.n_fresh}"]
        for r in families.itertuples()
    ]
    return (
        f"## Published and fresh (contamination gap)\n\n{table(header, rows, left=3)}\n"
        "Rates are means over the families both suites hold (a family: a published case and the fresh cases "
        "drawn from it), each family weighing the same; the interval is a percentile bootstrap drawing whole "
        f"families ({resamples} resamples, seed {seed}). A gap above zero is evidence that the agent recalls "
        "the published problems, not proof: read docs/fresh-variants.md.\n\n"
        f"{table(DETAIL_HEADER, detail or [[NONE] * 5], left=3)}\n"
    )
