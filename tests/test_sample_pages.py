"""The report's sample pages: one per failed sample and a few passed ones, with prompt, reply, code, output
excerpts, each gate's value and threshold, linked from the summary's tables."""

from __future__ import annotations

from pathlib import Path

from runs_support import run_of, sample

from simcodebench.core.layout import Layout
from simcodebench.report import sample_pages
from simcodebench.report.collect import collect
from simcodebench.report.summary import write_summary

PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 64


def _run(tmp_path: Path) -> Path:
    work = run_of(tmp_path / "work", "alpha", {("s", f"c{i}"): ["Pass"] for i in range(5)})
    sample(work, "alpha", "s", "bad", 0, ["F-Exec", "F-Acc"])
    sample(work, "alpha", "s", "bad", 1, ["F-Time"], wall_s=4.5)
    return work


def test_pages_for_failures_and_a_few_passes(tmp_path):
    work = _run(tmp_path)
    layout = Layout.of(work)
    write_summary(Path(layout.runs), Path(layout.summary), {})
    drawn = []

    def draw(row, png):
        drawn.append((row["case"], row["sample"]))
        png.write_bytes(PNG)
        return True

    pages = sample_pages.write_sample_pages(layout, collect(Path(layout.runs)), draw)
    names = sorted(p.name for p in pages)
    assert names == [
        "alpha__s__bad__0.html",
        "alpha__s__bad__1.html",
        *(f"alpha__s__c{i}__0.html" for i in range(sample_pages.PASSED_PAGES)),
    ]
    bad = (Path(layout.sample_pages) / "alpha__s__bad__0.html").read_text()
    # both attempts, the selected one open; prompt, reply, code, stderr, gates with value and threshold
    assert "Attempt 0 (attempt-0): F-Exec" in bad and "<details open><summary>Attempt 1 (attempt-1): F-Acc" in bad
    assert "Traceback: boom" in bad and "print(&#x27;alpha bad 0 1&#x27;)" in bad
    assert "<td>accuracy</td><td class='fail'>missed</td><td>1.000e-03</td><td>≤ 1.000e-02</td>" in bad
    slow = (Path(layout.sample_pages) / "alpha__s__bad__1.html").read_text()
    assert "<td>time</td><td class='fail'>missed</td><td>4.5 s</td><td>≤ 3 s</td>" in slow
    assert "data:image/png;base64," in slow and drawn == [("bad", 1)]  # sample 0's figure is the summary's
    index = (Path(layout.sample_pages) / "index.html").read_text()
    assert index.count("<tr>") == 1 + len(pages) and "alpha__s__bad__1.html" in index
    summary = Path(layout.summary_file("summary.md")).read_text()
    assert "## Sample pages" in summary and "(samples/index.html)" in summary
    suite = Path(layout.summary_file("s.md")).read_text()
    assert "[1](samples/alpha__s__bad__1.html)" in suite and "| F-Time |" in suite


def test_a_failing_figure_costs_only_the_figure(tmp_path):
    work = _run(tmp_path)
    layout = Layout.of(work)

    def draw(row, png):
        raise RuntimeError("no reference")

    pages = sample_pages.write_sample_pages(layout, collect(Path(layout.runs)), draw)
    assert "(no figure for this sample)" in (Path(layout.sample_pages) / "alpha__s__bad__1.html").read_text()
    assert len(pages) == 2 + sample_pages.PASSED_PAGES
