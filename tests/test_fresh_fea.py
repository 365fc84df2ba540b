"""fea's fresh-variant generators (``suites/fea/fresh_families.py``): every family draws the same bytes for the
same seed, stays in its ranges, changes the prompt, states every drawn value and writes it into the constants of
``reference.py`` and of its independent solver; the closed forms reproduce the published cases' values; a
family checked against its second solution keeps a draw they agree on and drops one they do not."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from simcodebench.core.cases import Case, load_suite_cases
from simcodebench.core.fresh import draw_rng, out_of_range
from simcodebench.core.project import cases_root
from simcodebench.core.registry import plugin
from simcodebench.pipeline.generate import GenerationFailed, generate
from simcodebench.suites.fea import fresh
from simcodebench.suites.fea.fresh_families import ALTERNATIVE, FAMILIES, NO_GENERATOR, number


@pytest.fixture(scope="module")
def published() -> dict[str, Case]:
    """The published fea cases by id."""
    return {case.id: case for case in load_suite_cases(cases_root() / "fea", None)}


def _constant(source: str, name: str) -> str:
    """The value text of ``name`` in a source's top-level assignment (``A, B = 1.0, 2.0`` read by position)."""
    for line in source.splitlines():
        found = re.match(r"^([A-Z_][A-Z0-9_]*(?:, [A-Z_][A-Z0-9_]*)*) = ([^#]*)", line)
        if found and name in found[1].split(", "):
            names, values = found[1].split(", "), found[2].split(", ")
            return values[names.index(name)].strip() if len(names) > 1 else found[2].strip()
    raise AssertionError(f"{name} is not assigned in the source")


def test_every_published_case_has_a_generator_or_a_stated_reason(published):
    assert set(published) == set(FAMILIES) | set(NO_GENERATOR)
    assert not set(FAMILIES) & set(NO_GENERATOR)
    for case_id in NO_GENERATOR:
        assert plugin("fea").fresh_case(published[case_id], draw_rng(11, 0)) is None


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_draw_is_reproducible_in_range_and_written_everywhere(family, published):
    case, spec = published[family], FAMILIES[family]
    draws = [fresh.fresh_case(case, draw_rng(11, d)) for d in range(6)]
    again = fresh.fresh_case(case, draw_rng(11, 0))
    assert again.case == draws[0].case and again.files == draws[0].files and again.params == draws[0].params
    assert len({tuple(sorted(d.params.items())) for d in draws}) == len(draws)  # other draws, other numbers
    oracle = (case.folder / case.hidden.oracle).read_text()
    for draw in draws:
        assert not out_of_range(draw.params, draw.ranges)
        visible = draw.case["visible"]
        assert visible["problem"] != case.visible.problem and visible["spec"]["plan"] != case.visible.spec["plan"]
        text = visible["problem"] + visible["spec"]["plan"]
        for name, parameter in spec.parameters.items():
            value = draw.params[name]
            assert value != parameter.published
            for template in parameter.text:
                assert re.search(r"\s+".join(map(re.escape, template.format(number(value)).split())), text)
            if parameter.constant is None:
                continue
            si = value * parameter.scale
            assert float(_constant(draw.files[case.hidden.oracle], parameter.constant)) == pytest.approx(si, rel=1e-12)
            if spec.closed_form is None:
                twin_name = parameter.twin_constant or parameter.constant
                assert float(_constant(draw.files[fresh.TWIN], twin_name)) == pytest.approx(si, rel=1e-12)
        assert draw.files[case.hidden.oracle] != oracle
        params = draw.case["hidden"]["reference"]["params"]
        assert ("closed_form" in params) == (spec.closed_form is not None)
        assert "alternative" not in draw.case["hidden"]
        assert "published_target" not in draw.case["hidden"]["scoring"]


@pytest.mark.parametrize("family", sorted(f for f, spec in FAMILIES.items() if spec.closed_form is not None))
def test_the_closed_forms_give_the_published_cases_values(family, published):
    """Each formula on the published data against the closed form the published case states (computed apart, by
    the case's author, and checked there against the refinement study)."""
    spec = FAMILIES[family]
    si = {name: p.published * p.scale for name, p in spec.parameters.items()}
    si |= fresh.FIXED_IN_SOURCE.get(family, {})
    stated = published[family].hidden.reference["params"]["closed_form"]
    assert spec.closed_form(si) == pytest.approx(stated, rel=1e-7)


def test_restated_phrases_follow_the_draw(published):
    """The values the text derives from the drawn ones, computed by hand for one draw of each family."""
    beam = fresh.fresh_case(published["comsol_75611"], draw_rng(11, 3))
    nu = beam.params["poisson"]
    assert f"(Cowper; {10 * (1 + nu) / (12 + 11 * nu):.4f} for nu = {number(nu)})" in beam.case["visible"]["problem"]
    hint = 10 * round(beam.case["hidden"]["reference"]["params"]["closed_form"] / 10)
    assert f"It lies near {hint} Hz." in beam.case["visible"]["problem"] and "near 40 Hz" not in str(beam.case)
    plate = fresh.fresh_case(published["comsol_12681_force"], draw_rng(11, 3))
    force = plate.params["edge_force"]
    assert f"traction of {number(force * 10)} MPa" in plate.case["visible"]["problem"]
    assert float(_constant(plate.files["reference.py"], "TRACTION")) == pytest.approx(force * 1e7)
    dot = fresh.fresh_case(published["comsol_723"], draw_rng(11, 3))
    c_inas = 1.6565 * 0.023 / dot.params["mass_inas"]  # c = hbar^2 / (2 m*) scales as 1 / m*
    assert float(_constant(dot.files["twin.py"], "C_INAS")) == pytest.approx(c_inas, rel=1e-4)
    assert f"({c_inas:.4g} eV nm^2)" in dot.case["visible"]["problem"].replace(f"{c_inas:.5g}", f"{c_inas:.4g}")


