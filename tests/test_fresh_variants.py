"""Fresh variants (issue 39): ``simcodebench generate`` writes the same bytes for the same seed and other cases for
another, keeps no case whose prompt is a published one or whose parameters leave their ranges, counts the draws
that verification dropped, leaves nothing behind when it fails, and says what to fix on bad input; the fea and
fem generators' verifications fail a wrong reference; ``compare runs`` pairs published and fresh by family."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from runs_support import run_of

from simcodebench import cli
from simcodebench.agents.prompts import render_messages
from simcodebench.core.cases import get_case, load_suite_cases
from simcodebench.core.fresh import (
    FreshCheck,
    draw_rng,
    family_of,
    fresh_case_id,
    out_of_range,
    parent_of,
    rounded,
)
from simcodebench.core.project import cases_root
from simcodebench.core.registry import plugin
from simcodebench.pipeline.generate import REPORT, GenerationFailed, generate
from simcodebench.report.compare import compare_paths, comparison_markdown
from simcodebench.report.fresh_gap import contamination_gaps, family_rates

FEA_FAMILIES = ["example_torsion", "comsol_266"]
"""Two closed-form fea families whose reference runs take about a second each."""


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def fea_fresh(tmp_path_factory, fea_env):
    """fea-fresh-s11 and fea-fresh-s12 (two cases each), and seed 11 again in another folder."""
    out = tmp_path_factory.mktemp("fresh")
    return {
        "s11": generate("fea", 2, 11, FEA_FAMILIES, out=out / "a"),
        "s11-again": generate("fea", 2, 11, FEA_FAMILIES, out=out / "b"),
        "s12": generate("fea", 2, 12, FEA_FAMILIES, out=out / "c"),
    }


def test_the_same_seed_writes_the_same_bytes_and_another_seed_other_cases(fea_fresh):
    first, again, other = (_tree(fea_fresh[k].folder) for k in ("s11", "s11-again", "s12"))
    assert first == again
    assert fea_fresh["s11"].folder.name == "fea-fresh-s11" and fea_fresh["s12"].folder.name == "fea-fresh-s12"
    cases = sorted(name for name in first if name.endswith("/case.yaml"))
    assert cases == ["comsol_266-fresh1/case.yaml", "example_torsion-fresh0/case.yaml"]
    assert all(first[name] != other[name] for name in cases)
    where = {str(path).encode() for path in (cases_root().parent, fea_fresh["s11"].folder.parent)}
    assert not any(place in content for place in where for content in first.values())  # no checkout or output path


def test_a_fresh_suite_loads_like_any_suite_and_its_prompts_are_new(fea_fresh):
    folder = fea_fresh["s11"].folder
    cases = load_suite_cases(folder)
    assert [c.id for c in cases] == ["comsol_266-fresh1", "example_torsion-fresh0"]
    assert cases[0].suite.data["fresh"] == {"of": "fea", "seed": 11, "variant": None}
    for case in cases:
        published = get_case("fea", family_of(case.id))
        mine, theirs = render_messages(case), render_messages(published)
        assert mine != theirs and mine[0] == theirs[0]  # the same system prompt, another problem
        assert published.hidden.alternative and not case.hidden.alternative  # it keeps the published numbers
    report = json.loads((folder / REPORT).read_text())
    assert report["draws"] == {"made": 2, "kept": 2, "dropped": 0}
    assert report["generator"]["plugin"] == "fea" and report["versions"]["environments"]["fea"]
    for entry in report["cases"]:
        assert entry["ranges"] and not out_of_range(entry["params"], entry["ranges"])
        assert entry["verification"]["gap"] <= 0.01


def test_a_torsion_draw_states_its_closed_form_and_sets_the_oracle(fea_fresh):
    case = get_case("fea-fresh-s11", "example_torsion-fresh0", root=fea_fresh["s11"].folder.parent)
    report = json.loads((case.suite.folder / REPORT).read_text())
    params = next(entry["params"] for entry in report["cases"] if entry["id"] == case.id)
    radius, rate = params["radius"] * 1e-3, params["twist_rate"]
    assert f"radius {params['radius']:g} mm" in case.visible.problem
    exact = math.pi / 2 * 80e9 * rate * radius**4  # T = G theta J, J = pi R^4 / 2
    assert case.hidden.reference["params"]["closed_form"] == pytest.approx(exact, rel=1e-9)
    assert f"RADIUS = {radius!r}" in (case.folder / "reference.py").read_text()


@pytest.mark.parametrize("twin_agrees", [True, False])
def test_a_fea_family_without_closed_form_is_checked_against_its_dolfinx_twin(
    twin_agrees, tmp_path, monkeypatch, fea_env
):
    from simcodebench.suites.fea import fresh

    if not twin_agrees:  # the second solver answers far off: the draw must be dropped
        monkeypatch.setattr(fresh, "twin_value", lambda case, workdir: 1.05 * 27.69)
        with pytest.raises(GenerationFailed, match=r"and DOLFINx 29\.0745 differ by [\d.]+ > 0\.01"):
            generate("fea", 1, 11, ["comsol_265"], out=tmp_path, max_draws=1)
        return
    done = generate("fea", 1, 11, ["comsol_265"], out=tmp_path)
    case = done.folder / "comsol_265-fresh0"
    check = done.report["cases"][0]["verification"]
    assert check["gap"] <= check["tolerance"] == 0.01 and check["twin"] == pytest.approx(check["levels"][-1], rel=0.01)
    width = done.report["cases"][0]["params"]["width"]
    assert f"POINT_P = ({width!r}, 0.2)" in (case / "twin.py").read_text()
    assert f"WIDTH, HEIGHT = {width!r}, 1.0" in (case / "reference.py").read_text()
    assert "published_target" not in (case / "case.yaml").read_text()


def test_dropped_draws_are_counted_and_replaced(tmp_path, monkeypatch, fea_env):
    fea = plugin("fea")
    verify = fea.verify_fresh_case
    calls = []

    def fail_first(case, workdir):
        calls.append(case.id)
        if len(calls) == 1:
            return FreshCheck(ok=False, detail={"reason": "forced"})
        return verify(case, workdir)

    monkeypatch.setattr(fea, "verify_fresh_case", fail_first)
    done = generate("fea", 1, 11, ["example_torsion"], out=tmp_path)
    assert done.report["draws"] == {"made": 2, "kept": 1, "dropped": 1}
    assert [d["draw"] for d in done.report["dropped"]] == [0] and done.report["cases"][0]["draw"] == 1
    assert done.report["dropped"][0]["verification"] == {"reason": "forced"}


def test_a_failed_generation_leaves_nothing_that_looks_finished(tmp_path, monkeypatch, capsys):
    fea = plugin("fea")
    monkeypatch.setattr(fea, "verify_fresh_case", lambda case, workdir: FreshCheck(ok=False, detail={"r": 1}))
    with pytest.raises(GenerationFailed, match="2 draws of fea/example_torsion in a row failed verification"):
        generate("fea", 1, 11, ["example_torsion"], out=tmp_path, max_draws=2)
    assert list(tmp_path.iterdir()) == []
    argv = ["generate", "fea", "--count", "1", "--seed", "11", "--cases", "example_torsion", "--max-draws", "1"]
    assert cli.main([*argv, "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: generator of fea: 1 draws") and "raise --max-draws" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generate", "nope", "--count", "1", "--seed", "1"], "'nope' is not a suite folder"),
        (["generate", "fea", "--count", "0", "--seed", "1"], "field 'count': is 0; fix: give at least 1"),
        (["generate", "fea", "--count", "1", "--seed", "1", "--cases", "x"], "names ['x'], not cases of the suite"),
        (
            ["generate", "cfd-query", "--count", "1", "--seed", "1"],
            "no generator: a new multiple-choice question needs an author",
        ),
        (
            ["generate", "fea", "--count", "1", "--seed", "1", "--cases", "comsol_16635"],
            "has no generator for comsol_16635: comsol_16635 has none",
        ),
    ],
)
def test_bad_input_gets_one_line_naming_the_fix(argv, message, capsys, tmp_path):
    assert cli.main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "fix:" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_names_and_helpers():
    assert parent_of("fem-fresh-s11") == ("fem", 11)
    assert parent_of("cfd-code-fresh-s3@legacy") == ("cfd-code@legacy", 3)
    assert parent_of("fem") is None
    assert family_of(fresh_case_id("comsol_12681_force", 4)) == "comsol_12681_force"
    assert family_of("poisson_square_kappa") is None
    first = draw_rng(11, 3).random(4)
    assert (first == draw_rng(11, 3).random(4)).all() and not (first == draw_rng(11, 4).random(4)).any()
    assert out_of_range({"a": 1.0, "b": [0.1, 2.0], "c": float("nan")}, {"a": (0, 1), "b": (0, 1), "c": (0, 1)}) == [
        "b=[0.1, 2.0] not in [0, 1]",
        "c=nan not in [0, 1]",
    ]
    assert rounded({"e": [1.234567891, float("inf")], "n": 3}) == {"e": [1.23457, "inf"], "n": 3}


# ---------------------------------------------------------------- the fem generator


def test_every_fem_family_draws_a_case_within_its_ranges():
    """No solver runs: every published fem case (manufactured or refined) draws new data within its ranges."""
    fem = plugin("fem")
    families = load_suite_cases(Path(get_case("fem", "poisson_square_kappa").suite.folder))
    for number, family in enumerate(families):
        draw = fem.fresh_case(family, draw_rng(5, number))
        assert draw is not None, family.id
        assert not out_of_range(draw.params, draw.ranges), family.id
        assert draw.case["visible"]["spec"]["case_spec"] != family.visible.spec["case_spec"], family.id
    assert len(families) == 26


def _draw(family_id: str, number: int = 0) -> tuple[dict, dict]:
    """A fem family's draw: (its case_spec, its drawn parameters)."""
    draw = plugin("fem").fresh_case(get_case("fem", family_id), draw_rng(11, number))
    return draw.case["visible"]["spec"]["case_spec"], draw.params


