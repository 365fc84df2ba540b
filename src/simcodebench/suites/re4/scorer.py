"""Scorer of the Re^4 suite: references, evaluation of a run's outputs, and comparison plots.

Reference generators (``hidden.reference.generator``): ``hilbert`` (x* = 1, or ``params.solution``),
``sod_exact`` (exact Riemann solution; Sod's states unless ``params.left`` / ``right``), ``burgers_cole_hopf``
(Cole-Hopf integral), ``keyhole_group`` (the keyhole number's exponents) and ``dolfinx_plane`` (DOLFINx solves
of the 2-D PDEs, :mod:`.plane_reference`). Scoring kinds (``hidden.scoring.kind``): ``hilbert`` (largest
L-infinity error over n), ``field1d`` (relative L2 error of the primary field at the sample's points),
``field2d`` (relative L2 error at the reference's points, the sample interpolated there, :mod:`.plane`) and
``keyhole`` (sine of the angle to Ke's exponents).
Under ``scoring.mode: paper`` (the ``re4@paper`` variant) a run is judged by Re^4's execution success instead
(:mod:`simcodebench.suites.re4.paper`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.contract import ContractViolation, load_outputs
from simcodebench.core.figures import figure_grid, save_figure
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference
from simcodebench.suites.re4 import keyhole, metrics, paper, plane
from simcodebench.suites.re4.burgers import burgers_cole_hopf
from simcodebench.suites.re4.plane_reference import plane_reference
from simcodebench.suites.re4.sod import sod_exact

Fields = dict[str, np.ndarray]


HILBERT_SOLUTIONS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "ones": lambda i, n: np.ones(i.size),
    "alternating": lambda i, n: (-1.0) ** (i + 1),
    "ramp": lambda i, n: i / n,
}
"""The exact solutions x* of the Hilbert systems (b = H_n x*), by name, as functions of the 1-based index i."""


def _hilbert_reference(case: Case) -> Reference:
    params = case.hidden.reference["params"]
    sizes = [int(n) for n in params["sizes"]]
    name = params.get("solution", "ones")
    exact = HILBERT_SOLUTIONS[name]
    return Reference(
        scalars={"sizes": sizes},
        fields={f"x_{n}": exact(np.arange(1, n + 1, dtype=float), n) for n in sizes},
        meta={"method": f"exact: H_n x = H_n x* has the solution x* ({name})", "params": dict(params)},
    )


def _domain_grid(case: Case, points: int) -> np.ndarray:
    lo, hi = case.hidden.scoring["domain"]
    return np.linspace(float(lo), float(hi), int(points))


def _sod_reference(case: Case) -> Reference:
    params = case.hidden.reference["params"]
    x = _domain_grid(case, params["points"])
    states = {side: tuple(float(v) for v in params[side]) for side in ("left", "right") if side in params}
    rho, u, p = sod_exact(x, float(params["t"]), float(params["gamma"]), float(params["x0"]), **states)
    return Reference(
        fields={"x": x, "rho": rho, "u": u, "p": p},
        meta={"method": "exact Riemann solver (Toro ch. 4), Newton iteration for p*", "params": dict(params)},
    )


def _burgers_reference(case: Case) -> Reference:
    params = case.hidden.reference["params"]
    x = _domain_grid(case, params["points"])
    nu = float(params["nu_times_pi"]) / np.pi
    return Reference(
        fields={"x": x, "u": burgers_cole_hopf(x, float(params["t"]), nu)},
        meta={
            "method": "Cole-Hopf integral, Gauss-Hermite quadrature (300 nodes)",
            "params": {**params, "nu": nu},
        },
    )


def _keyhole_reference(case: Case) -> Reference:
    exponents = keyhole.KE_EXPONENTS / keyhole.KE_EXPONENTS[keyhole.QUANTITIES.index("V_s")]
    return Reference(
        scalars={"exponents": dict(zip(keyhole.QUANTITIES, exponents.tolist(), strict=True))},
        meta={"method": "Ke = eta P / ((T_l - T_0) rho C_p sqrt(alpha V_s r_0^3)), normalised by V_s"},
    )


GENERATORS: dict[str, Callable[[Case], Reference]] = {
    "hilbert": _hilbert_reference,
    "sod_exact": _sod_reference,
    "burgers_cole_hopf": _burgers_reference,
    "keyhole_group": _keyhole_reference,
    "dolfinx_plane": plane_reference,
}


def generate_reference(case: Case) -> Reference:
    """The case's reference, made by the generator that ``case.hidden.reference`` names."""
    name = case.hidden.reference["generator"]
    try:
        return GENERATORS[name](case)
    except KeyError:
        known = sorted(GENERATORS)
        raise KeyError(f"{case.key}: no re4 reference generator '{name}'; known: {known}") from None


