"""Fresh re4 cases: Burgers, shock tube, Hilbert and the 2-D draws are seeded, in range and new; their references
are checked (quadrature levels agree, waves stay in the tube, DOLFINx levels agree) and an oracle that solves the
published problem is dropped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh import out_of_range
from simcodebench.suites.re4 import fresh, fresh_plane, scorer
from simcodebench.suites.re4.plugin import Re4Suite


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


def test_the_keyhole_has_no_generator_and_says_why() -> None:
    assert fresh.fresh_draw(get_case("re4", "keyhole"), np.random.default_rng(1)) is None
    assert Re4Suite.fresh_note.startswith("keyhole has none: the answer is Ke")
    assert "recall" in Re4Suite.fresh_note  # the reason: its answer, Ke, is fixed by the physics


def test_the_channel_draws_a_whole_number_of_every_levels_steps() -> None:
    published = get_case("re4", "unsteady_ns")
    levels = published.hidden.reference["params"]["levels"]
    for seed in range(20):
        draw = fresh.fresh_draw(published, np.random.default_rng(seed))
        assert draw is not None
        t_end = draw.params["t_end"]
        for dt in [level["dt"] for level in levels] + [0.0025]:  # the reference's levels and the oracle's step
            assert abs(t_end / dt - round(t_end / dt)) < 1e-9
        assert f"Simulate until $t={t_end:g}$" in draw.case["visible"]["problem"]
        assert f"{draw.params['forcing_amplitude']!r} * np.outer(" in draw.files[published.hidden.oracle]
        assert draw.case["hidden"]["reference"]["params"]["inlet_amplitude"] == draw.params["inlet_amplitude"]


@pytest.mark.parametrize("family", ["poisson_holes", "helmholtz_holes"])
def test_drawn_disks_fit_and_are_written_into_text_oracle_and_reference(family: str) -> None:
    published = get_case("re4", family)
    box = published.hidden.reference["params"]["box"]
    gap = {"poisson_holes": fresh_plane.POISSON_GAP, "helmholtz_holes": fresh_plane.HELMHOLTZ_GAP}[family]
    counts = set()
    for seed in range(20):
        draw = fresh.fresh_draw(published, np.random.default_rng(seed))
        assert draw is not None
        disks = draw.case["hidden"]["reference"]["params"]["disks"]
        counts.add(len(disks))
        for i, (cx, cy, r) in enumerate(disks):
            # inside the box by at least the gap, and apart from every other disk by at least the gap
            assert min(cx - r - box[0], box[1] - cx - r, cy - r - box[2], box[3] - cy - r) >= gap - 1e-12
            for ox, oy, other in disks[i + 1 :]:
                assert ((cx - ox) ** 2 + (cy - oy) ** 2) ** 0.5 >= r + other + gap - 1e-12
        cx, cy, r = disks[-1]
        sign = "-" if cx > 0 else "+"
        assert f"(x {sign} {abs(cx):g})^2" in draw.case["visible"]["problem"] or cx == 0
        assert rf"\leq {r:g}^2" in draw.case["visible"]["problem"]
        assert rf"\bigcup_{{i=1}}^{len(disks)} R_i" in draw.case["visible"]["problem"]
        assert f"({cx!r}, {cy!r}, {r!r})" in draw.files[published.hidden.oracle]
    assert counts == {3, 4, 5}


def test_the_cavity_stays_laminar_and_takes_the_drawn_numbers() -> None:
    published = get_case("re4", "lid_driven")
    for seed in range(20):
        draw = fresh.fresh_draw(published, np.random.default_rng(seed))
        assert draw is not None
        re_, alpha = draw.params["Re"], draw.params["alpha"]
        assert fresh_plane.LID_PEAK_RE[0] <= alpha / 4 * re_ <= fresh_plane.LID_PEAK_RE[1]
        assert rf"\text{{Re}} = {re_}$" in draw.case["visible"]["problem"]
        assert draw.case["hidden"]["reference"]["params"]["Re"] == re_
        assert f"RE, ALPHA, NODES = {float(re_)!r}, {alpha!r}, 101" in draw.files[published.hidden.oracle]


@pytest.fixture(scope="module")
def laplace_draw(tmp_path_factory) -> tuple:
    """A drawn holed Laplace case (seed 11) with its DOLFINx reference, made once."""
    published = get_case("re4", "poisson_holes")
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None
    tmp = tmp_path_factory.mktemp("laplace")
    case = write_case(tmp, "re4", "poisson_holes-fresh0", draw.case, draw.files, published)
    return tmp, published, draw, case, scorer.generate_reference(case)


def test_a_laplace_draw_keeps_its_oracle_and_drops_a_stale_one(dolfinx_env, laplace_draw, monkeypatch) -> None:
    tmp, published, draw, case, reference = laplace_draw
    monkeypatch.setattr(fresh.scorer, "generate_reference", lambda _case: reference)  # made once, above
    check = fresh.verify(case, tmp / "good")
    assert check.ok, check.detail
    assert check.detail["g12"] < check.detail["reference_gap_tol"] and check.detail["oracle_error"] < 5e-3
    # the drawn holes but the published boundary values: an accuracy miss
    values = f"U_BOX, U_CIRCLE = {draw.params['u_box']!r}, {draw.params['u_circles']!r}"
    old_values = draw.files[published.hidden.oracle].replace(values, "U_BOX, U_CIRCLE = 1.0, 0.0")
    case = write_case(tmp, "re4", "poisson_holes-old-values", draw.case, {published.hidden.oracle: old_values})
    check = fresh.verify(case, tmp / "old-values")
    assert not check.ok and check.detail["oracle_error"] > 0.05


def test_a_laplace_reference_whose_finest_levels_disagree_is_dropped(dolfinx_env, laplace_draw) -> None:
    tmp, published, draw, _, _ = laplace_draw
    mapping = draw.case
    coarse = [{"h": 0.2, "degree": 1}, {"h": 0.1, "degree": 1}, {"h": 0.05, "degree": 1}]
    mapping["hidden"]["reference"]["params"]["levels"] = coarse
    case = write_case(tmp, "re4", "poisson_holes-coarse", mapping, draw.files, published)
    check = fresh.verify(case, tmp / "coarse")
    assert not check.ok and check.detail["reason"] == "the reference's two finest levels disagree"
    assert check.detail["g12"] > fresh_plane.PLANE["poisson_holes"].reference_gap


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
