"""Re^4's 2-D PDE cases: the scorer's plane geometry and interpolation by hand, the DOLFINx references against the
upstream COMSOL exports, a symmetry and their refinement studies, the oracles, and the output mutants."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.interpolate import CloughTocher2DInterpolator

from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.agents.backends.oracle import oracle_artifact
from simcodebench.core.cases import Case, get_case
from simcodebench.core.references import Reference, load_reference, save_reference
from simcodebench.suites.re4 import plane, scorer

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream" / "re4"
CASES = ("poisson_holes", "helmholtz_holes", "lid_driven", "unsteady_ns")
# A little above each oracle's measured error (poisson 7.9e-4, helmholtz 6.2e-4, lid speed 1.6e-3, channel u 7.5e-3).
ORACLE_LIMITS = {"poisson_holes": 1.5e-3, "helmholtz_holes": 1.5e-3, "lid_driven": 3e-3, "unsteady_ns": 1.5e-2}
# COMSOL against ours at its nodes, ours interpolated (README: measured 3.9e-5, 1.5e-4 and 7.6e-4 for the speed).
COMSOL = {
    "poisson_holes": ("reference_poisson.dat", 1e-4),
    "helmholtz_holes": ("reference_helmholtz.dat", 3e-4),
    "lid_driven": ("reference_lid_driven_a2.dat", 1e-3),
}


def case(case_id: str) -> Case:
    return get_case("re4", case_id, root=REPO / "cases")


@pytest.fixture(scope="session")
def references(dolfinx_env, tmp_path_factory) -> dict[str, Reference]:
    """The four references, made once by the pipeline's generator, through a save/load round trip."""
    folder = tmp_path_factory.mktemp("re4-plane-references")
    made = {}
    for case_id in CASES:
        json_path, h5_path = folder / f"{case_id}.json", folder / f"{case_id}.h5"
        save_reference(scorer.generate_reference(case(case_id)), json_path, h5_path)
        made[case_id] = load_reference(json_path, h5_path)
    return made


# --- geometry and interpolation, by hand ------------------------------------------------------------


def test_outside_distance_and_grid_by_hand() -> None:
    domain = plane.Domain((0.0, 2.0, 0.0, 1.0), ((1.0, 0.5, 0.25),))
    x = np.array([1.0, 3.0, 1.0, 1.0, 2.0])
    y = np.array([0.5, 1.0, 0.75, 0.5 + 0.3, -0.5])
    # disk centre: 0.25 deep; (3, 1): 1 beyond x = 2; on the circle: 0; outside the disk: 0; below: 0.5
    assert np.allclose(domain.outside_distance(x, y), [0.25, 1.0, 0.0, 0.0, 0.5])
    points = domain.grid(5, 3)  # x = 0, 0.5, ..., 2; y = 0, 0.5, 1: only (1, 0.5) lies in the disk
    assert len(points) == 14 and not np.any(np.all(points == [1.0, 0.5], axis=1))


def test_linear_fields_are_moved_exactly_and_outside_points_ignored() -> None:
    domain = plane.Domain((0.0, 1.0, 0.0, 1.0), ((0.5, 0.5, 0.2),))
    rng = np.random.default_rng(1)
    points = np.vstack([rng.random((400, 2)), [[0, 0], [1, 0], [0, 1], [1, 1]], [[0.5, 0.5], [1.5, 0.5]]])
    values = {"u": 2.0 * points[:, 0] - 3.0 * points[:, 1] + 1.0}
    values["u"][-2:] = 1e6  # in the hole and beyond the box: ignored
    targets = domain.grid(21, 21)
    moved = plane.to_reference_points(points, values, targets, domain, tolerance=1e-3, reach=0.2)
    assert np.allclose(moved["u"], 2.0 * targets[:, 0] - 3.0 * targets[:, 1] + 1.0, atol=1e-12)


def test_points_beyond_the_hull_take_the_nearest_value_within_reach() -> None:
    domain = plane.Domain((0.0, 1.0, 0.0, 1.0))
    centres = (np.arange(10) + 0.5) / 10  # cell centres: the box's edge lies outside their hull
    gx, gy = np.meshgrid(centres, centres)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    moved = plane.to_reference_points(points, {"u": points[:, 0]}, np.array([[0.0, 0.5]]), domain, 1e-3, 0.1)
    assert moved["u"][0] == pytest.approx(0.05)
    with pytest.raises(ValueError, match="does not cover"):
        half = points[points[:, 0] < 0.5]
        plane.to_reference_points(half, {"u": half[:, 0]}, np.array([[0.9, 0.5]]), domain, 1e-3, 0.1)


def test_drawing_triangulation_leaves_the_holes_out() -> None:
    domain = plane.Domain((-1.0, 1.0, -1.0, 1.0), ((0.0, 0.0, 0.4),))
    points = domain.grid(41, 41)
    mesh = plane.triangulation(points[:, 0], points[:, 1], domain)
    kept = mesh.triangles[~mesh.mask]
    centroids = points[kept].mean(axis=1)
    assert np.all(domain.outside_distance(centroids[:, 0], centroids[:, 1]) == 0.0)
    assert mesh.mask.any() and len(kept) > 0.8 * len(mesh.triangles)  # the disk is about 13% of the box


def test_flatten_sample_needs_one_shape() -> None:
    grid = np.zeros((3, 4))
    points, values = plane.flatten_sample({"x": grid, "y": grid, "u": grid + 1.0}, ["u"])
    assert points.shape == (12, 2) and values["u"].shape == (12,)
    with pytest.raises(ValueError, match="'u' has shape"):
        plane.flatten_sample({"x": grid, "y": grid, "u": grid[:2]}, ["u"])


