"""A run named on the command line, a working directory or a bundle, opened as one thing to read: its layout,
its final verdicts and the calibrations it was judged by."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from simcodebench.core import case_failures
from simcodebench.core.errors import InputError
from simcodebench.core.io import read_json
from simcodebench.core.layout import Layout
from simcodebench.report import bundle
from simcodebench.report.collect import collect


@dataclass(frozen=True)
class Run:
    """One run: ``source`` as named, ``workdir`` the folder that reads as its working directory (a bundle's
    unpacked copy), ``meta`` its ``bundle.json`` (empty for a directory)."""

    label: str
    source: Path
    workdir: Path
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def layout(self) -> Layout:
        """The run's results layout."""
        return Layout.of(self.workdir)

    def frame(self) -> pd.DataFrame:
        """Every attempt of the run (the tidy frame of :func:`simcodebench.report.collect.collect`)."""
        return collect(Path(self.layout.runs))

    def commits(self) -> list[str]:
        """The git commits its records were made at (from ``bundle.json``, else read from its records)."""
        if "commits" in self.meta:
            return list(self.meta["commits"])
        return bundle.provenance(self.layout)["commits"]

    def calibrations(self) -> dict[tuple[str, str], dict[str, Any]]:
        """The calibration record of each (suite, case) the run holds."""
        return {
            (path.parent.name, path.stem): read_json(path)
            for path in sorted(Path(self.layout.calibrations).glob("*/*.json"))
        }


def _label(path: Path) -> str:
    name = path.resolve().name
    for suffix in (".tar.gz", ".tgz", ".tar"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def open_run(path: Path, scratch: Path) -> Run:
    """Open the run at ``path``: a working directory as it is, a bundle unpacked into a fresh folder under
    ``scratch``. Raises :class:`InputError` for anything else (a folder that is not a run, a file that is no
    bundle, a bundle of another version)."""
    path = Path(path)
    if path.is_file():
        into = scratch / f"run{len(list(scratch.glob('run*')))}"
        meta = bundle.unpack(path, into)
        bundle.check_run_dir(into)
        label = meta.get("label") or _label(path)
        return Run(label=label if label != "results" else _label(path), source=path, workdir=into, meta=meta)
    bundle.check_run_dir(path)
    return Run(label=_label(path), source=path, workdir=path)


def _longer_labels(runs: list[Run]) -> list[Run]:
    """Runs of one name told apart: bundles by their file names, directories by their parents' names
    (``a/work``, ``b/work``) where that suffices."""
    labels = [r.label for r in runs]
    labels = [
        _label(r.source) if r.meta and labels.count(label) > 1 else label for r, label in zip(runs, labels, strict=True)
    ]
    for depth in range(2, 5):
        clashing = {label for label in labels if labels.count(label) > 1}
        if not clashing:
            break
        labels = [
            "/".join(Path(r.source).resolve().parts[-depth:]) if label in clashing and not r.meta else label
            for r, label in zip(runs, labels, strict=True)
        ]
    return [
        Run(label=label, source=r.source, workdir=r.workdir, meta=r.meta) for r, label in zip(runs, labels, strict=True)
    ]


def open_runs(paths: list[Path], scratch: Path) -> list[Run]:
    """Open every run, their labels made distinct (parent folders' names, then ``name-2``, ...)."""
    runs = _longer_labels([open_run(p, scratch) for p in paths])
    seen: dict[str, int] = {}
    distinct = []
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
        label = run.label if seen[run.label] == 1 else f"{run.label}-{seen[run.label]}"
        distinct.append(Run(label=label, source=run.source, workdir=run.workdir, meta=run.meta))
    return distinct


def final_verdicts(run: Run) -> pd.DataFrame:
    """The run's final attempt of each sample, cases whose reference or calibration failed (F-Case) left out;
    :class:`InputError` when none is left."""
    frame = run.frame()
    scored, _ = case_failures.split(frame[frame["final"]])
    if scored.empty:
        raise InputError(
            run.source,
            "results/runs",
            "has no final verdict (no final.json, or only cases that were not scored)",
            "let the run finish its aggregate step (snakemake writes final.json), then compare",
        )
    return scored.reset_index(drop=True)
