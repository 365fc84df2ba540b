"""Fresh cfd-code cases: each family's draw is seeded, in range, changes every published number it names, and
its verification keeps a good case and drops one whose oracle solves another problem."""

from __future__ import annotations

import ast
import copy
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh_edits import number, substitute
from simcodebench.core.project import cases_root
from simcodebench.suites.cfd_code import fresh, fresh_checks, fresh_texts
from simcodebench.suites.cfd_code.references import generate
from simcodebench.suites.re4.sod import sod_exact


def _constants(source: str) -> dict[str, float]:
    """The module-level numeric constants of an oracle (NU = 0.3, T_END = 0.14 * np.pi evaluated)."""
    values = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = float(eval(compile(ast.Expression(node.value), "", "eval"), {"np": np}))
            except (NameError, TypeError):
                continue
    return values


# Which oracle constant carries each drawn parameter (written out here, independently of the generator), with the
# step counts and grids that the published numbers tied (Courant number 1, stability limits) recomputed here.
def _box(steps: int, t_end: float):
    return lambda d: {
        "T_END": d["t_end"],
        "HEIGHT": d["height"],
        "NT": math.ceil(steps * d["t_end"] / t_end * d["height"] / 2 - 1e-9),
    }


ORACLE_CONSTANTS = {
    "1D_Diffusion": lambda d: {"NU": d["nu"], "T_END": d["t_end"]},
    "2D_Diffusion": lambda d: {"NU": d["nu"], "T_END": d["t_end"]},
    "1D_Burgers_Equation": lambda d: {"NU": d["nu"], "T_END": d["t_pi"] * np.pi},
    "1D_Linear_Convection": lambda d: {"C": d["c"], "EPS": d["eps"], "T_END": d["t_end"]},
    # the plate's boundary values are one tuple assignment, not module constants: checked below
    "2D_Steady_Heat_Equation": lambda d: {},
    "2D_Unsteady_Heat_Equation": lambda d: {
        "ALPHA": d["alpha"],
        "Q0": d["q0"],
        "SIGMA": d["sigma"],
        "T_END": d["t_end"],
    },
    # the sources are written into the assignments of b: checked below
    "2D_Poisson_Equation": lambda d: {},
    "2D_Laplace_Equation": lambda d: {"LENGTH": d["length"], "C0": d["c0"], "C1": d["c1"]},
    "Lane_Emden_Equation": lambda d: {"N_INDEX": d["index"]},
    # dx = 2 / 400 = 0.005 divides c t: NT = c t / dx steps at Courant number 1
    "2D_Linear_Convection": lambda d: {
        "C": d["c"],
        "T_END": d["t_end"],
        "NX": 400,
        "NY": 400,
        "NT": round(d["c"] * d["t_end"] / 0.005),
    },
    "2D_Convection": _box(400, 0.32),
    "2D_Inviscid_Burgers": _box(500, 0.40),
    "1D_Nonlinear_Convection": lambda d: {
        "T_END": d["t_end"],
        "A": d["a"],
        "B": d["b"],
        "NT": math.ceil(4000 * d["t_end"] / 5 * (d["a"] + d["b"]) / 1.5 - 1e-9),
    },
    "1D_KdV_Burgers_Equation": lambda d: {
        "A": d["a_e4"] * 1e-4,
        "B": d["b_e4"] * 1e-4,
        "T_END": d["t_end"],
        "NT": round(d["t_end"] / 0.002),
    },
    "1D_Euler_Shock_Tube": lambda d: {"T_END": d["t_end"], "NT": math.ceil(d["t_end"] / 0.25 * 1000 - 1e-9)},
    "2D_Navier_Stokes_Channel": lambda d: {"NU": d["nu"], "F": d["force"], "T_END": d["t_end"]},
    "Fully_Developed_Turbulent_Channel_Flow": lambda d: {"RE_TAU": d["re_tau"], "KAPPA": d["kappa"], "A": d["damping"]},
    # RE, M, K is one tuple assignment: checked below
    "Pipe_Flow_Disk_EVP": lambda d: {},
    # NT stays the published least step count; the oracle's stability limit adds steps where nu needs them
    "Flow_Past_Circular_Cylinder": lambda d: {"NU": d["nu"], "T_END": d["t_end"]},
    # the unit cavity's steps keep the published nu dt / h^2 (1000 steps for nu t = 0.05); [0, 2]^2 adds its own
    "Lid_Driven_Cavity": lambda d: {
        "NU": d["nu"],
        "LID": d["lid"],
        "T_END": d["t_end"],
        "NT": max(1000, math.ceil(d["nu"] * d["t_end"] / 0.05 * 1000 - 1e-9)),
    },
    "2D_Navier_Stokes_Cavity": lambda d: {"NU": d["nu"], "LID": d["lid"], "T_END": d["t_end"]},
    # the box's upper sides are its lower sides plus the drawn widths (one decimal)
    "2D_Burgers_Equation": lambda d: {
        "NU": d["nu"],
        "T_END": d["t_end"],
        "HEIGHT": d["height"],
        "X0": d["x0"],
        "X1": round(d["x0"] + d["wx"], 1),
        "Y0": d["y0"],
        "Y1": round(d["y0"] + d["wy"], 1),
    },
    # the published RE, SC, T_END, CFL is one tuple assignment; the fresh oracle writes one constant a line
    "2D_Shear_Flow_With_Tracer": lambda d: {
        "RE": d["reynolds"],
        "SC": d["schmidt"],
        "T_END": d["t_end"],
        "CFL": 1.0,
        "KICK": d["kick"],
    },
    # the published LX, LZ, RA, PR, T_END is one tuple assignment; the fresh oracle writes RA, PR, T_END a line each
    "2D_Rayleigh_Benard_Convection": lambda d: {"RA": d["rayleigh_e5"] * 1e5, "PR": d["prandtl"], "T_END": 50.0},
}

