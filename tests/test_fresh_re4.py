"""Fresh re4 cases: Burgers, shock tube and Hilbert draws are seeded, in range and new; their references are
checked (quadrature levels agree, waves stay in the tube) and a Hilbert oracle that solves the published system
is dropped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import out_of_range
from simcodebench.suites.re4 import fresh, scorer


@pytest.mark.parametrize("family", sorted(fresh.FAMILIES))
def test_a_draw_is_seeded_in_range_and_new(family: str) -> None:
    published = get_case("re4", family)
    one, two = (fresh.fresh_draw(published, np.random.default_rng(11)) for _ in range(2))
    other = fresh.fresh_draw(published, np.random.default_rng(12))
    assert one is not None and other is not None
    assert one == two and one.params != other.params
    assert out_of_range(one.params, one.ranges) == []
    assert one.case["visible"]["problem"] != published.visible.problem
    assert "released_problem" not in one.case["visible"] and "alternative" not in one.case["hidden"]
    assert one.files[published.hidden.oracle] != (published.folder / published.hidden.oracle).read_text()


def test_the_2d_problems_and_the_keyhole_have_no_generator() -> None:
    for name in ("keyhole", "poisson_holes", "lid_driven"):
        assert fresh.fresh_draw(get_case("re4", name), np.random.default_rng(1)) is None


def test_the_shock_tube_reference_takes_the_drawn_states(tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("re4", "sod"), np.random.default_rng(11))
    assert draw is not None
    case = write_case(tmp_path, "re4", "sod-fresh0", draw.case, draw.files)
    reference = scorer.generate_reference(case)
    d = draw.params
    # far from the waves, the initial states (the reference's ends) are the drawn ones
    assert [reference.fields[k][0] for k in ("rho", "u", "p")] == [d["rho_left"], 0.0, d["p_left"]]
    assert [reference.fields[k][-1] for k in ("rho", "u", "p")] == [d["rho_right"], 0.0, d["p_right"]]
    assert f"({d['rho_left']:g}, 0.0, {d['p_left']:g})" in case.visible.problem


def test_a_shock_tube_whose_waves_leave_is_dropped(tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("re4", "sod"), np.random.default_rng(11))
    assert draw is not None
    mapping = draw.case
    mapping["hidden"]["reference"]["params"]["t"] = 0.5  # the shock reaches x = 1 well before t = 0.5
    case = write_case(tmp_path, "re4", "sod-late", mapping, draw.files)
    check = fresh.verify(case, tmp_path / "late")
    assert not check.ok and check.detail["reason"] == "a wave leaves the tube before the final time"


def test_burgers_quadrature_levels_agree(tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("re4", "burgers"), np.random.default_rng(11))
    assert draw is not None
    case = write_case(tmp_path, "re4", "burgers-fresh0", draw.case, draw.files)
    detail: dict = {}
    assert fresh._reference_check("burgers", case, detail) is None
    assert detail["rel_l2_level1_vs_level2"] <= fresh.REFERENCE_TOL
    assert case.hidden.reference["params"]["nu_times_pi"] == draw.params["nu_pi"]


@pytest.mark.parametrize("solution", sorted(fresh.SOLUTIONS))
def test_hilbert_references_solve_the_system(solution: str, tmp_path: Path) -> None:
    draw = fresh.fresh_draw(get_case("re4", "hilbert"), np.random.default_rng(11))
    assert draw is not None
    draw.case["hidden"]["reference"]["params"]["solution"] = solution
    reference = scorer.generate_reference(write_case(tmp_path, "re4", "h", draw.case, draw.files))
    for n in draw.params["sizes"]:
        i = np.arange(1, n + 1)
        hilbert = 1.0 / (i[:, None] + i[None, :] - 1)
        x = reference.fields[f"x_{n}"]
        # an independent check of x*: H x* written out by hand for the first rows
        assert x.shape == (n,)
        assert {"ones": 1.0, "alternating": 1.0, "ramp": 1.0 / n}[solution] == x[0]
        assert hilbert[0] @ x == pytest.approx(sum(x[j] / (j + 1) for j in range(n)))


def test_hilbert_verification_keeps_the_oracle_and_drops_a_stale_one(tmp_path: Path) -> None:
    published = get_case("re4", "hilbert")
    draw = None
    for seed in range(50):  # a draw whose solution is not the published x* = 1
        draw = fresh.fresh_draw(published, np.random.default_rng(seed))
        if draw is not None and draw.params["solution"] != "ones" and max(draw.params["sizes"]) <= 20:
            break
    assert draw is not None
    case = write_case(tmp_path, "re4", "h-good", draw.case, draw.files)
    check = fresh.verify(case, tmp_path / "good")
    assert check.ok, check.detail
    stale = (
        (published.folder / "reference_solution.py")
        .read_text()
        .replace("SIZES = [5, 10, 15, 20, 25]", f"SIZES = {draw.params['sizes']}")
    )
    case = write_case(tmp_path, "re4", "h-stale", draw.case, {"reference_solution.py": stale})
    check = fresh.verify(case, tmp_path / "stale")
    assert not check.ok and check.detail["oracle_error"] > 0.5
