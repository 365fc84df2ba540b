"""The summary's section on the replies an ``openai`` agent received in the run: per agent, the requests made,
their median time to the first token, tokens a second and total time, and how many were in flight at once."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from simcodebench.report.markdown import NONE, table

if TYPE_CHECKING:
    import pandas as pd


def in_flight(spans: list[tuple[float, float]]) -> tuple[int, float]:
    """The most requests in flight at once, and the mean over the time from the first request's start to the last
    one's end (the sum of the requests' durations over that span); ``(0, 0.0)`` without requests."""
    spans = [(start, end) for start, end in spans if end >= start]
    if not spans:
        return 0, 0.0
    events = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans], key=lambda e: (e[0], e[1]))
    peak = level = 0
    for _, step in events:
        level += step
        peak = max(peak, level)
    span = max(end for _, end in spans) - min(start for start, _ in spans)
    busy = sum(end - start for start, end in spans)
    return peak, (busy / span if span > 0 else float(len(spans)))


def _median(values: pd.Series, fmt: str) -> str:
    values = values.dropna()
    return NONE if values.empty else format(float(values.median()), fmt)


def markdown(frame: pd.DataFrame) -> str:
    """The section, with one row per agent that made requests in the run; empty when none did."""
    rows = []
    for agent, group in frame.groupby("agent"):
        spans = [tuple(span) for text in group["requests"] for span in json.loads(text or "[]")]
        if not spans:
            continue
        peak, mean = in_flight(spans)
        rows.append(
            [
                agent,
                len(spans),
                _median(group["first_token_s"], ".2f"),
                _median(group["tokens_per_s"], ".1f"),
                _median(group["latency_s"], ".1f"),
                peak,
                f"{mean:.2f}",
            ]
        )
    if not rows:
        return ""
    header = ["agent", "requests", "first token (s)", "tokens/s", "reply (s)", "peak in flight", "mean in flight"]
    return (
        "\n## Replies received in this run\n\n"
        "Medians over the attempts whose replies came from the endpoint (not the cache): seconds to the first "
        "token and completion tokens a second after it (a streamed reply; over the whole request for a plain "
        "one), seconds of the attempt's requests; requests in flight at once, at the peak and on average from "
        "the first request to the last reply.\n\n" + table(header, rows)
    )
