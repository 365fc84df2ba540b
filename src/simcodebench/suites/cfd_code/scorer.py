"""Scorer of the cfd-code suite (CFDCodeBench): references, NMSE of a run's final-time fields, comparison plots.

A case's ``hidden.scoring`` (kind ``fields``) names the saved variables and their options::

    scoring:
      kind: fields
      axes: [y, x]                 # grid names, in the order of the array axes ([] for scalars)
      fields:                      # the saved variables and their options
        u: {}
        p: {gauge: mean, interior: true, scale: 1.0}
      periodic: {x: 10.0}          # optional: wrap these axes when interpolating
      convergence_fields: [u, v]   # optional: the variables the convergence check compares (default all)
      reference_floor: 1.0e-4      # optional: the reference's own accuracy, a floor of the convergence check
      upstream: {transpose: true}  # optional: the upstream array's layout (legacy mode)
      mode: coords                 # coords (default) or legacy; suite.yaml's scoring.mode wins

Kind ``statistics`` (a chaotic flow from random initial data: ``2D_Rayleigh_Benard_Convection``) reads the same
keys but compares statistics of the snapshot (:mod:`.convection_statistics`) with the ensemble of reference
runs instead of the values: the sample is put on the reference grid as above (``legacy``: resampled by index to
the reference's shape), then each statistic's NMSE against the ensemble mean is an error.

``coords`` reads ``solution.npz`` (the output contract: each variable and the grid arrays) and interpolates
the sample at the reference nodes; ``legacy`` reads ``<var>_<case>.npy`` or ``<var>.npy`` files as the
released code wrote them and resamples by index, file by file: a variable whose file is missing or cannot be
compared is missing for itself only (the others are compared and reported; the sample is F-Missing, or
F-Format). The error is the worst per-variable NMSE, so the accuracy gate (fixed at 0.10) passes only when every
variable scores 1. suite.yaml's ``scoring.strict_bins`` gives the per-variable scores the released code's bins
(strict ``<`` on the NMSE rounded to 3 decimals, as its log prints it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.contract import ContractViolation, load_outputs
from simcodebench.core.figures import figure_grid, save_figure
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import convection_statistics
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code.references import generate
from simcodebench.suites.cfd_code.released import LAYOUT

Fields = dict[str, np.ndarray]
KINDS = ("fields", "statistics")


def comparison_mode(case: Case) -> str:
    """``coords`` or ``legacy``: the suite's ``scoring.mode`` (the legacy variant's), else the case's, else
    ``coords``."""
    return case.suite.data.get("scoring", {}).get("mode") or case.hidden.scoring.get("mode", "coords")


def oracle_source(case: Case) -> str:
    """The case's oracle, in the variant's layout (:func:`released_layout`)."""
    return released_layout(case, (case.folder / case.hidden.oracle).read_text(encoding="utf-8"))


def released_layout(case: Case, source: str) -> str:
    """A program written to our contract; in ``legacy`` mode followed by the released layout: each saved
    variable bound to its own name and written with ``np.save`` (which the legacy extraction renames to
    ``<var>_<case>.npy``)."""
    if comparison_mode(case) != "legacy":
        return source
    lines = ["", "", "# the released CFDCodeBench layout: one .npy file per saved variable", "import numpy as np", ""]
    lines.append('_fields = np.load("solution.npz")')
    for name in _variables(case):
        lines += [f'{name} = _fields["{name}"]', f'np.save("{name}.npy", {name})']
    return source.rstrip() + "\n" + "\n".join(lines) + "\n"


def generate_reference(case: Case) -> Reference:
    """Run the generator that ``case.hidden.reference`` names; store the fields and the grid arrays."""
    spec = case.hidden.reference
    params = dict(spec.get("params", {}))
    solution = generate(spec["generator"], params)
    return Reference(
        fields={**solution.coords, **solution.fields},
        scalars={key: float(value) for key, value in solution.meta.items()},
        meta={"method": solution.method, "generator": spec["generator"], "params": params},
    )


def _scoring(case: Case) -> dict[str, Any]:
    scoring = case.hidden.scoring
    if scoring["kind"] not in KINDS:
        raise KeyError(f"{case.key}: no cfd-code scoring kind '{scoring['kind']}'; known: {list(KINDS)}")
    return scoring


def _statistics_verdict(case: Case, sampled: Fields, reference: Reference) -> Measurement:
    """The NMSE of each compared snapshot statistic of ``sampled`` (on the reference grid) against the ensemble
    mean; the sample's volume Nusselt number is reported beside them."""
    stats, errors = convection_statistics.against_reference(sampled, reference)
    evaluation = _verdict(case, errors)
    evaluation.metrics["nusselt_volume"] = float(stats["nusselt_volume"])
    return evaluation


