"""A page per sample (``results/summary/samples/``): for every failed sample and a few passed ones, the prompt,
the reply, the extracted code, stdout and stderr excerpts, each gate with its value and threshold, and the field
figure or frame strip; an ``index.html`` lists them, and the summary's markdown tables link to them.

Pages are self-contained HTML (figures embedded), so they open from the folder, from a copy, or inside the
Snakemake report. Written by the ``aggregate`` stage after the summary; nothing else reads them.
"""

from __future__ import annotations

import base64
import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from simcodebench.core import case_failures
from simcodebench.core.io import atomic_write_text
from simcodebench.core.layout import Layout
from simcodebench.report.markdown import NONE, table
from simcodebench.report.sample_record import AttemptRecord, attempt_records

PASSED_PAGES = 3
"""Passed samples given a page, per agent and suite (every failed sample has one)."""
FIGURES = 10
"""Figures drawn for paged samples per agent and suite beyond sample 0's, which the summary draws anyway."""
EXCERPT = 4000
"""Characters of stdout and stderr shown: the first and the last ``EXCERPT`` of each."""
LINKED = 200
"""Rows of a suite page's table of sample pages; the rest are in ``samples/index.html``."""

Draw = Callable[[dict[str, Any], Path], bool]
"""Draws the sample's selected attempt beside the reference into a PNG; False where the case has no figure."""