def test_a_second_solution_family_uses_the_cases_own_second_solution(published):
    family = "comsol_12677"
    assert FAMILIES[family].twin == ALTERNATIVE
    draw = fresh.fresh_case(published[family], draw_rng(11, 0))
    alternative = (published[family].folder / published[family].hidden.alternative).read_text()
    assert draw.files[fresh.TWIN] != alternative
    assert draw.files[fresh.TWIN].splitlines()[0] == alternative.splitlines()[0]


@pytest.mark.parametrize("agrees", [True, False])
def test_a_draw_is_kept_only_when_its_second_solution_agrees(agrees, tmp_path: Path, monkeypatch, fea_env):
    if not agrees:  # the second solution answers 5% off the reference: the draw is dropped, the generation stops
        from simcodebench.suites.fea import refinement

        study = refinement.refinement_reference
        finest: list[float] = []

        def recorded(case):
            reference = study(case)
            finest.append(reference.scalars["finest"])
            return reference

        monkeypatch.setattr(refinement, "refinement_reference", recorded)
        monkeypatch.setattr(fresh, "twin_value", lambda case, workdir: 1.05 * finest[-1])
        with pytest.raises(GenerationFailed, match=r"and the second solution [\d.]+ differ by 0\.05 > 0\.01"):
            generate("fea", 1, 11, ["comsol_12677"], out=tmp_path, max_draws=1)
        assert not list(tmp_path.glob("fea-fresh-s11/comsol_12677-fresh0"))
        return
    done = generate("fea", 1, 11, ["comsol_12677"], out=tmp_path)
    check = done.report["cases"][0]["verification"]
    assert check["rule"].startswith("the finest scikit-fem level and the second solution agree")
    assert check["gap"] <= check["tolerance"] == 0.01
    assert check["twin"] == pytest.approx(check["levels"][-1], rel=1e-6)  # both converged far below the band


LORENZ = {"sigma": 10.0, "beta": 8 / 3, "rho": 28.0, "perturbation": 1e-11, "t_end": 15.0}
"""The published Lorenz case's values (text units)."""


def test_the_lorenz_statements_of_the_published_system_come_back():
    """The largest Lyapunov exponent of the classical system (0.9056, Sprott, 'Chaos and Time-Series Analysis',
    2003), and the published text's growth rate, horizon and order of the answer, from the family's functions."""
    from simcodebench.suites.fea import fresh_lorenz

    assert fresh_lorenz.lyapunov_exponent(10.0, 8 / 3, 28.0) == pytest.approx(0.9056, rel=0.02)
    restated = dict(fresh_lorenz.phrases(LORENZ))
    assert restated["exp(0.9 t)"] == "exp(0.9 t)"
    assert restated["by t of about 25"] == "by t of about 25"
    assert restated["(of order 1e-5)"] == "(of order 1e-5)"
    assert fresh_lorenz.screen(LORENZ) is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"perturbation": 1e-6, "t_end": 18.0}, "past the linear regime"),
        ({"perturbation": 1e-14}, "rounding start \\+ perturbation moves the answer"),
        ({"sigma": 9.75, "beta": 2.45, "rho": 30.3, "perturbation": 4.69e-11, "t_end": 13.2}, "is under 0.2 of"),
    ],
)
def test_the_lorenz_screen_names_what_a_draw_would_not_measure(change, reason):
    """A separation of 1e-6 grown for 18 time units is about 1 (nonlinear); a perturbation of 1e-14 is a few
    units in the last place of 35.1, so adding it to the start changes it by tens of percent; at t = 13.2 the
    third draw's separation points almost across u (|d_u| / |d| = 0.03, found by drawing)."""
    from simcodebench.suites.fea import fresh_lorenz

    assert re.search(reason, fresh_lorenz.screen(LORENZ | change) or "")


def test_a_lorenz_draw_restates_its_system(published):
    """The fresh text's horizon is the drawn time plus the time the separation takes to grow to 1 at the drawn
    system's exponent, and the order is the answer's (the functions themselves are checked on the published
    system above)."""
    from simcodebench.suites.fea import fresh_lorenz

    draw = fresh.fresh_case(published["comsol_16635"], draw_rng(11, 0))
    v = draw.params
    problem = draw.case["visible"]["problem"]
    assert f"t = {number(v['t_end'])}" in draw.case["title"] and "(a chaotic regime)" in problem
    rate = fresh_lorenz.lyapunov_exponent(v["sigma"], v["beta"], v["rho"])
    d = fresh_lorenz.separation(v["sigma"], v["beta"], v["rho"], v["perturbation"], v["t_end"])
    end = v["t_end"] + math.log(1 / float(np.linalg.norm(d))) / rate
    assert f"exp({rate:.1f} t)" in problem and f"by t of about {5 * round(end / 5)}" in problem
    assert f"(of order 1e{round(math.log10(abs(d[0])))})" in problem
