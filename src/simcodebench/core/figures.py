"""Comparison figures of the suites' scorers, drawn on matplotlib's Agg canvas without pyplot's global state
(rule bodies run in threads of one process). matplotlib is imported when a figure is drawn, not with the
scorers: it costs seconds in every fresh process (a cluster job), most of which draw no figure."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def figure_grid(rows: int, columns: int, width: float, row_height: float) -> tuple[Figure, np.ndarray]:
    """A new figure with a ``rows`` x ``columns`` array of axes (always two-dimensional)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, row_height * rows))
    return figure, figure.subplots(rows, columns, squeeze=False)


def save_figure(figure: Figure, png: Path, title: str, dpi: int = 90) -> None:
    """Title, lay out and write ``figure`` to ``png`` (its folder created)."""
    figure.suptitle(title)
    figure.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(png, dpi=dpi)
