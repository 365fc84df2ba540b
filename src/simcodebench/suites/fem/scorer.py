"""Scorer of the fem suite (PDEAgent-Bench): references, the App. J output check and the masked error.

A run passes its outputs when ``solution.npz`` (deal.II: ``solution_grid.bin``) and ``meta.json`` exist,
``u`` has the grid's shape
(``(ny, nx)``, or ``(nz, ny, nx)``; nothing is resampled) and is finite at every scored point. Its error is the
relative L2 error over the scored points (:func:`.grid.relative_l2`). The suite's ``class_map`` turns every
output failure into F-Exec, as the paper counts them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.figures import figure_grid, save_figure
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.suites.fem import grid
from simcodebench.suites.fem.harness import case_spec
from simcodebench.suites.fem.outputs import load_field
from simcodebench.suites.fem.reference import GENERATORS


def generate_reference(case: Case) -> Reference:
    """The case's reference field, made by ``hidden.reference.generator`` (``manufactured`` or ``refined``)."""
    name = case.hidden.reference["generator"]
    if name not in GENERATORS:
        raise KeyError(f"{case.key}: no fem reference generator '{name}'; known: {sorted(GENERATORS)}")
    return GENERATORS[name](case)


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Check the run's field against the contract and measure its masked relative L2 error."""
    expected = reference.fields["u"]
    u = load_field(Path(run_dir), expected.shape)
    if isinstance(u, Measurement):
        return u
    scored = np.isfinite(expected)
    bad = int(np.count_nonzero(~np.isfinite(u[scored])))
    if bad:
        return Measurement(outcome="nonfinite", message=f"u has {bad} non-finite value(s) inside the domain")
    return Measurement(outcome="ok", error=grid.relative_l2(u, expected), metrics=grid.diagnostics(u, expected))


def plot_comparison(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """Draw the sample's field, the reference and their difference (2D cases; 3D: the middle z slice)."""
    expected = reference.fields["u"]
    u = load_field(Path(run_dir), expected.shape)
    if isinstance(u, Measurement):
        return False
    if expected.ndim == 3:
        u, expected = u[u.shape[0] // 2], expected[expected.shape[0] // 2]
    u = np.where(np.isfinite(expected), u, np.nan)
    box = case_spec(case)["eval_grid"]["bbox"][:4]

    figure, grid = figure_grid(1, 3, 14, 4.2)
    axes = grid[0]
    low, high = np.nanmin(expected), np.nanmax(expected)
    for axis, values, title in (
        (axes[0], u, "sample u"),
        (axes[1], expected, "reference"),
        (axes[2], u - expected, "sample - reference"),
    ):
        limits = {"vmin": low, "vmax": high} if axis is not axes[2] else {"cmap": "RdBu_r"}
        image = axis.imshow(values, origin="lower", extent=box, aspect="equal", **limits)
        figure.colorbar(image, ax=axis, shrink=0.85)
        axis.set_title(title)
        axis.set_xlabel("x")
        axis.set_ylabel("y")
    save_figure(figure, png, f"{case.key}: {case.title}")
    return True