def _merged(outputs: dict[str, Fields]) -> Fields:
    return {name: array for arrays in outputs.values() for name, array in arrays.items()}


def _evaluate_hilbert(case: Case, fields: Fields, reference: Reference) -> Measurement:
    errors = {
        f"linf_n{n}": metrics.linf(fields[f"x_{n}"], reference.fields[f"x_{n}"]) for n in case.hidden.scoring["sizes"]
    }
    return Measurement(outcome="ok", error=max(errors.values()), metrics=errors)


def _scored_fields(case: Case) -> list[str]:
    scoring = case.hidden.scoring
    return [scoring["primary"], *scoring.get("diagnostics", [])]


def _evaluate_field1d(case: Case, fields: Fields, reference: Reference) -> Measurement:
    x_ref = reference.fields["x"]
    try:
        errors = {
            f"rel_l2_{name}": metrics.relative_l2_at_sample(fields["x"], fields[name], x_ref, reference.fields[name])
            for name in _scored_fields(case)
        }
    except ValueError as exc:
        return Measurement(outcome="format", message=f"x: {exc}")
    return Measurement(outcome="ok", error=errors[f"rel_l2_{case.hidden.scoring['primary']}"], metrics=errors)


def _on_reference_points(case: Case, fields: Fields, reference: Reference) -> Fields:
    """The sample's fields (those of the contract besides x and y) at the reference's points."""
    names = [name for name in case.visible.contract["files"][0]["fields"] if name not in ("x", "y")]
    points, values = plane.flatten_sample(fields, names)
    scoring = case.hidden.scoring
    domain = plane.Domain.from_params(case.hidden.reference["params"])
    targets = np.column_stack([reference.fields["x"], reference.fields["y"]])
    moved = plane.to_reference_points(
        points, values, targets, domain, float(scoring["tolerance"]), float(scoring["reach"])
    )
    if "speed" in _scored_fields(case):
        moved["speed"] = plane.speed(moved["u"], moved["v"])
    return moved


def _evaluate_field2d(case: Case, fields: Fields, reference: Reference) -> Measurement:
    try:
        moved = _on_reference_points(case, fields, reference)
    except ValueError as exc:
        return Measurement(outcome="format", message=str(exc))
    errors = {
        f"rel_l2_{name}": metrics.relative_l2(moved[name], reference.fields[name]) for name in _scored_fields(case)
    }
    return Measurement(outcome="ok", error=errors[f"rel_l2_{case.hidden.scoring['primary']}"], metrics=errors)


def _evaluate_keyhole(case: Case, fields: Fields, reference: Reference) -> Measurement:
    vector = np.array([float(fields[name]) for name in keyhole.QUANTITIES])
    expected = np.array([reference.scalars["exponents"][name] for name in keyhole.QUANTITIES])
    v_s = vector[keyhole.QUANTITIES.index("V_s")]
    # Normalised by V_s where its exponent is not (relatively) zero, as given otherwise.
    shown = vector / v_s if abs(v_s) > 1e-9 * np.abs(vector).max() else vector
    found = {f"exponent_{name}": float(value) for name, value in zip(keyhole.QUANTITIES, shown, strict=True)}
    return Measurement(outcome="ok", error=keyhole.parallelism_error(vector, expected), metrics=found)


EVALUATORS: dict[str, Callable[[Case, Fields, Reference], Measurement]] = {
    "hilbert": _evaluate_hilbert,
    "field1d": _evaluate_field1d,
    "field2d": _evaluate_field2d,
    "keyhole": _evaluate_keyhole,
}


