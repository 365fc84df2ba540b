"""Write ``results/summary/``: the tidy ``scores.csv``, the markdown tables and the failure-class plot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from simcodebench.core import case_failures
from simcodebench.core.io import atomic_write_text
from simcodebench.core.plugin import SuitePlugin
from simcodebench.report import budget_stops, replies, runtimes
from simcodebench.report.collect import collect, collect_samples
from simcodebench.report.plots import failure_class_plot
from simcodebench.report.tables import write_tables


def write_summary(
    runs_root: Path, out_dir: Path, plugins: Mapping[str, SuitePlugin], final_paths: list[Path] | None = None
) -> dict[str, Path]:
    """Aggregate every score under ``runs_root`` (or only the samples of ``final_paths``) into ``out_dir``.

    ``plugins`` maps each suite to its plugin, whose ``report`` adds the suite's own tables. Writes
    ``scores.csv`` (one row per agent, suite, case, sample, attempt), ``<suite>.md`` per suite, ``summary.md``
    and ``failure_classes.png``, each atomically. Samples of a case whose reference or
    calibration failed (``F-Case``) are left out of the tables and the plot and listed in ``summary.md``, and so
    are the agents stopped by their budget, time limit or the user (``F-Budget`` samples, never asked); the
    replies received in the run get a section of their own (:mod:`simcodebench.report.replies`), and a last
    section says where the samples ran (:mod:`.runtimes`).
    Returns the paths keyed by file name.
    """
    out_dir = Path(out_dir)
    frame = collect(Path(runs_root)) if final_paths is None else collect_samples(final_paths)
    scores = out_dir / "scores.csv"
    atomic_write_text(scores, frame.to_csv(index=False), mode=0o644)
    scored, failed = case_failures.split(frame)  # F-Case samples: in scores.csv, and a section of their own
    plot = out_dir / "failure_classes.png"
    failure_class_plot(scored, plot)
    paths = [scores, *write_tables(scored, out_dir, plugins), plot]
    apart = case_failures.markdown(failed) + budget_stops.markdown(frame) + replies.markdown(frame)
    apart += runtimes.markdown(frame)
    if apart:
        summary = out_dir / "summary.md"
        atomic_write_text(summary, summary.read_text() + apart, mode=0o644)
    return {path.name: path for path in paths}