# The cavity oracles' lid: Thom's wall vorticity and the lid's velocity take the drawn speed.
CAVITY_LID_LINES = [
    "w[-1, :] = -2 * s[-2, :] / h**2 - 2 * LID / h\n",
    "u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0, 0, 0, LID\n",
]

# Lines of the oracle that carry drawn numbers outside module constants.
ORACLE_LINES = {
    "2D_Steady_Heat_Equation": lambda d: [
        f"t[0, :], t[-1, :], t[:, 0], t[:, -1] = {d['bottom']}, {d['top']}, {d['left']}, {d['right']}\n"
    ],
    "2D_Poisson_Equation": lambda d: [
        f"b[{round(d['fy1'] * 49)}, {round(d['fx1'] * 49)}] = {d['q1']}\n",
        f"b[{round(d['fy2'] * 49)}, {round(d['fx2'] * 49)}] = -{d['q2']}\n",
    ],
    "1D_Euler_Shock_Tube": lambda d: [
        f"rho = np.where(x < 0, {d['rho_l']:g}, {d['rho_r']:g})\n",
        f"p = np.where(x < 0, {d['p_l']:g}, {d['p_r']:g})\n",
    ],
    "Pipe_Flow_Disk_EVP": lambda d: [f"RE, M, K = {d['reynolds']}, {int(d['m'])}, {d['k']}\n"],
    "Lid_Driven_Cavity": lambda d: CAVITY_LID_LINES,
    "2D_Navier_Stokes_Cavity": lambda d: CAVITY_LID_LINES,
}


def test_every_family_is_covered_here() -> None:
    assert set(ORACLE_CONSTANTS) == set(fresh.FAMILIES)


def test_every_published_case_has_a_family_or_a_reason() -> None:
    published = {folder.parent.name for folder in (cases_root() / "cfd-code").glob("*/case.yaml")}
    assert not set(fresh.FAMILIES) & set(fresh.WITHOUT)
    assert set(fresh.FAMILIES) | set(fresh.WITHOUT) == published
    assert all(len(reason) > 40 for reason in fresh.WITHOUT.values())


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_a_draw_is_seeded_in_range_and_new(family: str) -> None:
    published = get_case("cfd-code", family)
    one, two = (fresh.fresh_draw(published, np.random.default_rng(11)) for _ in range(2))
    other = fresh.fresh_draw(published, np.random.default_rng(12))
    assert one is not None and two is not None and other is not None
    assert one == two and one.params != other.params
    assert set(one.params) == set(one.ranges)
    assert all(lo <= one.params[name] <= hi for name, (lo, hi) in one.ranges.items())
    assert one.case["visible"]["problem"] != published.visible.problem
    assert "alternative" not in one.case["hidden"]
    oracle = one.files[published.hidden.oracle]
    old, new = _constants((published.folder / published.hidden.oracle).read_text()), _constants(oracle)
    # the resolution is the published one; every drawn parameter is in the oracle's constants, nothing else moved
    expected = ORACLE_CONSTANTS[family](one.params)
    assert {k: v for k, v in new.items() if k not in expected} == {k: v for k, v in old.items() if k not in expected}
    assert {k: new[k] for k in expected} == pytest.approx(expected, rel=1e-12)
    for line in ORACLE_LINES.get(family, lambda d: [])(one.params):
        assert line in oracle
    params = one.case["hidden"]["reference"]["params"]
    for name, value in fresh.FAMILIES[family].reference(one.params).items():
        assert params[name] == value