def _evaluate_paper(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Re^4's execution success: ``nonfinite`` when the run printed or saved a NaN or infinity, else ``ok``.
    The error is measured only when the script happens to write our contract's files (the paper's prompts do
    not ask for them); it never gates (the variant has no accuracy threshold)."""
    findings = paper.nonfinite_findings(case, run_dir)
    if findings:
        shown = "; ".join(str(f) for f in findings[:3])
        return Measurement(outcome="nonfinite", message=f"printed or saved a NaN or infinity: {shown}")
    try:
        outputs = load_outputs(case.visible.contract, Path(run_dir))
    except ContractViolation as violation:
        return Measurement(outcome="ok", message=f"executed; error not measured ({violation})")
    measured = EVALUATORS[case.hidden.scoring["kind"]](case, _merged(outputs), reference)
    if measured.outcome != "ok":
        return Measurement(outcome="ok", message=f"executed; error not measured ({measured.message})")
    return Measurement(outcome="ok", error=measured.error, metrics=measured.metrics)


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Read the run's outputs under ``run_dir`` and measure their error against ``reference`` (under
    ``scoring.mode: paper``, judge Re^4's execution success instead)."""
    kind = case.hidden.scoring["kind"]
    if kind not in EVALUATORS:
        raise KeyError(f"{case.key}: no re4 scoring kind '{kind}'; known: {sorted(EVALUATORS)}")
    if case.suite.data.get("scoring", {}).get("mode") == "paper":
        return _evaluate_paper(case, Path(run_dir), reference)
    try:
        outputs = load_outputs(case.visible.contract, Path(run_dir))
    except ContractViolation as violation:
        return violation.as_evaluation()
    return EVALUATORS[kind](case, _merged(outputs), reference)


def plot_comparison(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """For ``field1d`` and ``field2d`` cases, draw sample, reference and difference side by side (a row per field)
    to ``png``.

    Returns False, drawing nothing, for other kinds or when the outputs cannot be put on the reference grid.
    """
    if case.hidden.scoring["kind"] == "field2d":
        return _plot_field2d(case, run_dir, reference, png)
    if case.hidden.scoring["kind"] != "field1d":
        return False
    try:
        fields = _merged(load_outputs(case.visible.contract, Path(run_dir)))
        x_ref = reference.fields["x"]
        for name in _scored_fields(case):
            metrics.check_grid(fields["x"], fields[name], float(x_ref.min()), float(x_ref.max()))
    except (ContractViolation, ValueError):
        return False
    sampled = {
        name: fields[name] - np.interp(fields["x"], x_ref, reference.fields[name]) for name in _scored_fields(case)
    }

    figure, axes = figure_grid(len(sampled), 3, 13, 3.2)
    for row, (name, difference) in zip(axes, sampled.items(), strict=True):
        row[0].plot(fields["x"], fields[name], color="C0")
        row[0].set_title(f"sample {name}")
        row[1].plot(x_ref, reference.fields[name], color="k", label="reference")
        row[1].plot(fields["x"], fields[name], color="C0", linestyle="--", label="sample")
        row[1].set_title(f"{name}: sample over reference")
        row[1].legend(loc="best", fontsize="small")
        row[2].plot(fields["x"], difference, color="C3")
        row[2].set_title(f"{name}: sample - reference")
        for axis in row:
            axis.set_xlabel("x")
            axis.grid(alpha=0.3)
    save_figure(figure, png, f"{case.key}: {case.title}", dpi=100)
    return True


def _plot_field2d(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """The 2-D cases' figure: the sample as the scorer sees it (interpolated onto the reference's points), the
    reference and their difference, on the reference's points triangulated with the holes left out."""
    try:
        moved = _on_reference_points(case, _merged(load_outputs(case.visible.contract, Path(run_dir))), reference)
    except (ContractViolation, KeyError, ValueError):
        return False
    x, y = reference.fields["x"], reference.fields["y"]
    mesh = plane.triangulation(x, y, plane.Domain.from_params(case.hidden.reference["params"]))
    names = _scored_fields(case)
    figure, axes = figure_grid(len(names), 3, 15, 4.2)
    for row, name in zip(axes, names, strict=True):
        panels = (
            (moved[name], f"sample {name}", "viridis"),
            (reference.fields[name], f"reference {name}", "viridis"),
            (moved[name] - reference.fields[name], f"{name}: sample - reference", "RdBu_r"),
        )
        low, high = float(np.min(reference.fields[name])), float(np.max(reference.fields[name]))
        for axis, (values, title, colours) in zip(row, panels, strict=True):
            limits = {"vmin": low, "vmax": high} if colours == "viridis" else {}
            if colours == "RdBu_r":
                extent = float(np.max(np.abs(values))) or 1.0
                limits = {"vmin": -extent, "vmax": extent}
            shown = axis.tripcolor(mesh, values, shading="gouraud", cmap=colours, **limits)
            figure.colorbar(shown, ax=axis)
            axis.set_title(title)
            axis.set_aspect("equal")
            axis.set_xlabel("x")
            axis.set_ylabel("y")
    save_figure(figure, png, f"{case.key}: {case.title}", dpi=90)
    return True
