"""Comparison figures of the suites' scorers, drawn on matplotlib's Agg canvas without pyplot's global state
(rule bodies run in threads of one process)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure


def figure_grid(rows: int, columns: int, width: float, row_height: float) -> tuple[Figure, np.ndarray]:
    """A new figure with a ``rows`` x ``columns`` array of axes (always two-dimensional)."""
    figure = Figure(figsize=(width, row_height * rows))
    return figure, figure.subplots(rows, columns, squeeze=False)


def save_figure(figure: Figure, png: Path, title: str, dpi: int = 90) -> None:
    """Title, lay out and write ``figure`` to ``png`` (its folder created)."""
    figure.suptitle(title)
    figure.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(png, dpi=dpi)
