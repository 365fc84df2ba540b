"""PDEAgent-Bench's pass rates per PDE family: Table 1 (DOLFINx: the ``fem`` suite and its variants) and the
deal.II part of Table 2 (``fem-dealii``), from the fem suites' final attempts.

A cell is the pass rate in percent (one decimal, as the paper) over the counted final attempts (F-Infra left
out) of the agent's cases of that family, with passed/counted beside it; "All" pools every family. The family
and the library come from the scores' ``family_<name>`` and ``dealii`` metrics (:mod:`.families`), taken for
a case from any of its scored attempts. A family without a case in the run shows a dash; a case of no paper
family counts in All only. The paper's Firedrake
columns (Table 2) are not computed: no suite here runs Firedrake.
"""

from __future__ import annotations

import pandas as pd

from simcodebench.core.plugin import ReportSection
from simcodebench.report.breakdowns import counted, metric, suites_with
from simcodebench.report.markdown import NONE, table
from simcodebench.suites.fem.families import FAMILIES

SUITE_METRIC = "dealii"
"""The metric every fem-suite score carries (the library flag)."""
DEALII_FAMILIES = tuple(family for family in FAMILIES if family not in ("burgers", "wave"))
"""Table 2's deal.II columns: Table 1's without Burgers and wave."""
NOTE = (
    "Pass rate (%) over counted final attempts (F-Infra left out) of the cases of each family, passed/counted "
    "in brackets; a dash: no case of that family ran; a case of no paper family counts in All only. "
    "Table 2's Firedrake columns: not computed (no suite runs Firedrake here)."
)


def family_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Counted final attempts of fem suites with ``family`` (None where none of the case's attempts recorded
    it) and ``dealii`` (bool)."""
    finals = counted(frame)
    finals = finals[finals["suite"].isin(suites_with(frame, SUITE_METRIC))]
    flags = pd.DataFrame({family: metric(finals, f"family_{family}") for family in FAMILIES}, index=finals.index)
    rows = finals[["agent", "suite", "case", "sample", "passed"]].assign(dealii=metric(finals, SUITE_METRIC))
    rows = pd.concat([rows, flags], axis=1)
    keys = ["suite", "case"]
    for column in ["dealii", *FAMILIES]:  # the case's metadata from any of its scored attempts
        rows[column] = rows.groupby(keys)[column].transform("max")
    found = rows[list(FAMILIES)].eq(1.0)
    rows["family"] = found.idxmax(axis=1).where(found.any(axis=1), None)
    rows["dealii"] = rows["dealii"].eq(1.0)
    return rows.drop(columns=list(FAMILIES))


def family_stats(rows: pd.DataFrame, families: tuple[str, ...]) -> pd.DataFrame:
    """Per agent and suite: ``<family>_passed``/``<family>_counted`` for each of ``families`` and ``All``."""
    records = []
    for (agent, suite), group in rows.groupby(["agent", "suite"]):
        record: dict[str, object] = {"agent": agent, "suite": suite}
        for family in [*families, "All"]:
            mine = group if family == "All" else group[group["family"].eq(family)]
            record[f"{family}_passed"] = int(mine["passed"].sum())
            record[f"{family}_counted"] = len(mine)
        records.append(record)
    counts = [f"{family}_{kind}" for family in [*families, "All"] for kind in ("passed", "counted")]
    return pd.DataFrame(records, columns=["agent", "suite", *counts])


def _rate(passed: int, total: int) -> str:
    return f"{100 * passed / total:.1f} ({passed}/{total})" if total else NONE


def family_table(rows: pd.DataFrame, families: tuple[str, ...]) -> str:
    """The markdown table of :func:`family_stats` (agents and suites as rows, families as columns)."""
    stats = family_stats(rows, families)
    header = ["agent", "suite", *(f"{FAMILIES[family]} (%)" for family in families), "All (%)"]
    lines = [
        [r["agent"], r["suite"], *(_rate(r[f"{f}_passed"], r[f"{f}_counted"]) for f in [*families, "All"])]
        for _, r in stats.iterrows()
    ]
    return table(header, lines, left=2)


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """Table 1 where a DOLFINx suite ran, Table 2 (deal.II) where a deal.II suite ran."""
    if not suites_with(frame, SUITE_METRIC):
        return []
    rows = family_rows(frame)
    found = []
    dolfinx, dealii = rows[~rows["dealii"]], rows[rows["dealii"]]
    if not dolfinx.empty:
        title = "As PDEAgent-Bench Table 1: pass rate per PDE family (DOLFINx)"
        found.append(ReportSection(title, f"{family_table(dolfinx, tuple(FAMILIES))}\n{NOTE}\n"))
    if not dealii.empty:
        title = "As PDEAgent-Bench Table 2: pass rate per PDE family by library (deal.II; Firedrake not computed)"
        found.append(ReportSection(title, f"{family_table(dealii, DEALII_FAMILIES)}\n{NOTE}\n"))
    return found
