"""Scorer of the foam suite (FoamBench on real OpenFOAM).

Reference generator ``openfoam_run``: the oracle case (the tutorial-derived case in the case folder) is run in the
suite's OpenFOAM environment exactly as a sample is (``Allrun``, then the cell centres), and the fields U, p, T
and rho of its last time directory are stored at its cell centres with that time. Scoring kind ``field_nmse``: the
sample's time nearest the reference's last time is read, and the error is the mean NMSE over the fields both
have, at the reference cell centres (see :mod:`.compare`). Diagnostics of the case files themselves, whether or
not they ran: ``struct`` and ``file`` (see :mod:`.similarity`).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from simcodebench.agents.artifacts import extract_files, write_solution
from simcodebench.agents.backends.oracle import oracle_artifact, oracle_reply
from simcodebench.agents.multifile import read_tree
from simcodebench.core.cases import Case
from simcodebench.core.figures import figure_grid, save_figure
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.execution.harness_runs import placement
from simcodebench.execution.sandbox import execute_solution
from simcodebench.suites.foam.compare import compare_fields, nmse_score, same_mesh, sample_at
from simcodebench.suites.foam.fields import COMPARED, FieldReadError, cell_centres, read_fields, time_dirs
from simcodebench.suites.foam.similarity import similarity

GENERATOR = "openfoam_run"
"""The oracle is ours and trusted: its reference run needs no sandbox, only OpenFOAM (here, or the run's image)."""
LOG_TAIL = 3000


def _stderr_tail(run_dir: Path) -> str:
    logs = sorted(run_dir.glob("log.*")) + [run_dir / "stderr.txt"]
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-LOG_TAIL:]}" for p in logs if p.is_file())


def reference_case(case: Case) -> Case:
    """The case as its reference runs: with the wall limit ``hidden.reference.params.wall_s`` where it has one
    (an imported FoamBench case: the expert's run is untimed and gets longer than an agent's)."""
    wall = (case.hidden.reference.get("params") or {}).get("wall_s")
    return replace(case, resources={**case.resources, "wall_s": float(wall)}) if wall else case


@dataclass(frozen=True)
class OracleRun:
    """The oracle's run: its last time, cell centres, the fields read there, and the run's record."""

    time: float
    centres: np.ndarray
    fields: dict[str, np.ndarray]
    wall_s: float | None
    message: str


def run_oracle(case: Case, names: tuple[str, ...] = COMPARED) -> OracleRun:
    """Run the oracle case as a sample runs and read the fields ``names`` of its last time at its cell centres."""
    with tempfile.TemporaryDirectory(prefix="simcodebench-foam-reference-") as tmp:
        solution, run_dir = Path(tmp) / "solution", Path(tmp) / "run"
        write_solution(extract_files(case, oracle_reply(case)), solution)
        runtime, image = placement(case.suite.environment)  # the run's image, or OpenFOAM installed here
        images = {case.suite.environment: image} if image else None
        result = execute_solution(reference_case(case), solution, run_dir, runtime, images=images)
        if result.status != "ok":
            raise RuntimeError(f"{case.key}: the oracle case did not run ({result.message})\n{_stderr_tail(run_dir)}")
        times = time_dirs(run_dir)
        last = max(times)
        centres = cell_centres(run_dir)
        fields = read_fields(times[last], len(centres), names)
    return OracleRun(last, centres, fields, result.wall_s, result.message)


def generate_reference(case: Case) -> Reference:
    """Run the oracle case and keep the last time's fields at its cell centres."""
    if case.hidden.reference["generator"] != GENERATOR:
        raise KeyError(f"{case.key}: no foam reference generator '{case.hidden.reference['generator']}'")
    run = run_oracle(case)
    if not run.fields:
        raise RuntimeError(f"{case.key}: the oracle's last time {run.time:g} holds none of {COMPARED}")
    return Reference(
        scalars={"time": run.time, "cells": len(run.centres), "fields": sorted(run.fields)},
        fields={"C": run.centres, **run.fields},
        meta={
            "method": f"OpenFOAM run of the oracle case ({case.suite.environment}), fields at its last time",
            "wall_s": run.wall_s,
            "run": run.message,
        },
    )


