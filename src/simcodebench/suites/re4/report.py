"""Re^4's own tables (Cheng, Zhang, He; arXiv 2508.20729), from the scores of ``re4``-strategy agents on the
``re4`` suite or one of its variants (``re4@paper``): one column per programmer (agent) and stage.

- execution success per problem and stage (the paper's Fig. 2): executable runs / runs at the stage;
- Table 2: the mean error (relative L2 for the PDEs) of the executable runs, per PDE and stage;
- Hilbert solving success by n: runs with L-inf error below 1e-2 for that n / runs at the stage;
- keyhole success: runs that recover Ke (sine of the angle to Ke's exponents below 1e-3) / runs at the stage;
- Table 4: the best error of the executable runs at the last stage (rev-2), per PDE;
- Table 5: the lowest Hilbert L-inf error by n of the executable runs at the last stage, per programmer (the
  paper gives one row per method a programmer used; our contract records one solution per n, the run's most
  accurate, so the Methods column is not computed).

A run at a stage is a scored attempt (skipped and F-Infra left out). Errors and the Hilbert and keyhole metrics
exist only where the run wrote our contract's files: always under ``re4``, rarely under ``re4@paper``, whose
prompts do not ask for them; a run without them is not solved, and a table whose metric no run recorded is left
out.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pandas as pd

from simcodebench.core.failure_classes import INFRA
from simcodebench.core.plugin import ReportSection
from simcodebench.report.markdown import NONE, table

HILBERT, KEYHOLE = "hilbert", "keyhole"
HILBERT_LIMIT = 1e-2
"""Re^4's Hilbert solving threshold on the L-inf error (per n)."""
KEYHOLE_LIMIT = 1e-3
"""The keyhole suite's threshold on the sine of the angle to Ke's exponent vector (cases/re4/README.md)."""
PDE_ORDER = ("burgers", "sod", "poisson_holes", "helmholtz_holes", "lid_driven", "unsteady_ns")
"""The paper's row order of its PDEs (Tables 2 and 4); other cases follow by name."""


def re4_runs(frame: pd.DataFrame) -> pd.DataFrame:
    """The scored, non-infrastructure attempts of ``re4``-strategy agents on the ``re4`` suite (or a variant),
    with ``problem`` (the case id, or ``suite/case`` when several suites are present) and ``executable`` as a
    plain bool."""
    rows = frame[
        frame["strategy"].eq("re4")
        & frame["suite"].str.split("@").str[0].eq("re4")
        & frame["status"].eq("scored")
        & frame["failure_class"].ne(INFRA)
    ].copy()
    several = rows["suite"].nunique() > 1
    rows["problem"] = rows["suite"] + "/" + rows["case"] if several else rows["case"]
    rows["executable"] = rows["executable"].fillna(False).astype(bool)
    return rows


def _order(problems: list[str]) -> list[str]:
    rank = {case: i for i, case in enumerate(PDE_ORDER)}
    return sorted(problems, key=lambda p: (rank.get(p.split("/")[-1], len(rank)), p))


def _pdes(runs: pd.DataFrame) -> list[str]:
    return _order([p for p in runs["problem"].unique() if p.split("/")[-1] not in (HILBERT, KEYHOLE)])


def _metric(runs: pd.DataFrame, name: str) -> pd.Series:
    return runs["metrics"].map(lambda text: json.loads(text).get(name)).astype("float64")


def _columns(runs: pd.DataFrame) -> list[tuple[str, int, str]]:
    """(agent, attempt, stage) of every column, agents by name, stages in order."""
    keys = runs[["agent", "attempt", "stage"]].drop_duplicates().sort_values(["agent", "attempt"])
    return [(r.agent, int(r.attempt), r.stage) for r in keys.itertuples()]


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}% ({part}/{whole})" if whole else NONE


