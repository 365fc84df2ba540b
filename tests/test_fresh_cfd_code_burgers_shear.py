"""Fresh 2-D viscous Burgers and shear-flow cases: the drawn numbers reach the oracle and the reference alike,
the oracle's explicit scheme stays stable over the ranges, the spectral levels are compared at the right nodes,
and a reference too coarse for its finer levels is dropped. The full levels (a minute or more per draw) run in
benchmarks/ (benchmarks/results/fresh-variants-cfd-code-burgers-shear.md), never here."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh_edits import number
from simcodebench.suites.cfd_code import fresh
from simcodebench.suites.cfd_code.fresh_checks import fourier_at_nodes
from simcodebench.suites.cfd_code.nmse import nmse
from simcodebench.suites.cfd_code.references import generate

BURGERS, SHEAR = "2D_Burgers_Equation", "2D_Shear_Flow_With_Tracer"


def _run_oracle(source: str, folder: Path, edits: dict[str, str]) -> dict[str, np.ndarray]:
    """Run an oracle's source with some constant lines replaced (``{"T_END = 6.1\\n": "T_END = 1.0\\n"}``)."""
    import subprocess
    import sys

    for old, new in edits.items():
        assert old in source, old
        source = source.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "oracle.py").write_text(source)
    subprocess.run([sys.executable, "oracle.py"], cwd=folder, check=True, timeout=120)
    with np.load(folder / "solution.npz") as data:
        return dict(data)


def _corners(family: str) -> list[dict[str, float]]:
    params = fresh.FAMILIES[family].params
    return [dict(zip(params, v, strict=True)) for v in itertools.product(*((p.lo, p.hi) for p in params.values()))]


def test_burgers_draw_writes_its_box_into_text_oracle_and_reference() -> None:
    draw = fresh.fresh_draw(get_case("cfd-code", BURGERS), np.random.default_rng(11))
    assert draw is not None
    d = draw.params
    x1, y1 = round(d["x0"] + d["wx"], 1), round(d["y0"] + d["wy"], 1)
    problem = draw.case["visible"]["problem"]
    assert rf"u = v = {number(d['height'])} \quad" in problem
    assert rf"{number(d['x0'])} \leq x \leq {number(x1)}, \; {number(d['y0'])} \leq y \leq {number(y1)}" in problem
    assert rf"\nu = {number(d['nu'])} \)" in problem and f"[0, {number(d['t_end'])}]" in problem
    assert "0.027" not in problem and "0.5 \\leq x, y" not in problem
    params = draw.case["hidden"]["reference"]["params"]
    assert params["box_x"] == [d["x0"], x1] and params["box_y"] == [d["y0"], y1] and params["refine"] == 8
    oracle = draw.files["reference_solution.py"]
    for line in (f"X0 = {number(d['x0'])}\n", f"X1 = {number(x1)}\n", f"HEIGHT = {number(d['height'])}\n"):
        assert line in oracle


def _rk3_growth(z: np.ndarray) -> np.ndarray:
    return np.abs(1 + z + z**2 / 2 + z**3 / 6)


@pytest.mark.parametrize("doubled", [False, True])
def test_burgers_oracle_is_stable_and_resolved_at_every_corner(doubled: bool) -> None:
    # central differences on the oracle's grid (161 nodes on [0, 2], NT = 100 steps; the convergence gate's run
    # doubles both): the Fourier symbol of the linearised update at speeds u = v <= height, scaled by dt, must
    # lie in SSP-RK3's stability region for every wavenumber pair; the cell Peclet number stays at most the
    # published one (2 x 0.0125 / 0.01 = 2.5); the box and its shock stay 0.3 or more from the walls
    angles = np.linspace(0.0, np.pi, 65)
    a, b = np.meshgrid(angles, angles)
    for corner in _corners(BURGERS):
        h = 2.0 / (320 if doubled else 160)
        dt = corner["t_end"] / (200 if doubled else 100)
        for speed in (1.0, corner["height"]):
            diffusion = -4 * corner["nu"] * (np.sin(a / 2) ** 2 + np.sin(b / 2) ** 2) / h**2
            z = dt * (diffusion - 1j * speed * (np.sin(a) + np.sin(b)) / h)
            assert np.max(_rk3_growth(z)) <= 1.0 + 1e-12, corner
        assert corner["height"] * 0.0125 / corner["nu"] <= 2.5 + 1e-9, corner
        assert corner["x0"] >= 0.3 and corner["x0"] + corner["wx"] + corner["height"] * corner["t_end"] <= 1.7


def test_burgers_fresh_oracle_solves_the_drawn_problem_and_the_published_one_does_not(tmp_path: Path) -> None:
    published = get_case("cfd-code", BURGERS)
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    # the reference solver at the oracle's resolution (refine 4: 161 nodes) for the drawn numbers; the fresh
    # oracle (the same central differences, its own step) agrees with it far inside the pass mark, the published
    # oracle (nu 0.01, the box of 2 on [0.5, 1]^2, t = 0.027) does not
    reference = generate("viscous_burgers_2d", {**draw.case["hidden"]["reference"]["params"], "refine": 4}).fields
    fresh_run = _run_oracle(draw.files["reference_solution.py"], tmp_path / "fresh", {})
    stale = _run_oracle((published.folder / "reference_solution.py").read_text(), tmp_path / "stale", {})
    assert nmse(reference["u"], fresh_run["u"][::4, ::4]) < 1e-6
    assert nmse(reference["v"], fresh_run["v"][::4, ::4]) < 1e-6
    assert nmse(reference["u"], stale["u"][::4, ::4]) > 1e-3