def test_families_without_a_generator_return_none() -> None:
    for family in fresh.WITHOUT:
        assert fresh.fresh_draw(get_case("cfd-code", family), np.random.default_rng(1)) is None


def test_verification_keeps_a_good_case_and_drops_a_wrong_oracle(tmp_path: Path) -> None:
    published = get_case("cfd-code", "1D_Diffusion")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    case = write_case(tmp_path, "cfd-code", "diffusion-good", draw.case, draw.files)
    check = fresh.verify(case, tmp_path / "good")
    detail = check.detail
    assert check.ok, detail
    assert detail["nmse_level1_vs_level2"] <= fresh.REFERENCE_TOL
    assert detail["oracle_nmse"] <= detail["oracle_limit"]
    # The same case whose oracle still diffuses with the published nu: its answer is off, so it is dropped.
    stale = {"reference_solution.py": (published.folder / "reference_solution.py").read_text()}
    case = write_case(tmp_path, "cfd-code", "diffusion-stale", draw.case, stale)
    check = fresh.verify(case, tmp_path / "stale")
    detail = check.detail
    assert not check.ok and detail["reason"] == "the oracle misses the reference", detail


def _corners(family: str) -> list[dict[str, float]]:
    """Every corner of the family's parameter box."""
    params = fresh.FAMILIES[family].params
    return [
        dict(zip(params, values, strict=True)) for values in itertools.product(*((p.lo, p.hi) for p in params.values()))
    ]


def _corner_oracle(family: str, corner: dict[str, float]) -> dict[str, float]:
    published = get_case("cfd-code", family)
    _, edits = fresh.FAMILIES[family].edits({name: number(value) for name, value in corner.items()})
    source = (published.folder / published.hidden.oracle).read_text()
    return _constants(substitute(source, edits, family))


@pytest.mark.parametrize("family", ["2D_Convection", "2D_Inviscid_Burgers"])
def test_box_steps_keep_upwind_stable_at_every_corner(family: str) -> None:
    # the oracle's own check: HEIGHT dt (1/hx + 1/hy) <= 1 (the same ratio at the doubled resolution)
    for corner in _corners(family):
        c = _corner_oracle(family, corner)
        assert c["HEIGHT"] * c["T_END"] / c["NT"] * 2 * c["NX"] / 2.0 <= 1.0, corner
        assert 1.0 + (1.0 + corner["height"]) / 2.0 * corner["t_end"] <= 1.9, corner  # the shock stays inside


def test_nonlinear_convection_and_shock_tube_steps_keep_the_published_courant_number() -> None:
    for corner in _corners("1D_Nonlinear_Convection"):
        c = _corner_oracle("1D_Nonlinear_Convection", corner)
        # the published run: speeds up to 1.5 (a + b), 4000 steps to t = 5 on 2000 cells
        assert (c["A"] + c["B"]) * c["T_END"] / c["NT"] / (2 * np.pi / c["NX"]) <= 1.5 * 5 / 4000 / (np.pi / 1000)
    for corner in _corners("1D_Euler_Shock_Tube"):
        c = _corner_oracle("1D_Euler_Shock_Tube", corner)
        x = np.linspace(-1.0, 1.0, 4001)
        left, right = (corner["rho_l"], 0.0, corner["p_l"]), (corner["rho_r"], 0.0, corner["p_r"])
        rho, u, p = sod_exact(x, corner["t_end"], gamma=1.4, x0=0.0, left=left, right=right)
        fastest = np.max(np.abs(u) + np.sqrt(1.4 * p / rho))
        assert fastest * c["T_END"] / c["NT"] / (2.0 / c["NX"]) <= 0.35, corner
        assert fresh_checks.shock_tube_regime(corner) is None, corner