def _variables(case: Case) -> dict[str, dict[str, Any]]:
    return {name: dict(options or {}) for name, options in _scoring(case)["fields"].items()}


def _merged(outputs: dict[str, Fields]) -> Fields:
    return {name: array for arrays in outputs.values() for name, array in arrays.items()}


def on_reference_grid(case: Case, fields: Fields, reference: Reference) -> Fields:
    """Every variable of the sample interpolated at the reference nodes (``coords`` mode).

    Raises :class:`~.nmse.GridError` when a grid is missing, inconsistent or does not cover the domain.
    """
    scoring = _scoring(case)
    axes = list(scoring["axes"])
    if not axes:  # scalars (an eigenvalue): nothing to interpolate
        return {name: np.asarray(fields[name]) for name in _variables(case)}
    for name in axes:
        if name not in fields:
            raise metric.GridError(f"the grid array '{name}' is missing")
    sample_axes = [fields[name] for name in axes]
    reference_axes = [reference.fields[name] for name in axes]
    periods = {name: float(period) for name, period in (scoring.get("periodic") or {}).items()}
    return {
        name: metric.sample_on_grid(fields[name], sample_axes, reference_axes, axes, periods)
        for name in _variables(case)
    }


def _evaluate_coords(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    try:
        fields = _merged(load_outputs(case.visible.contract, run_dir))
        sampled = on_reference_grid(case, fields, reference)
    except ContractViolation as violation:
        return violation.as_evaluation()
    except metric.GridError as exc:
        return Measurement(outcome="format", message=str(exc))
    if _scoring(case)["kind"] == "statistics":
        return _statistics_verdict(case, sampled, reference)
    errors = {}
    for name, options in _variables(case).items():
        errors[name] = metric.field_nmse(
            reference.fields[name],
            sampled[name],
            gauge=options.get("gauge"),
            interior=bool(options.get("interior", False)),
            scale=options.get("scale"),
        )
    return _verdict(case, errors)


def upstream_layout(case: Case, array: np.ndarray) -> np.ndarray:
    """A reference field in the layout of the upstream array (``upstream.transpose`` / ``upstream.shape``)."""
    layout = _scoring(case).get("upstream") or {}
    if layout.get("transpose"):
        array = array.T
    if layout.get("shape"):
        array = array.reshape(layout["shape"])
    return array


def _legacy_file(case: Case, run_dir: Path, name: str) -> Path | None:
    """``<var>_<case>.npy``; ``<var>.npy`` too unless the extraction renamed every ``np.save`` (as upstream)."""
    candidates = [run_dir / f"{name}_{case.id}.npy"]
    if case.suite.data["extraction"].get("rewrite") != "np_save_by_variable":
        candidates.append(run_dir / f"{name}.npy")
    return next((path for path in candidates if path.is_file()), None)


def _evaluate_legacy(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """The released comparison, file by file: every variable whose file was written is compared, whatever
    happened to the others (:func:`_legacy_verdict`). Against released arrays (``meta.layout: upstream``, the
    config's ``references``) the variables are the arrays', compared as they are, statistics cases included."""
    released = reference.meta.get("layout") == LAYOUT
    if _scoring(case)["kind"] == "statistics" and not released:
        return _evaluate_legacy_statistics(case, run_dir, reference)
    errors: dict[str, float] = {}
    absent: list[str] = []
    unreadable: dict[str, str] = {}
    for name in reference.fields if released else _variables(case):
        path = _legacy_file(case, run_dir, name)
        if path is None:
            absent.append(name)
            continue
        try:
            sample = np.real(np.load(path, allow_pickle=False))
            target = reference.fields[name] if released else upstream_layout(case, reference.fields[name])
            errors[name] = metric.legacy_nmse(target, sample)
        except (OSError, ValueError) as exc:
            unreadable[name] = f"{path.name}: {exc}"
    return _legacy_verdict(case, errors, absent, unreadable)


def _legacy_verdict(case: Case, errors: dict[str, float], absent: list[str], unreadable: dict[str, str]) -> Measurement:
    """The released rule for a problem with several variables: each file is scored on its own (one NMSE line per
    ``<var>_<case>.npy``), and a variable with no file, or a file that cannot be compared, has no NMSE and
    scores 0, so the problem cannot score 1. Every compared variable reports ``nmse_<var>`` and
    ``score_<var>``; a missing one ``score_<var> = 0``. Verdict: missing (F-Missing) when a file was not written,
    else format (F-Format) when one could not be compared, else as :func:`_verdict`."""
    if not absent and not unreadable:
        return _verdict(case, errors)
    metrics = {f"nmse_{name}": value for name, value in errors.items()}
    metrics |= {f"score_{name}": _score(case, value) for name, value in errors.items()}
    metrics |= {f"score_{name}": 0.0 for name in [*absent, *unreadable]}
    metrics["score"] = 0.0
    compared = f" (compared: {', '.join(errors)})" if errors else ""
    if absent:
        files = ", ".join(f"{name}_{case.id}.npy" for name in absent)
        return Measurement(outcome="missing", message=f"not written: {files}{compared}", metrics=metrics)
    return Measurement(outcome="format", message="; ".join(unreadable.values()) + compared, metrics=metrics)


def _evaluate_legacy_statistics(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Statistics of a snapshot need every field: resampled by index to the reference's shape, all or nothing."""
    resampled = {}
    for name in _variables(case):
        path = _legacy_file(case, run_dir, name)
        if path is None:
            return Measurement(outcome="missing", message=f"{name}_{case.id}.npy (or {name}.npy) was not written")
        try:
            sample = np.real(np.load(path, allow_pickle=False))
            resampled[name] = metric.legacy_resample(sample, reference.fields[name].shape)
        except (OSError, ValueError) as exc:
            return Measurement(outcome="format", message=f"{path.name}: {exc}")
    return _statistics_verdict(case, resampled, reference)


def _score(case: Case, value: float) -> float:
    """A variable's score bin: with the suite's ``strict_bins`` (the legacy variant) the released code's, from
    the NMSE rounded as its log prints it; else the paper's ``<=``."""
    if case.suite.data.get("scoring", {}).get("strict_bins", False):
        return metric.released_score(value)
    return metric.nmse_score(value)


def _verdict(case: Case, errors: dict[str, float]) -> Measurement:
    worst = max(errors.values())
    metrics = {f"nmse_{name}": value for name, value in errors.items()}
    metrics |= {f"score_{name}": _score(case, value) for name, value in errors.items()}
    metrics["score"] = _score(case, worst)
    if not np.isfinite(worst):
        return Measurement(outcome="nonfinite", message="an NMSE is not finite", metrics=metrics)
    return Measurement(outcome="ok", error=worst, metrics=metrics)


def convergence_error(case: Case, measurement: Measurement) -> float:
    """The worst NMSE over the case's ``convergence_fields`` (the variables that converge pointwise; all of the
    saved ones when it has none, or under the released rule of ``cfd-code@legacy``): the error the convergence
    check compares."""
    names = _scoring(case).get("convergence_fields")
    if not names or case.suite.data["convergence"].get("released", False):
        assert measurement.error is not None
        return measurement.error
    return max(float(measurement.metrics[f"nmse_{name}"]) for name in names)


def measure(case: Case, run_dir: Path, reference: Reference, mode: str | None = None) -> Measurement:
    """Read the run's outputs under ``run_dir`` and measure the worst per-variable NMSE against ``reference``.

    ``mode`` is ``coords`` or ``legacy``; by default the suite's ``scoring.mode`` (set by the ``legacy``
    variant), else the case's ``hidden.scoring.mode``, else ``coords``.
    """
    mode = mode or comparison_mode(case)
    if mode == "coords":
        return _evaluate_coords(case, Path(run_dir), reference)
    if mode == "legacy":
        return _evaluate_legacy(case, Path(run_dir), reference)
    raise ValueError(f"{case.key}: unknown comparison mode '{mode}' (coords or legacy)")


def plot_comparison(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """Draw, per variable, the sample (on the reference grid), the reference and their difference to ``png``.

    2-D fields are images side by side, 1-D fields curves. Returns False, drawing nothing, when the outputs
    cannot be read or put on the reference grid, or are scalars.
    """
    if not _scoring(case)["axes"]:
        return False
    try:
        fields = _merged(load_outputs(case.visible.contract, Path(run_dir)))
        sampled = on_reference_grid(case, fields, reference)
    except (ContractViolation, metric.GridError):
        return False
    if _scoring(case)["kind"] == "statistics":
        _plot_statistics(case, sampled, reference, png)
        return True

    axes_names = list(_scoring(case)["axes"])
    coords = [reference.fields[name] for name in axes_names]
    figure, rows = figure_grid(len(sampled), 3, 14, 3.8)
    for row, (name, sample) in zip(rows, sampled.items(), strict=True):
        truth = reference.fields[name]
        panels = (
            (sample, f"sample {name}"),
            (truth, f"reference {name}"),
            (sample - truth, f"{name}: sample - reference"),
        )
        for axis, (data, title) in zip(row, panels, strict=True):
            if data.ndim == 2:
                extent = [coords[1][0], coords[1][-1], coords[0][0], coords[0][-1]]
                image = axis.imshow(
                    data, origin="lower", extent=extent, aspect="auto", cmap="RdBu_r" if "-" in title else "viridis"
                )
                figure.colorbar(image, ax=axis)
                axis.set_xlabel(axes_names[1])
                axis.set_ylabel(axes_names[0])
            else:
                axis.plot(coords[0], data, color="C3" if "-" in title else "C0")
                axis.set_xlabel(axes_names[0])
                axis.grid(alpha=0.3)
            axis.set_title(title)
    save_figure(figure, png, f"{case.key}: {case.title}")
    return True


def _plot_statistics(case: Case, sampled: Fields, reference: Reference, png: Path) -> None:
    """The sample's statistics among the reference ensemble's: the mean buoyancy profile, and wall Nu by u_rms."""
    z = reference.fields["z"]
    stats, _ = convection_statistics.against_reference(sampled, reference)
    figure, rows = figure_grid(1, 2, 11, 4.2)
    profile, numbers = rows[0]
    for member in reference.fields["theta_mean_members"]:
        profile.plot(member, z, color="0.7", lw=0.8)
    profile.plot(reference.fields["theta_mean"], z, color="k", label="ensemble mean")
    profile.plot(stats["theta_mean"], z, color="C3", label="sample")
    profile.set_xlabel("mean_x(b) - (Lz - z)")
    profile.set_ylabel("z")
    profile.legend()
    numbers.scatter(
        reference.fields["nusselt_wall_members"], reference.fields["u_rms_members"], color="0.5", label="reference runs"
    )
    numbers.scatter([stats["nusselt_wall"]], [stats["u_rms"]], color="C3", label="sample")
    numbers.set_xlabel("Nusselt number at the walls")
    numbers.set_ylabel("u_rms")
    numbers.legend()
    for axis in (profile, numbers):
        axis.grid(alpha=0.3)
    save_figure(figure, png, f"{case.key}: {case.title} (statistics)")