@pytest.mark.parametrize("family_id", ["burgers_square", "reaction_annulus_logistic", "wave_square", "heat_square"])
def test_a_transient_draw_is_one_the_oracles_time_steps_integrate_exactly(family_id):
    """Crank-Nicolson on the whole residual leaves the exact solution the defect (u(t+dt) - u(t)) / dt -
    (u_t(t+dt) + u_t(t)) / 2 (zero for a quadratic in t, whatever the nonlinear term); Newmark's average
    acceleration needs u_tt constant in t. Both computed here by sympy, and the forcing checked at a point."""
    import sympy as sp

    t, dt, x, y = sp.symbols("t dt x y")
    spec, params = _draw(family_id)
    u = sp.sympify(params["solution"]["u"])
    assert sp.diff(u, t) != 0 and sp.Poly(sp.expand(u), t).degree() == (1 if family_id == "heat_square" else 2)
    defect = (u.subs(t, t + dt) - u) / dt - (sp.diff(u, t).subs(t, t + dt) + sp.diff(u, t)) / 2
    assert sp.simplify(defect) == 0
    if family_id == "wave_square":
        assert sp.diff(u, t, 3) == 0
        residual = sp.diff(u, t, 2) - sp.Float(spec["pde"]["params"]["c"]) ** 2 * (sp.diff(u, x, 2) + sp.diff(u, y, 2))
    elif family_id == "burgers_square":
        nu = sp.Float(spec["pde"]["params"]["nu"])
        residual = sp.diff(u, t) + u * (sp.diff(u, x) + sp.diff(u, y)) - nu * (sp.diff(u, x, 2) + sp.diff(u, y, 2))
    else:
        return
    point = {x: 0.3, y: 0.7, t: 0.1}
    assert float(residual.subs(point)) == pytest.approx(float(sp.sympify(spec["pde"]["forcing"]["value"]).subs(point)))