def test_linear_convection_moves_the_box_by_whole_cells_inside_the_domain() -> None:
    for corner in _corners("2D_Linear_Convection"):
        c = _corner_oracle("2D_Linear_Convection", corner)
        assert c["NT"] * 2.0 / c["NX"] == pytest.approx(corner["c"] * corner["t_end"], abs=1e-12)
        assert 1.0 + corner["c"] * corner["t_end"] <= 1.9
    with pytest.raises(ValueError, match="not a whole number"):
        fresh_texts.linear_convection_steps({"c": "1.03", "t_end": "0.33"})


def test_a_tube_whose_waves_reach_the_ends_is_outside_the_regime() -> None:
    sod = {"rho_l": 1.0, "p_l": 1.0, "rho_r": 0.125, "p_r": 0.1}
    assert fresh_checks.shock_tube_regime({**sod, "t_end": 0.25}) is None
    assert "reflective ends" in fresh_checks.shock_tube_regime({**sod, "t_end": 0.6})


def test_a_taller_box_follows_its_characteristics() -> None:
    # by hand, on the diagonal y = x (a = 0.5, b = 1) at t = 0.2 with a box of 2.3: the fan spans 0.5 + t to
    # 0.5 + 2.3 t (u = (x - 0.5) / t there), the plateau ends at the shock 1 + (1 + 2.3) / 2 t = 1.33
    solution = generate("box_convection_2d", {"points": 201, "t_end": 0.2, "height": 2.3})
    x, u = solution.coords["x"], solution.fields["u"]
    at = {round(value, 2): i for i, value in enumerate(x)}
    diagonal = {xi: u[at[xi], at[xi]] for xi in (0.6, 0.8, 0.9, 1.0, 1.2, 1.32, 1.34, 1.5)}
    assert diagonal[0.6] == 1.0
    assert diagonal[0.8] == pytest.approx(1.5) and diagonal[0.9] == pytest.approx(2.0)
    assert diagonal[1.0] == diagonal[1.2] == diagonal[1.32] == pytest.approx(2.3)
    assert diagonal[1.34] == diagonal[1.5] == 1.0


def test_a_good_laplace_draw_is_kept_and_a_truncated_reference_dropped(tmp_path: Path) -> None:
    published = get_case("cfd-code", "2D_Laplace_Equation")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    case = write_case(tmp_path, "cfd-code", "laplace-good", draw.case, draw.files)
    check = fresh.verify(case, tmp_path / "good")
    assert check.ok, check.detail
    assert check.detail["oracle_nmse"] <= fresh.ORACLE_TOL
    # the same case with its series cut to 3 terms: the finer levels (6, 12 terms) disagree, the draw is dropped
    cut = copy.deepcopy(draw.case)
    cut["hidden"]["reference"]["params"]["modes"] = 3
    case = write_case(tmp_path, "cfd-code", "laplace-cut", cut, draw.files)
    check = fresh.verify(case, tmp_path / "cut")
    assert not check.ok and check.detail["reason"] == "the reference's refinement levels disagree", check.detail
    assert check.detail["nmse_level0_vs_level2"] > fresh.REFERENCE_TOL


def test_a_lane_emden_oracle_of_the_published_index_is_dropped(tmp_path: Path) -> None:
    published = get_case("cfd-code", "Lane_Emden_Equation")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None and abs(draw.params["index"] - 3.0) > 0.1
    stale = {"reference_solution.py": (published.folder / "reference_solution.py").read_text()}
    case = write_case(tmp_path, "cfd-code", "lane-emden-stale", draw.case, stale)
    check = fresh.verify(case, tmp_path / "stale")
    assert not check.ok and check.detail["reason"] == "the oracle misses the reference", check.detail


def test_a_shock_tube_past_its_regime_is_dropped_before_anything_runs(tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("cfd-code", "1D_Euler_Shock_Tube"), np.random.default_rng(11))
    assert draw is not None
    late = copy.deepcopy(draw.case)
    late["hidden"]["reference"]["params"]["t_end"] = 0.7
    case = write_case(tmp_path, "cfd-code", "tube-late", late, draw.files)
    check = fresh.verify(case, tmp_path / "late")
    assert not check.ok and "reflective ends" in check.detail["reason"]


