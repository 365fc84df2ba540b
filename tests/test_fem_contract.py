"""The fem suite's App. J contract on hand-made outputs: grid layout, domain masks, the masked relative L2 error,
the output checks and the paper's class rule (a non-finite value inside the domain is F-Exec)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.fem import grid, manufactured
from simcodebench.suites.fem.domains import inside
from simcodebench.suites.fem.reference import ReferenceRejected, check_filter

SQUARE = {"type": "unit_square"}


def test_grid_is_linspace_with_endpoints_and_x_fastest():
    eval_grid = {"nx": 3, "ny": 2, "bbox": [0.0, 1.0, -1.0, 1.0]}
    assert grid.shape(eval_grid) == (2, 3)
    points = grid.points(eval_grid)
    np.testing.assert_allclose(points[:, 0], [0, 0.5, 1, 0, 0.5, 1])
    np.testing.assert_allclose(points[:, 1], [-1, -1, -1, 1, 1, 1])
    field = (points[:, 0] + 10 * points[:, 1]).reshape(grid.shape(eval_grid))
    assert field[1, 2] == pytest.approx(1.0 + 10 * 1.0)  # u[j, i] = u(x_i, y_j)


def test_3d_grid_puts_z_first():
    eval_grid = {"nx": 2, "ny": 3, "nz": 4, "bbox": [0, 1, 0, 1, 0, 1]}
    assert grid.shape(eval_grid) == (4, 3, 2)
    points = grid.points(eval_grid).reshape(4, 3, 2, 3)
    assert points[3, 0, 0, 2] == 1.0 and points[0, 2, 0, 1] == 1.0 and points[0, 0, 1, 0] == 1.0


def _mask(domain, xy, margin=0.01):
    points = np.array([[x, y, 0.0] for x, y in xy])
    return inside(domain, points, margin).tolist()


def test_masks_keep_straight_boundaries_and_drop_a_band_along_curved_ones():
    lshape = {
        "type": "l_shape",
        "geometry_params": {"vertices": [[0, 0], [1, 0], [1, 0.5], [0.5, 0.5], [0.5, 1], [0, 1]]},
    }
    assert _mask(lshape, [(0, 0), (0.5, 0.75), (0.75, 0.5), (0.75, 0.75), (0.25, 0.25)]) == [
        True,
        True,
        True,
        False,
        True,
    ]
    circle = {"type": "circle", "geometry_params": {"center": [0.5, 0.5], "radius": 0.4}}
    assert _mask(circle, [(0.5, 0.5), (0.5, 0.895), (0.5, 0.889), (0.95, 0.5)]) == [True, False, True, False]
    annulus = {"type": "annulus", "geometry_params": {"center": [0, 0], "inner_r": 0.2, "outer_r": 0.5}}
    assert _mask(annulus, [(0, 0), (0.205, 0), (0.3, 0), (0.495, 0)]) == [False, False, True, False]
    hole = {
        "type": "square_with_hole",
        "geometry_params": {"outer": [0, 1, 0, 1], "inner_hole": {"type": "rect", "bbox": [0.4, 0.6, 0.4, 0.6]}},
    }
    assert _mask(hole, [(0.5, 0.5), (0.4, 0.5), (0.3, 0.5), (1.0, 1.0)]) == [False, True, True, True]
    sector = {"type": "sector", "geometry_params": {"center": [0, 0], "radius": 1.0, "angle": 90}}
    assert _mask(sector, [(0, 0), (0.5, 0), (0.5, 0.5), (-0.1, 0.5), (0.0, 0.995)]) == [True, True, True, False, False]


def test_relative_l2_over_the_scored_points_only():
    reference = np.array([[3.0, 4.0], [np.nan, 0.0]])
    u = np.array([[3.0, 5.0], [123.0, 0.0]])
    assert grid.relative_l2(u, reference) == pytest.approx(1.0 / 5.0)
    zero = np.array([[0.0, np.nan]])
    assert grid.relative_l2(np.array([[0.5, 7.0]]), zero) == pytest.approx(0.5)  # absolute when ||ref|| = 0


def test_manufactured_data_by_hand():
    poisson = manufactured.derive("poisson", {"kappa": "1 + x"}, {"u": "x**2*y"}, 2)
    assert manufactured.parse(poisson["forcing"]).equals(manufactured.parse("-4*x*y - 2*y"))
    wave = manufactured.derive("wave", {"c": 2}, {"u": "sin(x)*cos(t)"}, 2)
    assert manufactured.parse(wave["forcing"]).equals(manufactured.parse("3*sin(x)*cos(t)"))
    assert wave["u0"] == "sin(x)" and wave["v0"] == "0"
    logistic = manufactured.derive(
        "reaction_diffusion", {"epsilon": 1, "reaction": {"type": "logistic", "rho": 2}}, {"u": "x"}, 2
    )
    assert manufactured.parse(logistic["forcing"]).equals(manufactured.parse("2*x*(1 - x)"))
    with pytest.raises(ValueError, match="divergence"):
        manufactured.derive("stokes", {"nu": 1}, {"u": ["x", "y"]}, 2)
    magnitude = manufactured.evaluate({"u": ["3*x", "4*x"]}, "velocity_magnitude", np.array([[2.0, 0, 0]]))
    assert magnitude.tolist() == [10.0]


@pytest.fixture()
def case():
    return get_case("fem", "poisson_square_kappa")


def _run_dir(tmp_path, u, meta=True):
    np.savez(tmp_path / "solution.npz", u=u)
    if meta:
        (tmp_path / "meta.json").write_text(json.dumps({"wall_time_sec": 1.0, "status": "ok", "solver_info": {}}))
    return tmp_path


def _score(case, tmp_path, u, reference, meta=True):
    run = {"status": "ok", "wall_s": 1.0}
    calibration = {"thresholds": {"accuracy": 1e-3, "time": 10.0}}
    return score_attempt(
        case, {"status": "ok"}, {"status": "ok", "files": []}, run, _run_dir(tmp_path, u, meta), reference, calibration
    )


def test_outputs_gate_and_class_map(case, tmp_path):
    reference = Reference(fields={"u": np.array([[1.0, np.nan], [2.0, 2.0]])})
    good = _score(case, tmp_path, np.array([[1.0, np.nan], [2.0, 2.0]]), reference)
    assert good["failure_class"] == "Pass" and good["error"] == 0.0
    outside_nan_inside_finite = _score(case, tmp_path, np.array([[1.0, np.inf], [2.0, 2.0]]), reference)
    assert outside_nan_inside_finite["failure_class"] == "Pass"
    nan_inside = _score(case, tmp_path, np.array([[1.0, 0.0], [np.nan, 2.0]]), reference)
    assert (nan_inside["failure_class"], nan_inside["gate_class"]) == ("F-Exec", "F-NaN")
    transposed_shape = _score(case, tmp_path, np.ones((2, 3)), reference)
    assert (transposed_shape["failure_class"], transposed_shape["gate_class"]) == ("F-Exec", "F-Format")
    (tmp_path / "bare").mkdir()
    no_meta = _score(case, tmp_path / "bare", np.ones((2, 2)), reference, meta=False)
    assert (no_meta["failure_class"], no_meta["gate_class"]) == ("F-Exec", "F-Missing")
    wrong = _score(case, tmp_path, np.array([[1.0, 0.0], [2.0, 3.0]]), reference)
    assert wrong["failure_class"] == "F-Acc" and wrong["error"] == pytest.approx(1.0 / 3.0)


def test_every_case_forcing_follows_from_its_hidden_solution():
    from simcodebench.core.cases import load_suite_cases
    from simcodebench.core.project import cases_root

    checked = 0
    for fem_case in load_suite_cases(cases_root() / "fem"):
        if fem_case.hidden.reference["generator"] != "manufactured":
            continue
        spec = fem_case.visible.spec["case_spec"]
        dim = 3 if "nz" in spec["eval_grid"] else 2
        pde = spec["pde"]
        derived = manufactured.derive(
            pde["type"],
            pde["params"],
            fem_case.hidden.reference["params"]["solution"],
            dim,
            t0=pde.get("time", {}).get("t0", 0.0),
            transient="ic" in spec,
            simplify=False,
        )
        given = pde["forcing"]["value"]
        for mine, theirs in zip(*(v if isinstance(v, list) else [v] for v in (derived["forcing"], given)), strict=True):
            point = {s: 0.3 + 0.11 * i for i, s in enumerate((*manufactured.SPACE, manufactured.T))}
            difference = (manufactured.parse(mine) - manufactured.parse(theirs)).evalf(subs=point)
            assert math.isclose(float(difference), 0.0, abs_tol=1e-9), fem_case.key
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize(
    ("g01", "g12", "e_base", "kept"),
    [
        (1e-3, 2e-4, 1e-3, True),  # converging
        (5e-3, 6e-3, 1e-2, False),  # not monotone: the paper's filter drops it
        (3e-13, 1.4e-12, 1e-12, True),  # every level exact up to round-off: noise, kept
        (1e-2, 1e-3, 0.06, False),  # e_base >= 0.05
    ],
)
def test_refinement_filter(g01, g12, e_base, kept):
    gaps = {"g01": g01, "g12": g12, "e_base_estimate": e_base}
    if kept:
        check_filter("fem/x", gaps, 0.05)
    else:
        with pytest.raises(ReferenceRejected):
            check_filter("fem/x", gaps, 0.05)