def test_a_neumann_draw_gets_the_flux_of_its_solution_on_its_side():
    """poisson_lshape_neumann's Neumann side x1 (outward normal +x): g = kappa du/dx there."""
    import sympy as sp

    x, y = sp.symbols("x y")
    spec, params = _draw("poisson_lshape_neumann")
    u, kappa = sp.sympify(params["solution"]["u"]), sp.sympify(spec["pde"]["params"]["kappa"])
    flux = spec["bc"]["neumann"]
    assert flux["on"] == "x1" and sp.sympify(spec["bc"]["dirichlet"]["value"]) == u
    for point in ({x: 1.0, y: 0.2}, {x: 1.0, y: 0.45}):
        assert float(sp.sympify(flux["value"]).subs(point)) == pytest.approx(float((kappa * sp.diff(u, x)).subs(point)))


def test_a_cavity_draw_moves_one_wall_with_a_profile_still_at_its_corners():
    import sympy as sp

    spec, params = _draw("stokes_cavity")
    walls = spec["bc"]["dirichlet"]
    assert [w["on"] for w in walls][0] == params["lid_wall"] and sorted(w["on"] for w in walls) == sorted(
        ["x0", "x1", "y0", "y1"]
    )
    assert all(w["value"] == ["0", "0"] for w in walls[1:])
    along = sp.Symbol("y" if params["lid_wall"][0] == "x" else "x")
    tangential = sp.sympify(walls[0]["value"][0 if params["lid_wall"][0] == "y" else 1])
    m, n = params["lid_powers"]
    assert tangential.subs(along, 0) == 0 and tangential.subs(along, 1) == 0
    assert float(tangential.subs(along, sp.Rational(m, m + n))) == pytest.approx(params["lid_speed"])
    assert float(sp.diff(tangential, along).subs(along, sp.Rational(m, m + n))) == 0  # its top speed