def test_a_box_draw_whose_oracle_steps_are_too_few_is_dropped(tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("cfd-code", "2D_Convection"), np.random.default_rng(11))
    assert draw is not None
    source = draw.files["reference_solution.py"]
    steps = _constants(source)["NT"]
    # a third of the steps: the upwind scheme's Courant number passes 1 and the oracle stops ("unstable")
    unstable = {"reference_solution.py": source.replace(f"NT = {steps:g}\n", f"NT = {steps // 3:g}\n")}
    case = write_case(tmp_path, "cfd-code", "box-unstable", draw.case, unstable)
    check = fresh.verify(case, tmp_path / "unstable")
    assert not check.ok and check.detail["reason"].startswith("the oracle failed"), check.detail
    assert "unstable" in check.detail["reason"]


def test_a_cylinder_draw_states_the_numbers_that_follow_from_it() -> None:
    published = get_case("cfd-code", "Flow_Past_Circular_Cylinder")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    nu, t_end = draw.params["nu"], draw.params["t_end"]
    problem = draw.case["visible"]["problem"]
    # Re = v_inf d / nu with v_inf = d = 1, the layer d / sqrt(Re), computed here by hand
    reynolds = 1.0 / nu
    assert 100 <= reynolds <= 250
    assert rf"\nu = {number(nu)} \)" in problem
    assert rf"\nu \approx {round(reynolds)} \)" in problem
    assert rf"\approx {float(f'{reynolds**-0.5:.2g}')!r} \) thick" in problem
    assert rf"t \in [0, {number(t_end)}] \)" in problem
    for published_number in ("0.005", "= 200", "0.07", "10.05", "201 steps"):
        assert published_number not in problem
    assert r"\psi = v_\infty \cdot y + 20" in problem and r"v_\infty = 1 \)" in problem
    assert "released_problem" not in draw.case["visible"]
    oracle = draw.files["reference_solution.py"]
    assert f"Re = 1 / {number(nu)}, to t = {number(t_end)}" in oracle


def _cylinder_steps(nu: float, t_end: float, nt: float) -> tuple[float, float]:
    """The cylinder oracle's time step and its SSP-RK3 limit (its grid: 38 log-polar radii on [0.5, 10], 78
    angles; speeds up to 2.2 v_inf), recomputed here from the scheme's stability region."""
    dxi, h = np.log(20.0) / 37, 2 * np.pi / 78
    cell = 0.5 * min(dxi, h)
    limit = 1.0 / (8 * nu / cell**2 / 2.51 + np.sqrt(2) * 2.2 / cell / 1.73)
    steps = max(nt, math.ceil(t_end / (0.85 * limit)))
    return t_end / steps, limit


def test_the_cylinder_oracle_steps_stay_stable_at_every_corner() -> None:
    for corner in _corners("Flow_Past_Circular_Cylinder"):
        c = _corner_oracle("Flow_Past_Circular_Cylinder", corner)
        assert c["V_INF"] == 1.0 and c["NTHETA"] == 78 and c["NR"] == 38
        dt, limit = _cylinder_steps(c["NU"], c["T_END"], c["NT"])
        assert dt <= 0.85 * limit * (1 + 1e-12), corner


def test_a_cylinder_reference_too_coarse_to_agree_with_its_finer_level_is_dropped(tmp_path: Path) -> None:
    # refine 1 (39 angles) against 3 (117): the coarse level is far from converged, so the draw is dropped
    # before its oracle runs (a few seconds: the full levels, 6 and 8, take half a minute and run in benchmarks/)
    draw = fresh.fresh_draw(get_case("cfd-code", "Flow_Past_Circular_Cylinder"), np.random.default_rng(11))
    assert draw is not None
    coarse = copy.deepcopy(draw.case)
    coarse["hidden"]["reference"]["params"]["refine"] = 1
    case = write_case(tmp_path, "cfd-code", "cylinder-coarse", coarse, draw.files)
    check = fresh.verify(case, tmp_path / "coarse")
    assert not check.ok and check.detail["reason"] == "the reference's refinement levels disagree", check.detail
    assert check.detail["nmse_level0_vs_level2"] > fresh.FAMILIES["Flow_Past_Circular_Cylinder"].reference_tol