log = logging.getLogger("simcodebench")

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 70em; color: #222; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; white-space: pre-wrap; font-size: .85em; }
table { border-collapse: collapse; margin: .5em 0; } td, th { border: 1px solid #ccc; padding: .2em .5em; }
.Pass { color: #176317; font-weight: bold; } .fail { color: #a11; font-weight: bold; }
details { margin: .4em 0; } summary { cursor: pointer; font-weight: 600; } img { max-width: 100%; }
"""


def paged(frame: pd.DataFrame) -> pd.DataFrame:
    """The final rows given a page: every failed sample, and the first ``PASSED_PAGES`` passed ones of each
    agent and suite (by case and sample); F-Case samples left out."""
    finals, _ = case_failures.split(frame[frame["final"]])
    finals = finals.sort_values(["agent", "suite", "case", "sample"])
    passed = finals[finals["passed"]].groupby(["agent", "suite"]).head(PASSED_PAGES)
    return pd.concat([finals[~finals["passed"]], passed]).sort_values(["agent", "suite", "case", "sample"])


def page_name(row: dict[str, Any], suffix: str = "html") -> str:
    """The file name of the sample's page (or figure) inside ``samples/``."""
    return Path(Layout().sample_page(row["agent"], row["suite"], row["case"], row["sample"], suffix)).name


def _esc(value: object) -> str:
    return html.escape(str(value))


def _pre(text: str, empty: str = "(empty)") -> str:
    return f"<pre>{_esc(text) if text else _esc(empty)}</pre>"


def _excerpt(text: str) -> str:
    if len(text) <= 2 * EXCERPT:
        return text
    return f"{text[:EXCERPT]}\n[... {len(text) - 2 * EXCERPT} characters left out ...]\n{text[-EXCERPT:]}"


def _number(value: Any, unit: str = "") -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return NONE
    return f"{value:.3e}{unit}" if isinstance(value, float) and unit == "" else f"{value:.3g}{unit}"


def gate_rows(score: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(gate, verdict, value, threshold, detail) of each gate the attempt went through, in order."""
    run = score.get("run") or {}
    values = {
        "accuracy": (_number(score.get("error")), "≤ " + _number(score.get("tau_acc"))),
        "time": (_number(score.get("wall_s"), " s"), "≤ " + _number(score.get("tau_time"), " s")),
        "run": (f"{run.get('status', NONE)}, rc {run.get('rc', NONE)}", "status ok"),
    }
    return [
        (
            g["name"],
            "passed" if g["passed"] else "missed",
            *values.get(g["name"], ("", "")),
            str(g.get("detail") or ""),
        )
        for g in score.get("gates") or []
    ]


def _gates_html(score: dict[str, Any]) -> str:
    rows = gate_rows(score)
    if not rows:
        return f"<p>No gate: {_esc(score.get('status', ''))} {_esc(score.get('message', ''))}</p>"
    body = "".join(
        f"<tr><td>{_esc(n)}</td><td class='{'Pass' if v == 'passed' else 'fail'}'>{v}</td><td>{_esc(val)}</td>"
        f"<td>{_esc(thr)}</td><td>{_esc(d)}</td></tr>"
        for n, v, val, thr, d in rows
    )
    return f"<table><tr><th>gate</th><th>verdict</th><th>value</th><th>threshold</th><th>detail</th></tr>{body}</table>"


def _attempt_html(record: AttemptRecord, selected: bool) -> str:
    score = record.score
    cls = score.get("failure_class") or score.get("status") or ""
    head = f"Attempt {record.attempt} ({_esc(record.stage)}): {_esc(cls)}" + (
        " — stands for the sample" if selected else ""
    )
    parts = [f"<h3>Gates</h3>{_gates_html(score)}"]
    if score.get("message"):
        parts.append(f"<p><b>message:</b> {_esc(score['message'])}</p>")
    parts.append(f"<h3>Prompt</h3>{_pre(record.prompt)}")
    if len(record.calls) > 1:
        calls = "".join(
            f"<details><summary>call {i}: {_esc(c.get('role') or '')}</summary>"
            f"{_pre(str(c.get('text') or ''))}</details>"
            for i, c in enumerate(record.calls)
        )
        parts.append(f"<h3>Model calls of this attempt</h3>{calls}")
    parts.append(f"<h3>Reply</h3>{_pre(record.reply, '(no reply)')}")
    code = "".join(f"<p><code>{_esc(name)}</code></p>{_pre(text)}" for name, text in record.code.items())
    parts.append(f"<h3>Extracted code</h3>{code or '<p>(nothing extracted)</p>'}")
    parts.append(f"<h3>stdout</h3>{_pre(_excerpt(record.stdout))}<h3>stderr</h3>{_pre(_excerpt(record.stderr))}")
    return f"<details{' open' if selected else ''}><summary>{head}</summary>{''.join(parts)}</details>"


def _image(png: Path | None) -> str:
    if png is None or not png.is_file() or png.stat().st_size == 0:
        return "<p>(no figure for this sample)</p>"
    data = base64.b64encode(png.read_bytes()).decode()
    return f"<img alt='{_esc(png.name)}' src='data:image/png;base64,{data}'>"


def sample_page(row: dict[str, Any], records: list[AttemptRecord], figure: Path | None) -> str:
    """The HTML page of one sample (``row``: its final row of the tidy frame)."""
    cls = row["failure_class"] or ""
    title = f"{row['agent']} · {row['suite']} / {row['case']} · sample {row['sample']}"
    facts = [
        ("final class", f"<span class='{'Pass' if row['passed'] else 'fail'}'>{_esc(cls)}</span>"),
        ("message", _esc(row.get("message") or "")),
        ("attempt that stands for it", f"{row['attempt']} of {len(records)}"),
        ("strategy", _esc(row.get("strategy") or "")),
        ("model", _esc(row.get("model") or NONE)),
        ("mutant (declared class)", _esc(f"{row['mutant']} ({row['declared_class']})") if row.get("mutant") else NONE),
        ("case version · machine", _esc(f"{row.get('case_version') or NONE} · {row.get('machine') or NONE}")),
    ]
    rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts)
    attempts = "".join(_attempt_html(r, r.attempt == row["attempt"]) for r in records)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_esc(title)}</title><style>{STYLE}</style>"
        f"</head><body><p><a href='index.html'>all sample pages</a></p><h1>{_esc(title)}</h1><table>{rows}</table>"
        f"<h2>Figure: the attempt that stands for the sample beside the reference</h2>{_image(figure)}"
        f"<h2>Attempts</h2>{attempts}</body></html>"
    )


def _index(rows: list[dict[str, Any]]) -> str:
    body = "".join(
        f"<tr><td>{_esc(r['agent'])}</td><td>{_esc(r['suite'])}</td><td>{_esc(r['case'])}</td>"
        f"<td><a href='{quote(page_name(r))}'>{r['sample']}</a></td>"
        f"<td class='{'Pass' if r['passed'] else 'fail'}'>{_esc(r['failure_class'])}</td>"
        f"<td>{_esc((r.get('message') or '')[:160])}</td></tr>"
        for r in rows
    )
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Sample pages</title><style>{STYLE}</style></head>"
        f"<body><h1>Sample pages</h1><p>Every failed sample and the first {PASSED_PAGES} passed ones of each agent "
        "and suite.</p><table><tr><th>agent</th><th>suite</th><th>case</th><th>sample</th><th>class</th>"
        f"<th>message</th></tr>{body}</table></body></html>"
    )


def _figure(row: dict[str, Any], layout: Layout, drawn: dict[tuple[str, str], int], draw: Draw | None) -> Path | None:
    """The sample's figure: sample 0's from ``fields/``, else one drawn now (at most ``FIGURES`` per agent and
    suite, for samples whose outputs were read)."""
    if row["sample"] == 0:
        return Path(layout.summary_file("fields")) / f"{row['agent']}__{row['suite']}__{row['case']}.png"
    key = (row["agent"], row["suite"])
    if draw is None or row["gate_class"] in (None, "F-NoResponse", "F-Extract", "F-Timeout", "F-Exec", "F-Missing"):
        return None
    if drawn.get(key, 0) >= FIGURES:
        return None
    drawn[key] = drawn.get(key, 0) + 1
    png = Path(layout.sample_page(row["agent"], row["suite"], row["case"], row["sample"], "png"))
    try:
        return png if draw(row, png) else None
    except Exception as exc:  # a figure is an extra: its failure costs the figure, never the summary
        log.warning("sample page %s: no figure (%s: %s)", png.name, type(exc).__name__, exc)
        return None


def links_markdown(rows: list[dict[str, Any]], prefix: str = "samples/") -> str:
    """A markdown table linking to the pages of ``rows`` (at most ``LINKED``; then a link to the index)."""
    lines = [
        [
            r["agent"],
            r["case"],
            f"[{r['sample']}]({prefix}{quote(page_name(r))})",
            r["failure_class"],
            r["message"][:120],
        ]
        for r in rows[:LINKED]
    ]
    text = table(["agent", "case", "sample", "class", "message"], lines, left=5)
    if len(rows) > LINKED:
        text += f"\n{len(rows) - LINKED} more in [the index]({prefix}index.html).\n"
    return text


def write_sample_pages(layout: Layout, frame: pd.DataFrame, draw: Draw | None = None) -> list[Path]:
    """Write the pages of :func:`paged` samples and ``index.html`` under the layout's ``summary/samples/``, and
    add a section linking to them to ``summary.md`` and to each ``<suite>.md`` that exists; return the pages."""
    folder = Path(layout.sample_pages)
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*__*__*__*.html"), *folder.glob("*__*__*__*.png")]:  # pages of an earlier summary
        old.unlink()
    rows = paged(frame).to_dict("records")
    drawn: dict[tuple[str, str], int] = {}
    pages = []
    for row in rows:
        records = attempt_records(layout, row["agent"], row["suite"], row["case"], int(row["sample"]))
        page = folder / page_name(row)
        atomic_write_text(page, sample_page(row, records, _figure(row, layout, drawn, draw)), mode=0o644)
        pages.append(page)
    atomic_write_text(folder / "index.html", _index(rows), mode=0o644)
    _link_from_tables(layout, rows)
    return pages


def _link_from_tables(layout: Layout, rows: list[dict[str, Any]]) -> None:
    intro = "Every failed sample and a few passed ones: prompt, reply, code, output, gates and figure.\n\n"
    summary = Path(layout.summary_file("summary.md"))
    if summary.is_file():
        counts = pd.DataFrame(rows, columns=["agent", "suite", "passed"]) if rows else pd.DataFrame()
        lines = [
            [agent, suite, int((~at["passed"]).sum()), int(at["passed"].sum()), f"[{suite}.md]({quote(suite)}.md)"]
            for (agent, suite), at in (counts.groupby(["agent", "suite"]) if rows else [])
        ]
        section = table(["agent", "suite", "failed (paged)", "passed (paged)", "links"], lines, left=2)
        text = f"\n## Sample pages\n\n{intro}[All sample pages](samples/index.html)\n\n{section}"
        atomic_write_text(summary, summary.read_text() + text, mode=0o644)
    for suite in sorted({r["suite"] for r in rows}):
        page = Path(layout.summary_file(f"{suite}.md"))
        if page.is_file():
            mine = [r for r in rows if r["suite"] == suite]
            text = f"\n## Sample pages\n\n{intro}{links_markdown(mine)}"
            atomic_write_text(page, page.read_text() + text, mode=0o644)