def _stage_table(runs: pd.DataFrame, labels: list[str], cell: Callable[[str, pd.DataFrame], str]) -> str:
    """Rows ``labels`` by (agent, stage) columns, each cell ``cell(label, runs at that agent and stage)``."""
    columns = _columns(runs)
    header = ["problem", *(f"{agent} {stage}" for agent, _, stage in columns)]
    rows = []
    for label in labels:
        row = [label]
        for agent, attempt, _ in columns:
            row.append(cell(label, runs[runs["agent"].eq(agent) & runs["attempt"].eq(attempt)]))
        rows.append(row)
    return table(header, rows)


def execution_success(runs: pd.DataFrame) -> str:
    """Execution success per problem (rows) and programmer and stage (columns)."""
    labels = _order(list(runs["problem"].unique()))

    def cell(label: str, at: pd.DataFrame) -> str:
        mine = at[at["problem"].eq(label)]
        return _share(int(mine["executable"].sum()), len(mine))

    return _stage_table(runs, labels, cell)


def mean_error_of_executable(runs: pd.DataFrame) -> str:
    """Table 2: the mean error of the executable runs that recorded one, per PDE and stage (with their count)."""

    def cell(label: str, at: pd.DataFrame) -> str:
        errors = at.loc[at["problem"].eq(label) & at["executable"], "error"].dropna()
        return f"{errors.mean():.2e} ({len(errors)})" if len(errors) else NONE

    return _stage_table(runs, _pdes(runs), cell)


def _linf_names(hilbert: pd.DataFrame) -> list[str]:
    """The ``linf_n<n>`` metrics the Hilbert runs recorded, by n (the paper's n = 5 ... 25 when none did)."""
    return sorted(
        {name for text in hilbert["metrics"] for name in json.loads(text) if name.startswith("linf_n")},
        key=lambda name: int(name.removeprefix("linf_n")),
    ) or [f"linf_n{n}" for n in (5, 10, 15, 20, 25)]


def hilbert_success_by_n(runs: pd.DataFrame) -> str:
    """Hilbert solving success by n: runs whose L-inf error for n is below the limit / runs at the stage."""
    hilbert = runs[runs["problem"].str.split("/").str[-1].eq(HILBERT)]
    names = _linf_names(hilbert)
    hilbert = hilbert.assign(**{name: _metric(hilbert, name) for name in names})
    labels = [f"n = {name.removeprefix('linf_n')}" for name in names]

    def cell(label: str, at: pd.DataFrame) -> str:
        name = "linf_n" + label.removeprefix("n = ")
        return _share(int((at[name] < HILBERT_LIMIT).sum()), len(at))

    return _stage_table(hilbert, labels, cell)


def keyhole_success(runs: pd.DataFrame) -> str:
    """Keyhole success: runs whose exponents are Ke's (error below the limit) / runs at the stage."""
    keyhole = runs[runs["problem"].str.split("/").str[-1].eq(KEYHOLE)]

    def cell(label: str, at: pd.DataFrame) -> str:
        found = at["executable"] & (at["error"] < KEYHOLE_LIMIT)
        return _share(int(found.sum()), len(at))

    return _stage_table(keyhole, _order(list(keyhole["problem"].unique())), cell)


def best_at_last_stage(runs: pd.DataFrame) -> str:
    """Table 4: per PDE and programmer, the lowest error of the executable runs at the agent's last stage."""
    agents = sorted(runs["agent"].unique())
    last = runs.groupby("agent")["attempt"].transform("max")
    final = runs[runs["attempt"].eq(last)]
    stages = {agent: final.loc[final["agent"].eq(agent), "stage"].iloc[0] for agent in agents}
    header = ["problem", *(f"{agent} {stages[agent]}" for agent in agents)]
    rows = []
    for label in _pdes(runs):
        row = [label]
        for agent in agents:
            mine = final[final["agent"].eq(agent) & final["problem"].eq(label) & final["executable"]]
            errors = mine["error"].dropna()
            row.append(f"{errors.min():.2e} ({len(errors)})" if len(errors) else NONE)
        rows.append(row)
    return table(header, rows)


