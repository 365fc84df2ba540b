"""Fresh lid-driven cavities: the implicit solver of the finer levels solves the reference's own semi-discrete
problem, the levels are compared as the case scores them, a reference too coarse for its finer levels is
dropped, and every corner of the ranges keeps the oracles stable and resolved. (A full verification, a minute or
more per draw, runs in benchmarks/fresh_variants_cfd_re4_physics.py.)"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import get_case
from simcodebench.core.fresh_edits import number, substitute
from simcodebench.suites.cfd_code import fresh, fresh_checks
from simcodebench.suites.cfd_code import nmse as metric
from simcodebench.suites.cfd_code.fresh_families import CAVITY_REFERENCE_TOL
from simcodebench.suites.cfd_code.references import cavity, cavity_implicit

CAVITIES = ("Lid_Driven_Cavity", "2D_Navier_Stokes_Cavity")
SMALL = {"points": 17, "length": 1.0, "nu": 0.1, "t_end": 0.2, "refine": 1, "lid": 1.3}


def test_the_capacitance_is_the_operator_at_the_near_wall_nodes() -> None:
    # built column by column from sine transforms of unit vectors, against the separable block formulas
    m = 6
    spectrum = np.random.default_rng(3).standard_normal((m, m))
    columns = []
    for j in range(4 * m):
        unit = np.zeros(4 * m)
        unit[j] = 1.0
        field = cavity_implicit._scatter(unit, m)
        columns.append(cavity_implicit._near_wall(cavity_implicit._sine(spectrum * cavity_implicit._sine(field))))
    assert cavity_implicit.capacitance(spectrum) == pytest.approx(np.array(columns).T, abs=1e-13)


def _nmse(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> dict[str, float]:
    return {name: metric.nmse(a[name], b[name]) for name in "uvp"}


def test_implicit_steps_solve_the_references_semi_discrete_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    # The explicit reference's pressure uses the wall vorticity of its last Runge-Kutta stages (lagging by O(dt),
    # 3e-6 NMSE here, 3e-11 at the published resolution); with Thom's values of its final streamfunction it is the
    # implicit run's pressure. The velocities agree to the implicit run's second-order time error.
    published = cavity._pressure

    def final_walls(omega: np.ndarray, u: np.ndarray, v: np.ndarray, h: float, rho: float, nu: float) -> np.ndarray:
        walls, symbol = omega.copy(), cavity._poisson_symbol(omega.shape[0] - 2, h)
        cavity._wall_vorticity(walls, cavity._streamfunction(omega, symbol), h, SMALL["lid"])
        return published(walls, u, v, h, rho, nu)

    monkeypatch.setattr(cavity, "_pressure", final_walls)
    explicit = cavity.lid_driven_cavity(**SMALL).fields
    errors = [_nmse(explicit, cavity_implicit.lid_driven_cavity_implicit(**SMALL, steps=s).fields) for s in (25, 50)]
    assert max(errors[1].values()) < 1e-8
    assert errors[0]["u"] / errors[1]["u"] > 10  # halving dt: NMSE down by 16 at second order


def test_the_levels_are_compared_as_scored_and_converge() -> None:
    levels = fresh_checks.cavity_levels("lid_driven_cavity", {**SMALL, "points": 9, "t_end": 0.1})
    assert [sorted(level) for level in levels] == [["p", "u", "v"]] * 3
    for level in levels:
        assert level["u"].shape == (9, 9) and level["p"].shape == (7, 7)  # the pressure on interior nodes
        assert abs(level["p"].mean()) < 1e-12 and level["u"][-1, 3] == 1.3
    coarse, middle = (_nmse(levels[2], level) for level in levels[:2])
    assert all(middle[name] < coarse[name] / 4 for name in "uvp")  # second order: NMSE / 16 less the finest's part


def test_a_cavity_reference_too_coarse_for_its_finer_levels_is_dropped(tmp_path: Path) -> None:
    # the unit cavity's reference on the output grid (refine 1, 41 nodes) against 81 and 161 nodes: its pressure
    # is off by more than the tolerance, so the draw is dropped before its oracle runs
    draw = fresh.fresh_draw(get_case("cfd-code", "Lid_Driven_Cavity"), np.random.default_rng(11))
    assert draw is not None
    coarse = copy.deepcopy(draw.case)
    coarse["hidden"]["reference"]["params"]["refine"] = 1
    case = write_case(tmp_path, "cfd-code", "cavity-coarse", coarse, draw.files)
    check = fresh.verify(case, tmp_path / "coarse")
    assert not check.ok and check.detail["reason"] == "the reference's refinement levels disagree", check.detail
    assert check.detail["nmse_level0_vs_level2"] > CAVITY_REFERENCE_TOL > check.detail["nmse_level1_vs_level2"]


def _corner_oracles(family: str) -> list[tuple[dict[str, float], dict[str, float]]]:
    """Each corner of the family's ranges with the module constants of its oracle."""
    published = get_case("cfd-code", family)
    spec = fresh.FAMILIES[family]
    source = (published.folder / published.hidden.oracle).read_text()
    out = []
    for values in itertools.product(*((p.lo, p.hi) for p in spec.params.values())):
        corner = dict(zip(spec.params, values, strict=True))
        _, edits = spec.edits({name: number(value) for name, value in corner.items()})
        constants = {}
        for line in substitute(source, edits, family).splitlines():
            name, _, value = line.partition(" = ")
            if name.isupper() and name.isidentifier():
                constants[name] = float(value)
        out.append((corner, constants))
    return out


@pytest.mark.parametrize("family", CAVITIES)
def test_every_corner_keeps_the_oracle_stable_and_resolved(family: str) -> None:
    for corner, c in _corner_oracles(family):
        h = c["L"] / (c["NX"] - 1)
        reynolds, cell = c["LID"] * c["L"] / c["NU"], c["LID"] * h / c["NU"]
        assert 3 <= reynolds <= 60 and cell <= 1.2, corner
        # at the doubled resolution of the convergence gate: the [0, 2]^2 oracle adds the steps its diffusion limit
        # needs (nu dt / h^2 <= 0.3), the unit cavity's NT keeps the published 0.16 (it stops above 0.3)
        steps = 2 * c["NT"]
        if family == "2D_Navier_Stokes_Cavity":
            steps = max(steps, int(np.ceil(c["NU"] * c["T_END"] / (0.3 * (h / 2) ** 2))))
        dt = c["T_END"] / steps
        assert c["NU"] * dt / (h / 2) ** 2 <= (0.3 if family == "2D_Navier_Stokes_Cavity" else 0.16 + 1e-9), corner
        assert c["LID"] * dt / (h / 2) <= 0.2, corner  # SSP-RK3 with central differences: far inside its limit