@pytest.mark.parametrize(
    ("gaps", "reason"),
    [
        ((4e-3, 1e-3), None),  # gaps contract four times, the finer levels agree to 0.1%
        ((2e-3, 1.5e-3), "shrink too little"),
        ((0.08, 0.02), "e_base estimate"),  # L0 is 10% off the reference: beyond e_base_limit 0.05
        ((0.03, 0.012), "the two finer levels differ"),
    ],
)
def test_the_refined_check_by_hand(gaps, reason, tmp_path, monkeypatch):
    """Three synthetic levels whose gaps are known: L2 = 1, L1 = 1 + g12, L0 = L1 + g01 (1 + g12) (constant
    fields, so every relative gap is the constant's)."""
    from simcodebench.suites.fem import fresh_refined, oracle_runs

    g01, g12 = gaps
    case = get_case("fem", "poisson_lshape_corner")
    levels = iter([(1 + g12) * (1 + g01), 1 + g12, 1.0])
    monkeypatch.setattr(oracle_runs, "run_oracle", lambda case, config, keep=None: np.full((51, 51), next(levels)))
    check = fresh_refined.verify_fresh_case(case, tmp_path)
    assert check.detail["g01"] == pytest.approx(g01) and check.detail["g12"] == pytest.approx(g12)
    assert check.ok is (reason is None)
    assert reason is None or reason in check.detail["reason"]


def test_the_fem_poisson_forcing_follows_from_the_drawn_solution():
    import sympy as sp

    x, y = sp.symbols("x y")
    family = get_case("fem", "poisson_square_kappa")
    draw = plugin("fem").fresh_case(family, draw_rng(11, 0))
    spec = draw.case["visible"]["spec"]["case_spec"]
    u = sp.sympify(draw.params["solution"]["u"])
    kappa = sp.sympify(spec["pde"]["params"]["kappa"])
    residual = (
        -sp.diff(kappa * sp.diff(u, x), x)
        - sp.diff(kappa * sp.diff(u, y), y)
        - sp.sympify(spec["pde"]["forcing"]["value"])
    )
    assert abs(float(residual.subs({x: 0.3, y: 0.7}))) < 1e-9
    assert sp.sympify(spec["bc"]["dirichlet"]["value"]) == u


@pytest.mark.parametrize("broken", [False, True])
def test_the_fem_verification_checks_the_rate_and_fails_a_wrong_forcing(broken, tmp_path, monkeypatch, dolfinx_env):
    from simcodebench.suites.fem import fresh

    if broken:  # a forcing that does not match the solution: the oracle converges to another function
        real = fresh.fresh_case

        def wrong(family, rng):
            draw = real(family, rng)
            forcing = draw.case["visible"]["spec"]["case_spec"]["pde"]["forcing"]
            forcing["value"] = f"{forcing['value']} + 1"
            return draw

        monkeypatch.setattr(fresh, "fresh_case", wrong)
        with pytest.raises(GenerationFailed, match="failed verification"):
            generate("fem", 1, 11, ["poisson_square_kappa"], out=tmp_path, max_draws=1)
        return
    done = generate("fem", 1, 11, ["poisson_square_kappa"], out=tmp_path)
    (case,) = load_suite_cases(done.folder)
    mine, theirs = render_messages(case), render_messages(get_case("fem", "poisson_square_kappa"))
    assert mine[0] == theirs[0] and mine[1] != theirs[1]  # the same template, other numbers and shapes
    assert case.visible.spec["case_spec"]["pde"]["forcing"]["value"] in mine[1]["content"]
    check = done.report["cases"][0]["verification"]
    assert check["expected_rate"] == 3 and abs(check["rates"][-1] - 3) <= 0.5
    assert [level["resolution"] for level in check["levels"]] == [8, 16, 32]
    # fem's shared second solution reads the case's spec, so the fresh case keeps it (and its file is there)
    assert case.hidden.alternative == "../alternative_dolfinx.py"
    assert (done.folder / "alternative_dolfinx.py").is_file()