# --- references ---------------------------------------------------------------------------------------


def near_a_circle(points: np.ndarray, params: dict, distance: float) -> np.ndarray:
    """Whether each point lies within ``distance`` of one of the case's circles."""
    gaps = [np.hypot(points[:, 0] - cx, points[:, 1] - cy) - r for cx, cy, r in params.get("disks", [])]
    return np.min(gaps, axis=0) < distance if gaps else np.zeros(len(points), dtype=bool)


@pytest.mark.parametrize("case_id", sorted(COMSOL))
def test_reference_matches_upstream_comsol(case_id: str, references: dict[str, Reference]) -> None:
    """At COMSOL's nodes, ours (Clough-Tocher interpolation of the reference's points, leaving out nodes within
    two grid spacings of a circle, where the interpolant's triangles may span a hole) against COMSOL's."""
    name, tolerance = COMSOL[case_id]
    path = UPSTREAM / name
    if not path.is_file():
        pytest.skip(f"upstream data absent: {path}")
    data = np.loadtxt(path, comments="%")
    params, reference = case(case_id).hidden.reference["params"], references[case_id]
    spacing = (params["box"][1] - params["box"][0]) / (params["grid"][0] - 1)
    kept = ~near_a_circle(data[:, :2], params, 2 * spacing)
    at, data = data[kept, :2], data[kept]
    ref_points = np.column_stack([reference.fields["x"], reference.fields["y"]])
    if case_id == "lid_driven":
        ours = plane.speed(*(CloughTocher2DInterpolator(ref_points, reference.fields[n])(at) for n in ("u", "v")))
        theirs = plane.speed(data[:, 2], data[:, 3])
    else:
        ours, theirs = CloughTocher2DInterpolator(ref_points, reference.fields["u"])(at), data[:, 2]
    assert kept.mean() > 0.85 and np.all(np.isfinite(ours))
    difference = np.linalg.norm(ours - theirs) / np.linalg.norm(theirs)
    assert difference < tolerance, difference


def test_poisson_reference_has_the_square_symmetry(references: dict[str, Reference]) -> None:
    """The problem is symmetric in x, in y and in the diagonal; the (unsymmetric) mesh is not."""
    reference = references["poisson_holes"]
    params = case("poisson_holes").hidden.reference["params"]
    nx, ny = params["grid"]
    full = np.full((ny, nx), np.nan)
    i = np.rint((reference.fields["x"] + 0.5) * (nx - 1)).astype(int)
    j = np.rint((reference.fields["y"] + 0.5) * (ny - 1)).astype(int)
    full[j, i] = reference.fields["u"]
    for mirrored in (full[::-1, :], full[:, ::-1], full.T):
        assert np.array_equal(np.isnan(mirrored), np.isnan(full))
        assert np.nanmax(np.abs(mirrored - full)) < 1e-5
    assert np.nanmin(full) >= -1e-9 and np.nanmax(full) <= 1.0 + 1e-9  # the maximum principle


@pytest.mark.parametrize(
    ("case_id", "name", "finest_gap"),
    [
        ("poisson_holes", "u", 2e-5),
        ("helmholtz_holes", "u", 2e-4),
        ("lid_driven", "speed", 5e-4),
        ("unsteady_ns", "u", 1.5e-2),
    ],
)
def test_refinement_converges(case_id: str, name: str, finest_gap: float, references: dict[str, Reference]) -> None:
    """Each refinement at least halves the gap (second order or better) and the last one is small."""
    gaps = references[case_id].scalars["refinement"][name]
    assert gaps["g12"] < 0.5 * gaps["g01"], gaps
    assert gaps["g12"] < finest_gap, gaps
    assert references[case_id].scalars["dropped_points"] < 0.001 * references[case_id].scalars["points"]


# --- oracles and mutants -------------------------------------------------------------------------------


def run_python(workdir: Path, source: str) -> None:
    (workdir / "solution.py").write_text(source)
    done = subprocess.run(
        [sys.executable, "solution.py"], cwd=workdir, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("case_id", CASES)
def test_oracle_passes_and_output_mutants_land(case_id: str, tmp_path: Path, references: dict[str, Reference]) -> None:
    """The oracle's error is small; its output, broken as the suite's mutants break it, lands in their classes."""
    case_, reference = case(case_id), references[case_id]
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    run_python(oracle, oracle_artifact(case_))
    evaluation = scorer.measure(case_, oracle, reference)
    assert evaluation.outcome == "ok", evaluation.message
    assert evaluation.error < ORACLE_LIMITS[case_id], evaluation.metrics
    figure = tmp_path / "comparison.png"
    assert scorer.plot_comparison(case_, oracle, reference, figure) and figure.stat().st_size > 10_000
    tau = max(3.0 * evaluation.error, 1e-3)
    expected = {"nan": "nonfinite", "wrong-shape": "format", "wrong-answer": "ok"}
    for index, declaration in enumerate(case_.suite.mutants):
        if declaration["name"] not in expected:
            continue
        mutant = build_mutant(case_, index, tau_time=None)
        workdir = tmp_path / declaration["name"]
        shutil.copytree(oracle, workdir)
        run_python(workdir, mutant.source[len(oracle_artifact(case_)) :])  # only the rewrite of the output
        result = scorer.measure(case_, workdir, reference)
        assert result.outcome == expected[declaration["name"]], (declaration["name"], result.message)
        if declaration["name"] == "wrong-shape":  # nothing to draw on the reference's points
            assert not scorer.plot_comparison(case_, workdir, reference, tmp_path / "none.png")
        if declaration["name"] == "wrong-answer":
            assert result.error > tau, result.metrics
