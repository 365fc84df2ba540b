"""Markdown cells and tables, shared by the summary's tables and the suites' own (their ``report`` hooks)."""

from __future__ import annotations

import math

import pandas as pd

NONE = "—"
"""What an empty cell shows."""


def cell(value: object) -> str:
    """One cell's text: pipes escaped, on one line."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list[object]], left: int = 1) -> str:
    """A markdown table; its first ``left`` columns are aligned left, the others right."""
    if not rows:
        return "_no results_\n"
    align = [":---" if i < left else "---:" for i in range(len(header))]
    lines = [header, align, *rows]
    return "\n".join("| " + " | ".join(cell(v) for v in line) + " |" for line in lines) + "\n"


def pct(x: float) -> str:
    """A rate as a percentage with one decimal."""
    return NONE if pd.isna(x) else f"{100 * x:.1f}%"


def ci(rate: float, low: float, high: float) -> str:
    """A rate with its interval, ``r% [low, high]``."""
    return NONE if pd.isna(rate) else f"{pct(rate)} [{100 * low:.1f}, {100 * high:.1f}]"


def money(x: float) -> str:
    """US dollars to four decimals."""
    return NONE if pd.isna(x) else f"${x:.4f}"


def count(x: float) -> str:
    """A count with thousands separators."""
    return NONE if pd.isna(x) else f"{x:,.0f}"


def share(part: int, whole: int) -> str:
    """``r% (part/whole)``."""
    return f"{pct(part / whole if whole else math.nan)} ({part}/{whole})"


def scientific(x: float) -> str:
    """An error in scientific notation."""
    return NONE if pd.isna(x) else f"{x:.2e}"
