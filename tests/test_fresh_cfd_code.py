"""Fresh cfd-code cases: each family's draw is seeded, in range, changes every published number it names, and
its verification keeps a good case and drops one whose oracle solves another problem."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.suites.cfd_code import fresh


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


# Which oracle constant carries each drawn parameter (written out here, independently of the generator).
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
}


def test_every_family_is_covered_here() -> None:
    assert set(ORACLE_CONSTANTS) == set(fresh.FAMILIES)


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
    if family == "2D_Steady_Heat_Equation":
        d = one.params
        line = f"t[0, :], t[-1, :], t[:, 0], t[:, -1] = {d['bottom']}, {d['top']}, {d['left']}, {d['right']}\n"
        assert line in oracle
    params = one.case["hidden"]["reference"]["params"]
    for name, value in fresh.FAMILIES[family].reference(one.params).items():
        assert params[name] == value


def test_families_without_a_generator_return_none() -> None:
    assert fresh.fresh_draw(get_case("cfd-code", "2D_Navier_Stokes_Cavity"), np.random.default_rng(1)) is None


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