def _sample(run_dir: Path, reference: Reference) -> tuple[float, np.ndarray, dict[str, np.ndarray]] | Measurement:
    """The sample's time nearest the reference's, its cell centres and its compared fields (or why not)."""
    times = time_dirs(run_dir)
    if not times:
        return Measurement(outcome="missing", message="the case has no time directory")
    target = float(reference.scalars["time"])
    chosen = min(times, key=lambda t: (abs(t - target), -t))
    try:
        centres = cell_centres(run_dir)
        fields = read_fields(times[chosen], len(centres), tuple(reference.scalars["fields"]))
    except FieldReadError as exc:
        return Measurement(outcome="format", message=str(exc))
    if not fields:
        wanted = ", ".join(reference.scalars["fields"])
        return Measurement(
            outcome="missing", message=f"time {chosen:g} holds none of the reference's fields ({wanted})"
        )
    bad = sorted(name for name, values in fields.items() if not np.all(np.isfinite(values)))
    if bad:
        return Measurement(outcome="nonfinite", message=f"time {chosen:g}: non-finite values in {', '.join(bad)}")
    return chosen, centres, fields


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Mean NMSE of the sample's fields against the reference, at the reference cell centres."""
    sample = _sample(Path(run_dir), reference)
    if isinstance(sample, Measurement):
        return sample
    chosen, centres, fields = sample
    ref_fields = {name: reference.fields[name] for name in reference.scalars["fields"]}
    errors, interpolated = compare_fields(reference.fields["C"], ref_fields, centres, fields)
    mean = float(np.mean(list(errors.values())))
    metrics = {f"nmse_{name}": value for name, value in errors.items()}
    metrics |= {
        "nmse": mean,
        "nmse_score": nmse_score(mean),
        "fields_compared": float(len(errors)),
        "sample_time": chosen,
        "time_offset": chosen - float(reference.scalars["time"]),
        "interpolated": float(interpolated),
    }
    return Measurement(outcome="ok", error=mean, metrics=metrics)


def diagnose(case: Case, solution_dir: Path) -> dict[str, float]:
    """FoamBench's ``struct`` and ``file`` of the extracted case against the oracle case."""
    return similarity(oracle_artifact(case), read_tree(Path(solution_dir)))


def plot_comparison(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """Sample, reference and difference of each compared field (magnitude of vectors) at the reference centres."""
    sample = _sample(Path(run_dir), reference)
    if isinstance(sample, Measurement):
        return False
    _, centres, fields = sample
    ref_centres = reference.fields["C"]
    names = sorted(set(fields) & set(reference.scalars["fields"]))

    figure, axes = figure_grid(len(names), 3, 14, 3.4)
    x, y = ref_centres[:, 0], ref_centres[:, 1]
    for row, name in zip(axes, names, strict=True):
        values = fields[name] if same_mesh(ref_centres, centres) else sample_at(centres, fields[name], ref_centres)
        ref, got = reference.fields[name], values
        if ref.ndim == 2:
            ref, got, label = np.linalg.norm(ref, axis=1), np.linalg.norm(got, axis=1), f"|{name}|"
        else:
            label = name
        for axis, data, title in ((row[0], got, "sample"), (row[1], ref, "reference"), (row[2], got - ref, "diff")):
            points = axis.scatter(x, y, c=data, s=6, cmap="coolwarm" if title == "diff" else "viridis")
            figure.colorbar(points, ax=axis)
            axis.set_title(f"{label}: {title}")
            axis.set_aspect("equal", adjustable="datalim")
    save_figure(figure, png, f"{case.key}: {case.title} (at the reference cell centres)")
    return True