@pytest.mark.parametrize("broken", [False, True])
def test_the_fem_neumann_verification_fails_a_wrong_flux(broken, tmp_path, monkeypatch, dolfinx_env):
    """A Neumann flux one off the solution's: the oracle converges to another function, its error stalls and
    the rate check drops the draw; the derived flux converges at P2's order."""
    from simcodebench.suites.fem import fresh

    if broken:
        real = fresh.fresh_case

        def wrong(family, rng):
            draw = real(family, rng)
            flux = draw.case["visible"]["spec"]["case_spec"]["bc"]["neumann"]
            flux["value"] = f"{flux['value']} + 1"
            return draw

        monkeypatch.setattr(fresh, "fresh_case", wrong)
        with pytest.raises(GenerationFailed, match="observed rate"):
            generate("fem", 1, 11, ["poisson_lshape_neumann"], out=tmp_path, max_draws=1)
        return
    done = generate("fem", 1, 11, ["poisson_lshape_neumann"], out=tmp_path)
    check = done.report["cases"][0]["verification"]
    assert check["expected_rate"] == 3 and 2.5 <= check["rates"][-1] <= 5
    assert [level["char_length"] for level in check["levels"]] == [0.12, 0.06, 0.03]


# ---------------------------------------------------------------- published against fresh


def test_family_rates_and_gap_by_hand():
    import pandas as pd

    rows = [
        # agent a: family p passes published 2/2, fresh 1/2; family q published 1/2, fresh 0/2
        ("a", "fem", "p", True), ("a", "fem", "p", True), ("a", "fem", "q", True), ("a", "fem", "q", False),
        ("a", "fem-fresh-s11", "p-fresh0", True), ("a", "fem-fresh-s11", "p-fresh2", False),
        ("a", "fem-fresh-s11", "q-fresh1", False), ("a", "fem-fresh-s11", "q-fresh3", False),
    ]  # fmt: skip
    verdicts = pd.DataFrame(rows, columns=["agent", "suite", "case", "outcome"]).assign(counted=True)
    families = family_rates(verdicts)
    assert families[["family", "passed_published", "n_published", "passed_fresh", "n_fresh"]].values.tolist() == [
        ["p", 2, 2, 1, 2],
        ["q", 1, 2, 0, 2],
    ]
    gaps = contamination_gaps(families, seed=0, resamples=2000)
    row = gaps.iloc[0]
    assert row["rate_published"] == pytest.approx(0.75) and row["rate_fresh"] == pytest.approx(0.25)
    assert row["gap"] == pytest.approx(0.5)  # (1 - 0.5) and (0.5 - 0) are both 0.5: every resample agrees
    assert row["low"] == pytest.approx(0.5) and row["high"] == pytest.approx(0.5)


def test_compare_runs_shows_published_and_fresh_side_by_side(tmp_path):
    verdicts = {
        ("fem", "p"): ["Pass", "Pass"],
        ("fem", "q"): ["Pass", "F-Acc"],
        ("fem-fresh-s11", "p-fresh0"): ["F-Acc", "Pass"],
        ("fem-fresh-s11", "q-fresh1"): ["F-Acc", "F-Exec"],
    }
    run = run_of(tmp_path / "run", "model", verdicts)
    cmp = compare_paths([run], tmp_path / "scratch", resamples=500)
    assert cmp.fresh_gaps[["published", "fresh", "families"]].values.tolist() == [["fem", "fem-fresh-s11", 2]]
    text = comparison_markdown(cmp)
    assert "## Published and fresh (contamination gap)" in text and "+50.0 pp" in text