def test_a_burgers_reference_too_coarse_for_its_finer_levels_is_dropped(tmp_path: Path) -> None:
    # refine 1 against 2 and 4 (sub-second): the box's fronts are not resolved, the levels disagree, the draw is
    # dropped before its oracle runs
    draw = fresh.fresh_draw(get_case("cfd-code", BURGERS), np.random.default_rng(11))
    assert draw is not None
    coarse = copy.deepcopy(draw.case)
    coarse["hidden"]["reference"]["params"]["refine"] = 1
    case = write_case(tmp_path, "cfd-code", "burgers-coarse", coarse, draw.files)
    check = fresh.verify(case, tmp_path / "coarse")
    assert not check.ok and check.detail["reason"] == "the reference's refinement levels disagree", check.detail
    assert check.detail["nmse_level0_vs_level2"] > fresh.FAMILIES[BURGERS].reference_tol


def test_fourier_at_nodes_evaluates_a_trigonometric_polynomial_exactly() -> None:
    # on [0, 1) x [-1, 1): a field with modes up to 5 and 7, sampled on 40 x 80 points and evaluated at the
    # nodes of a 24 x 48 grid (not a subset of the finer one), against the formula there
    def field(nx: int, nz: int) -> np.ndarray:
        x = np.arange(nx) / nx
        z = -1.0 + 2.0 * np.arange(nz) / nz
        xx, zz = np.meshgrid(x, z, indexing="ij")
        return 1.5 + np.sin(2 * np.pi * 5 * xx) * np.cos(np.pi * 7 * zz) + 0.3 * np.cos(2 * np.pi * xx + np.pi * zz)

    np.testing.assert_allclose(fourier_at_nodes(field(40, 80), (24, 48)), field(24, 48), atol=1e-12)
    np.testing.assert_allclose(fourier_at_nodes(field(32, 64), (24, 48)), field(24, 48), atol=1e-12)


def test_shear_draw_and_its_oracle_match_the_reference_solver(tmp_path: Path) -> None:
    published = get_case("cfd-code", SHEAR)
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    d = draw.params
    assert 3000 <= d["reynolds"] <= 10000 and d["t_end"] <= 10
    problem = draw.case["visible"]["problem"]
    assert rf"Re = {number(d['reynolds'])} \)" in problem and rf"Sc = {number(d['schmidt'])} \)" in problem
    assert rf"w(x, z, 0) = {number(d['kick'])} \sin" in problem and rf"t \in [0, {number(d['t_end'])}] \)" in problem
    assert "5 \\times 10^4" not in problem and "[0, 20]" not in problem
    params = draw.case["hidden"]["reference"]["params"]
    assert (params["nx"], params["nz"], params["kick"]) == (96, 192, d["kick"])
    # the oracle and the reference solver are the same method: at the oracle's grid and CFL number, to t = 0.5
    # (a few hundred steps, a second), they agree to round-off, so every drawn number reached both alike
    short = f"T_END = {number(d['t_end'])}\n"
    run = _run_oracle(draw.files["reference_solution.py"], tmp_path / "fresh", {short: "T_END = 0.5\n"})
    same = generate("shear_flow", {**params, "nx": 64, "nz": 128, "cfl": 1.0, "t_end": 0.5}).fields
    for name in "suw":
        assert nmse(same[name], run[name]) < 1e-20, name
    stale = _run_oracle(
        (published.folder / "reference_solution.py").read_text(),
        tmp_path / "stale",
        {"RE, SC, T_END, CFL = 5.0e4, 1.0, 20.0, 1.0": "RE, SC, T_END, CFL = 5.0e4, 1.0, 0.5, 1.0"},
    )
    assert nmse(same["w"], stale["w"]) > 1e-3  # the published kick (0.1) differs from the drawn one


def test_a_shear_reference_too_coarse_for_its_finer_levels_is_dropped(tmp_path: Path) -> None:
    # 16 x 32 points against 21 x 42 and 26 x 52 (a second): the tanh layers are not resolved, the draw is dropped
    draw = fresh.fresh_draw(get_case("cfd-code", SHEAR), np.random.default_rng(11))
    assert draw is not None
    coarse = copy.deepcopy(draw.case)
    coarse["hidden"]["reference"]["params"].update(nx=16, nz=32, t_end=1.0)
    case = write_case(tmp_path, "cfd-code", "shear-coarse", coarse, draw.files)
    check = fresh.verify(case, tmp_path / "coarse")
    assert not check.ok and check.detail["reason"] == "the reference's refinement levels disagree", check.detail
    assert check.detail["nmse_level0_vs_level2"] > fresh.FAMILIES[SHEAR].reference_tol
