"""Bar plot of final failure classes per agent (matplotlib's Agg canvas, no pyplot state)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from simcodebench.report.breakdowns import failure_class_counts

CLASS_COLOURS = {
    "Pass": "#2ca02c",
    "F-NoResponse": "#393b79",
    "F-Extract": "#9467bd",
    "F-Timeout": "#8c564b",
    "F-Exec": "#d62728",
    "F-Missing": "#e377c2",
    "F-Format": "#bcbd22",
    "F-NaN": "#17becf",
    "F-Valid": "#8c6d31",
    "F-Acc": "#ff7f0e",
    "F-Time": "#1f77b4",
    "F-Infra": "#9e9e9e",
}
"""Fixed colour per class, so the same class looks the same in every plot."""

OTHER_COLOUR = "#333333"


def _draw(fig: Figure, counts: pd.DataFrame) -> None:
    ax = fig.add_subplot()
    agents = [str(a) for a in counts.index]
    left = [0] * len(agents)
    for cls in counts.columns:
        values = counts[cls].tolist()
        ax.barh(agents, values, left=left, color=CLASS_COLOURS.get(cls, OTHER_COLOUR), label=cls)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel("samples (final attempt)")
    ax.set_title("Final failure class per agent")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)


def failure_class_plot(frame: pd.DataFrame, png: Path) -> None:
    """Save a stacked horizontal bar chart of final failure classes per agent to ``png``.

    Colours are fixed per class (Pass green, F-Infra grey). An empty frame gives a figure saying
    "no results". The file is written through a temporary name and a rename.
    """
    png = Path(png)
    counts = failure_class_counts(frame)
    fig = Figure(figsize=(8, max(2.5, 1.5 + 0.45 * len(counts))), layout="constrained")
    if counts.empty:
        fig.text(0.5, 0.5, "no results", ha="center", va="center", fontsize=16)
    else:
        _draw(fig, counts)
    png.parent.mkdir(parents=True, exist_ok=True)
    tmp = png.with_name(f".{png.name}.tmp")
    try:
        fig.savefig(tmp, format="png", dpi=120)
        os.replace(tmp, png)
    finally:
        tmp.unlink(missing_ok=True)