def hilbert_best_by_n(runs: pd.DataFrame) -> str:
    """Table 5: per programmer at its last stage, the lowest L-inf error for each n over the executable Hilbert
    runs that recorded it (with their count); the paper's per-method rows are not computed."""
    hilbert = runs[runs["problem"].str.split("/").str[-1].eq(HILBERT)]
    names = _linf_names(hilbert)
    last = hilbert.groupby("agent")["attempt"].transform("max")
    final = hilbert[hilbert["attempt"].eq(last) & hilbert["executable"]]
    header = ["programmer", "stage", "methods", *(f"n = {name.removeprefix('linf_n')}" for name in names)]
    rows = []
    for agent in sorted(hilbert["agent"].unique()):
        mine = final[final["agent"].eq(agent)]
        stage = hilbert.loc[hilbert["agent"].eq(agent) & hilbert["attempt"].eq(last), "stage"].iloc[0]
        row: list[object] = [agent, stage, "not computed"]
        for name in names:
            errors = _metric(mine, name).dropna()
            row.append(f"{errors.min():.2e} ({len(errors)})" if len(errors) else NONE)
        rows.append(row)
    return table(header, rows, left=3)


NOTE = (
    "Cells: share of the runs at the stage (scored attempts; skipped and F-Infra left out), or an error with, in "
    "brackets, how many executable runs recorded one. Executable: ran to the end within the wall limit with exit "
    "status 0 and (re4) wrote well-formed, finite outputs or (re4@paper) printed and saved no NaN or infinity. "
    f"Hilbert: L-inf error below {HILBERT_LIMIT:g} for that n; keyhole: Ke's exponents (sine of the angle below "
    f"{KEYHOLE_LIMIT:g}). Table 5: lowest L-inf error per n over the executable Hilbert runs at the programmer's "
    "last stage; its Methods column is not computed (each run reports one solution per n, its most accurate). "
    f"Errors exist only where the run wrote our contract's files (re4@paper does not ask for "
    "them); a run without them is not solved, and a table is left out when no run recorded its metric."
)


def re4_paper_markdown(frame: pd.DataFrame) -> str:
    """Re^4's tables as markdown subsections (empty text when no ``re4``-strategy agent ran the re4 suite)."""
    runs = re4_runs(frame)
    if runs.empty:
        return ""
    parts = [("Execution success by stage (Fig. 2)", execution_success(runs))]
    case = runs["problem"].str.split("/").str[-1]
    pde_errors = runs.loc[~case.isin((HILBERT, KEYHOLE)), "error"].notna().any()
    if pde_errors:
        parts.append(("Mean error of the executable runs (Table 2)", mean_error_of_executable(runs)))
    if runs.loc[case.eq(HILBERT), "metrics"].str.contains('"linf_n').any():
        parts.append(("Hilbert solving success by n", hilbert_success_by_n(runs)))
    if runs.loc[case.eq(KEYHOLE), "error"].notna().any():
        parts.append(("Keyhole success", keyhole_success(runs)))
    if pde_errors:
        parts.append(("Best of N at the last stage (Table 4)", best_at_last_stage(runs)))
    if runs.loc[case.eq(HILBERT), "metrics"].str.contains('"linf_n').any():
        parts.append(("L-inf error of the best Hilbert runs at the last stage (Table 5)", hilbert_best_by_n(runs)))
    return "".join(f"### {title}\n\n{table}\n" for title, table in parts) + NOTE + "\n"


def sections(frame: pd.DataFrame) -> list[ReportSection]:
    """Re^4's tables, where a ``re4``-strategy agent ran the suite."""
    text = re4_paper_markdown(frame)
    return [ReportSection("Re^4's tables: programmers by stage", text)] if text else []
