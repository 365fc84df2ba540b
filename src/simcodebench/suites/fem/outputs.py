"""A fem run's field as the App. J contract writes it: ``solution.npz`` (the Python runner) or a deal.II
program's ``solution_grid.bin``, next to ``meta.json``; checked for presence, readability and shape."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from simcodebench.core.measurement import Measurement

SOLUTION, BINARY, META = "solution.npz", "solution_grid.bin", "meta.json"


def load_field(run_dir: Path, shape: tuple[int, ...]) -> np.ndarray | Measurement:
    """The run's ``u`` (from ``solution.npz``, or a deal.II program's ``solution_grid.bin``: row-major float64 of
    the grid's shape), or the :class:`Measurement` that says why it cannot be scored."""
    solution = run_dir / SOLUTION if not (run_dir / BINARY).is_file() else run_dir / BINARY
    for path in (solution, run_dir / META):
        if not path.is_file():
            return Measurement(outcome="missing", message=f"{path.name} was not written")
    try:
        json.loads((run_dir / META).read_text(encoding="utf-8"))
        if solution.name == BINARY:
            raw = np.fromfile(solution, dtype="<f8")
            if raw.size != int(np.prod(shape)):
                return Measurement(outcome="format", message=f"{BINARY} holds {raw.size} values, the grid {shape}")
            u = raw.reshape(shape)
        else:
            with np.load(solution, allow_pickle=False) as data:
                u = np.asarray(data["u"], dtype=float)
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        return Measurement(outcome="format", message=f"the outputs cannot be read: {exc}")
    if u.shape != shape:
        return Measurement(outcome="format", message=f"u has shape {u.shape}, the grid is {shape} (no resampling)")
    return u


def solve_seconds(run_dir: Path) -> float | None:
    """The seconds ``solve(case_spec)`` took as the Python runner measured them (``meta.json``'s
    ``solve_time_sec``); None where the run wrote no such number (a deal.II program, a run that failed)."""
    try:
        value = json.loads((run_dir / META).read_text(encoding="utf-8")).get("solve_time_sec")
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) else None
