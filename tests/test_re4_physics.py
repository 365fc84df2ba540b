"""Re^4 suite: metrics, exact references against upstream data and independent checks, oracles, scorer."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcodebench.core.cases import Case, get_case
from simcodebench.core.references import load_reference, save_reference
from simcodebench.suites.re4 import keyhole, metrics, scorer
from simcodebench.suites.re4.burgers import burgers_cole_hopf
from simcodebench.suites.re4.sod import sod_exact, star_state

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream" / "re4"
NU = 0.01 / np.pi
# Each oracle's error must stay below: the fixed Re^4 limits (Hilbert, keyhole) and, for the PDEs, a bound
# a little above the measured oracle error (Sod u: 3.2e-2 with 800 cells; Burgers u: 4.1e-3).
ORACLE_LIMITS = {"hilbert": 1e-2, "keyhole": 1e-3, "sod": 4e-2, "burgers": 6e-3}


def upstream(name: str) -> Path:
    path = UPSTREAM / name
    if not path.is_file():
        pytest.skip(f"upstream data absent: {path}")
    return path


def case(case_id: str) -> Case:
    return get_case("re4", case_id, root=REPO / "cases")


# --- metrics --------------------------------------------------------------------------------------


def test_relative_l2_and_linf_by_hand() -> None:
    # ||[1, 2] - [1, 1]|| / ||[1, 1]|| = 1 / sqrt(2)
    assert metrics.relative_l2([1.0, 2.0], [1.0, 1.0]) == pytest.approx(1.0 / np.sqrt(2.0), rel=1e-15)
    assert metrics.relative_l2([3.0, 4.0], [3.0, 4.0]) == 0.0
    assert metrics.linf([1.0, 2.0, 0.5], [1.0, 1.0, 1.0]) == 1.0
    with pytest.raises(ValueError, match="zero"):
        metrics.relative_l2([1.0], [0.0])


def test_relative_l2_at_sample_by_hand() -> None:
    # Reference 2, 0, 2 at x = 0, 2, 4, so 2, 1, 1, 2 at the sample's points 0, 1, 3, 4 (linear interpolation).
    # The point x = -0.5 lies outside the reference's domain and is dropped, its value never read. Trapezoidal
    # weights of the grid 0, 1, 3, 4: 0.5, 1.5, 1.5, 0.5; so ||u||^2 = 0.5*4 + 1.5*1 + 1.5*1 + 0.5*4 = 7.
    x_ref, y_ref = [0.0, 2.0, 4.0], [2.0, 0.0, 2.0]
    x = [-0.5, 0.0, 1.0, 3.0, 4.0]
    exact = [100.0, 2.0, 1.0, 1.0, 2.0]
    assert metrics.relative_l2_at_sample(x, exact, x_ref, y_ref) == 0.0
    # off by 1 at x = 1 (weight 1.5): sqrt(1.5 / 7); equal weights would give sqrt(1 / 10)
    assert metrics.relative_l2_at_sample(x, [100.0, 2.0, 2.0, 1.0, 2.0], x_ref, y_ref) == pytest.approx(
        np.sqrt(3.0 / 14.0), rel=1e-14
    )
    # off by 1 at the end x = 4 (weight 0.5) and by -2 at x = 3 (weight 1.5): sqrt((0.5 + 6) / 7)
    assert metrics.relative_l2_at_sample(x, [100.0, 2.0, 1.0, -1.0, 3.0], x_ref, y_ref) == pytest.approx(
        np.sqrt(6.5 / 7.0), rel=1e-14
    )
    with pytest.raises(ValueError, match="zero"):
        metrics.relative_l2_at_sample(x, exact, x_ref, [0.0, 0.0, 0.0])


def test_interpolate_to_accepts_nodes_and_cell_centres() -> None:
    assert np.allclose(
        metrics.interpolate_to([0.0, 1.0, 2.0], [0.0, 10.0, 20.0], [0.0, 0.5, 1.5, 2.0]),
        [0.0, 5.0, 15.0, 20.0],
    )
    centres = (np.arange(10) + 0.5) / 10
    values = metrics.interpolate_to(centres, 2.0 * centres, np.linspace(0.0, 1.0, 5))
    assert values[0] == pytest.approx(0.1) and values[-1] == pytest.approx(1.9)  # held constant past the ends


@pytest.mark.parametrize(
    ("x", "y", "reason"),
    [
        ([0.0, 0.5, 0.5, 1.0], [0.0, 1.0, 2.0, 3.0], "strictly increasing"),
        ([1.0, 0.5, 0.0], [0.0, 1.0, 2.0], "strictly increasing"),
        ([0.0, 0.1, 0.2], [0.0, 1.0, 2.0], "cover"),
        ([0.0, 1.0], [0.0, 1.0, 2.0], "do not match"),
        ([0.5], [1.0], "do not match|at least 2"),
    ],
)
def test_interpolate_to_rejects_bad_grids(x: list[float], y: list[float], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        metrics.interpolate_to(x, y, np.linspace(0.0, 1.0, 11))


# --- Sod ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "p_star", "u_star"),
    [
        ((1.0, 0.0, 1.0), (0.125, 0.0, 0.1), 0.30313, 0.92745),  # Toro Table 4.3, tests 1-5
        ((1.0, -2.0, 0.4), (1.0, 2.0, 0.4), 0.00189, 0.0),
        ((1.0, 0.0, 1000.0), (1.0, 0.0, 0.01), 460.894, 19.5975),
        ((1.0, 0.0, 0.01), (1.0, 0.0, 100.0), 46.0950, -6.19633),
        ((5.99924, 19.5975, 460.894), (5.99242, -6.19633, 46.0950), 1691.64, 8.68975),
    ],
)
def test_star_state_matches_toro(left: tuple, right: tuple, p_star: float, u_star: float) -> None:
    p, u = star_state(left, right)
    assert p == pytest.approx(p_star, rel=1e-4, abs=1e-5)
    assert u == pytest.approx(u_star, rel=1e-4, abs=1e-5)


def test_sod_exact_matches_upstream_csv() -> None:
    data = np.genfromtxt(upstream("reference_sod_t0.2.csv"), delimiter=",", names=True)
    rho, u, p = sod_exact(data["x"] + 0.5, 0.2)  # upstream: x in [-0.5, 0.5], diaphragm at 0
    # The file prints 6 significant digits (rounding <= 5e-7 for values below 1); measured max |diff| 5.0e-7.
    for name, ours in (("rho", rho), ("u", u), ("p", p)):
        assert np.max(np.abs(ours - data[name])) < 1e-6, name


def test_sod_exact_mirror_symmetry_and_initial_data() -> None:
    x = np.linspace(0.0, 1.0, 401)
    rho, u, p = sod_exact(x, 0.15)
    rho_m, u_m, p_m = sod_exact(1.0 - x, 0.15, left=(0.125, 0.0, 0.1), right=(1.0, 0.0, 1.0))
    assert np.allclose(rho, rho_m) and np.allclose(u, -u_m) and np.allclose(p, p_m)
    rho0, u0, p0 = sod_exact(x, 0.0)
    assert np.array_equal(rho0, np.where(x <= 0.5, 1.0, 0.125)) and not np.any(u0)
    assert np.array_equal(p0, np.where(x <= 0.5, 1.0, 0.1))


# --- Burgers --------------------------------------------------------------------------------------


def test_burgers_initial_condition_and_boundaries() -> None:
    x = np.linspace(-1.0, 1.0, 101)
    assert np.array_equal(burgers_cole_hopf(x, 0.0, NU), -np.sin(np.pi * x))
    assert np.allclose(burgers_cole_hopf(np.array([-1.0, 1.0]), 1.0, NU), 0.0, atol=1e-12)


def test_burgers_steepest_slope_matches_basdevant() -> None:
    # Basdevant et al. (1986): max |u_x| = 152.00516 at x = 0, t = 1.6037 / pi, for nu = 0.01 / pi.
    h, t = 1e-7, 1.6037 / np.pi
    u_right, u_left = burgers_cole_hopf(np.array([h, -h]), t, NU)
    slope = (u_right - u_left) / (2.0 * h)
    assert slope == pytest.approx(-152.00516, rel=1e-6)


def _explicit_burgers(nodes: int, t_end: float) -> tuple[np.ndarray, np.ndarray]:
    """Central differences and SSP-RK3 in time, dt well inside the diffusive limit: an independent solver."""
    x = np.linspace(-1.0, 1.0, nodes)
    dx = x[1] - x[0]
    steps = int(np.ceil(t_end / (0.2 * dx**2 / NU)))
    dt = t_end / steps

    def rhs(u: np.ndarray) -> np.ndarray:
        out = np.zeros_like(u)
        out[1:-1] = -u[1:-1] * (u[2:] - u[:-2]) / (2 * dx) + NU * (u[2:] - 2 * u[1:-1] + u[:-2]) / dx**2
        return out

    u = -np.sin(np.pi * x)
    u[[0, -1]] = 0.0
    for _ in range(steps):
        u1 = u + dt * rhs(u)
        u2 = 0.75 * u + 0.25 * (u1 + dt * rhs(u1))
        u = u / 3.0 + 2.0 / 3.0 * (u2 + dt * rhs(u2))
    return x, u


def test_burgers_matches_independent_finite_differences() -> None:
    # Before the shock forms (t = 1/pi) the solution is smooth and second-order differences converge: measured
    # relative L2 1.45e-5 on 801 nodes, 3.6e-6 on 1601 (ratio 4.0). The bound 3e-5 on 801 nodes checks the
    # quadrature against a solver that shares nothing with it.
    x, u = _explicit_burgers(801, 0.25)
    assert metrics.relative_l2(u, burgers_cole_hopf(x, 0.25, NU)) < 3e-5


@pytest.mark.parametrize(
    ("column", "t", "tolerance"), [(0, 0.0, 1e-5), (1, 0.1, 5e-3), (5, 0.5, 2e-2), (10, 1.0, 2e-2)]
)
def test_burgers_matches_upstream_comsol(column: int, t: float, tolerance: float) -> None:
    # COMSOL (101 output nodes) is the less accurate side: our solution matches Basdevant's slope to 9 digits,
    # whereas COMSOL departs from it by 1.4-1.5e-2 at t >= 0.5 even away from the shock (|x| > 0.05).
    # Measured relative L2: 3.1e-6 (t=0), 1.5e-3 (0.1), 1.5e-2 (0.5), 1.4e-2 (1.0).
    data = np.loadtxt(upstream("reference_burgers1d.dat"), comments="%")
    ours = burgers_cole_hopf(data[:, 0], t, NU)
    assert metrics.relative_l2(ours, data[:, 1 + column]) < tolerance


# --- keyhole --------------------------------------------------------------------------------------


def test_ke_is_dimensionless() -> None:
    assert np.allclose(keyhole.DIMENSIONS @ keyhole.KE_EXPONENTS, 0.0)
    assert np.linalg.matrix_rank(keyhole.DIMENSIONS) == 4  # three independent groups of seven quantities


def test_upstream_ke_column_is_the_formula() -> None:
    import pandas as pd

    data = pd.read_csv(upstream("dataset_keyhole.csv"), encoding="utf-8-sig")
    assert ",".join(data.columns) == keyhole.HEADER and len(data) == 90
    ke = keyhole.keyhole_number(
        data["etaP"], data["Vs"], data["r0"], data["alpha"], data["rho"], data["cp"], data["Tl-T0"]
    )
    # Upstream includes the constant pi (Gan et al. 2021). Its Ke was computed from unrounded properties: the
    # ratio is constant per alloy, within 0.18% of 1 (Ti6Al4V 0.9982, Al6061 0.9992, SS316 0.9998).
    assert np.allclose(ke, data["Ke"], rtol=2e-3, atol=0.0)


def test_generated_dataset_is_deterministic_and_committed() -> None:
    text = keyhole.generate_dataset()
    assert text == keyhole.generate_dataset()
    committed = (REPO / "cases" / "re4" / "keyhole" / "dataset_keyhole.csv").read_bytes()
    assert text.encode("utf-8") == committed
    lines = text.splitlines()
    assert lines[0] == keyhole.HEADER and len(lines) == 91
    rows = np.array([[float(v) for v in line.split(",")[2:]] for line in lines[1:]])
    ke = keyhole.keyhole_number(*(rows[:, i] for i in (0, 1, 2, 3, 4, 5, 8)))
    assert np.allclose(ke, rows[:, 11], rtol=1e-9) and np.allclose(rows[:, 10] / rows[:, 2], rows[:, 12])
    assert {line.split(",")[1] for line in lines[1:]} == {"Ti6Al4V", "Al6061", "SS316"}


def test_parallelism_error_by_hand() -> None:
    k = keyhole.KE_EXPONENTS
    assert keyhole.parallelism_error(k, k) == pytest.approx(0.0, abs=1e-15)
    assert keyhole.parallelism_error(-2.0 * k, k) == pytest.approx(0.0, abs=1e-15)
    # k + eps e with e a unit vector orthogonal to k: sin(angle) = eps / sqrt(|k|^2 + eps^2).
    e = np.zeros(7)
    e[0], e[1] = 0.5, 1.0  # k . e = 0.5 - 0.5 = 0
    e /= np.linalg.norm(e)
    eps = 1e-4
    expected = eps / np.sqrt(k @ k + eps**2)
    assert keyhole.parallelism_error(k + eps * e, k) == pytest.approx(expected, rel=1e-6)
    assert keyhole.parallelism_error(e, k) == pytest.approx(1.0)
    assert keyhole.parallelism_error(np.zeros(7), k) == 1.0


# --- oracles through the scorer -------------------------------------------------------------------


def run_oracle(case_: Case, workdir: Path, dataset: Path | None = None) -> None:
    """Run the case's oracle as the sandbox would (python solution.py in a folder holding only its inputs); its
    wall time is measured by benchmarks/calibration_cv.py (t_base), not here."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(case_.folder / case_.hidden.oracle, workdir / "solution.py")
    for name in case_.visible.inputs:
        shutil.copy(dataset or case_.folder / name, workdir / name)
    done = subprocess.run(
        [sys.executable, "solution.py"], cwd=workdir, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("case_id", ["hilbert", "sod", "burgers", "keyhole"])
def test_oracle_passes_its_case(case_id: str, tmp_path: Path) -> None:
    case_ = case(case_id)
    run_oracle(case_, tmp_path / "run")
    reference = scorer.generate_reference(case_)
    save_reference(reference, tmp_path / "ref.json", tmp_path / "ref.h5")  # it must survive a round trip
    reference = load_reference(tmp_path / "ref.json", tmp_path / "ref.h5")
    evaluation = scorer.measure(case_, tmp_path / "run", reference)
    assert evaluation.outcome == "ok", evaluation.message
    assert evaluation.error < ORACLE_LIMITS[case_id], evaluation.metrics
    drawn = scorer.plot_comparison(case_, tmp_path / "run", reference, tmp_path / "cmp.png")
    assert drawn == (case_.hidden.scoring["kind"] == "field1d")
    assert (tmp_path / "cmp.png").is_file() == drawn


def test_keyhole_oracle_recovers_ke_from_the_real_dataset(tmp_path: Path) -> None:
    case_ = case("keyhole")
    run_oracle(case_, tmp_path, dataset=upstream("dataset_keyhole.csv"))
    evaluation = scorer.measure(case_, tmp_path, scorer.generate_reference(case_))
    assert evaluation.outcome == "ok" and evaluation.error < 1e-3
    assert evaluation.metrics["exponent_eta_P"] == pytest.approx(-2.0)


# --- broken outputs -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sod_setup() -> tuple[Case, object]:
    case_ = case("sod")
    return case_, scorer.generate_reference(case_)


def _write_sod(run_dir: Path, points: int = 201, **overrides: np.ndarray) -> Path:
    x = np.linspace(0.0, 1.0, points)
    fields = dict(zip(("rho", "u", "p"), sod_exact(x, 0.2), strict=True))
    np.savez(run_dir / "solution.npz", **{"x": x, **fields, **overrides})
    return run_dir


def test_evaluate_scores_exact_samples(tmp_path: Path, sod_setup: tuple) -> None:
    case_, reference = sod_setup
    evaluation = scorer.measure(case_, _write_sod(tmp_path, points=2001), reference)
    assert evaluation.outcome == "ok" and evaluation.error < 1e-12
    assert set(evaluation.metrics) == {"rel_l2_u", "rel_l2_rho", "rel_l2_p"}
    # Exact values on a coarser grid are compared at their own points: a shock between two samples costs
    # nothing (interpolating the sample onto the reference grid would have cost 5.7e-2 on 201 points).
    evaluation = scorer.measure(case_, _write_sod(tmp_path, points=201), reference)
    assert evaluation.error < 1e-3


@pytest.mark.parametrize(
    ("broken", "outcome"),
    [
        ("missing file", "missing"),
        ("missing field", "format"),
        ("wrong length", "format"),
        ("nan", "nonfinite"),
        ("decreasing x", "format"),
        ("short domain", "format"),
    ],
)
def test_evaluate_classifies_broken_sod_outputs(tmp_path: Path, sod_setup: tuple, broken: str, outcome: str) -> None:
    case_, reference = sod_setup
    x = np.linspace(0.0, 1.0, 201)
    if broken == "missing field":
        rho, u, _ = sod_exact(x, 0.2)
        np.savez(tmp_path / "solution.npz", x=x, rho=rho, u=u)
    elif broken == "wrong length":
        _write_sod(tmp_path, u=np.zeros(200))
    elif broken == "nan":
        _write_sod(tmp_path, p=np.full(201, np.nan))
    elif broken == "decreasing x":
        _write_sod(tmp_path, x=x[::-1])
    elif broken == "short domain":
        _write_sod(tmp_path, x=0.5 * x)
    evaluation = scorer.measure(case_, tmp_path, reference)
    assert evaluation.outcome == outcome, evaluation.message
    assert evaluation.error is None and evaluation.message
    assert not scorer.plot_comparison(case_, tmp_path, reference, tmp_path / "cmp.png")


def test_evaluate_classifies_broken_hilbert_and_keyhole_outputs(tmp_path: Path) -> None:
    hilbert = case("hilbert")
    np.savez(tmp_path / "solution.npz", **{f"x_{n}": np.ones(n) for n in (5, 10, 15, 20)}, x_25=np.ones(24))
    assert scorer.measure(hilbert, tmp_path, scorer.generate_reference(hilbert)).outcome == "format"
    solution = {name: 1.0 for name in keyhole.QUANTITIES}
    del solution["rho"]
    (tmp_path / "solution.json").write_text(json.dumps(solution))
    key = case("keyhole")
    assert scorer.measure(key, tmp_path, scorer.generate_reference(key)).outcome == "format"


def test_hilbert_error_is_the_worst_n(tmp_path: Path) -> None:
    hilbert = case("hilbert")
    fields = {f"x_{n}": np.ones(n) for n in (5, 10, 15, 20, 25)}
    fields["x_15"][3] = 1.25
    np.savez(tmp_path / "solution.npz", **fields)
    evaluation = scorer.measure(hilbert, tmp_path, scorer.generate_reference(hilbert))
    assert evaluation.outcome == "ok" and evaluation.error == pytest.approx(0.25)
    assert evaluation.metrics["linf_n15"] == pytest.approx(0.25) and evaluation.metrics["linf_n5"] == 0.0
