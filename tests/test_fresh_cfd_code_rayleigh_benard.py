"""The fresh Rayleigh-Benard family's check by ensembles (suites/cfd_code/fresh_ensemble.py): its decisions on
statistics set by hand, the finer runs sampled as a program's output is, and its place in the verification.

The check's real cost (6 runs on 256 x 65 and 3 on 384 x 97, about half an hour) is measured by
benchmarks/fresh_variants_cfd_re4_physics.py; these tests use grids of a few hundred nodes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import cfd_code_support
import numpy as np
import pytest
from fresh_support import write_case

from simcodebench.core.cases import Case, get_case
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import fresh, fresh_ensemble
from simcodebench.suites.cfd_code.references.rayleigh_benard import chebyshev, rayleigh_benard

FAMILY = "2D_Rayleigh_Benard_Convection"
SMALL = {"nx": 32, "nz": 17, "t_end": 1.0, "rayleigh": 2.0e6, "prandtl": 1.0, "max_dt": 0.0125, "cfl": 0.4}


def _stats(nusselt: float, u_rms: float, theta: np.ndarray) -> dict[str, np.ndarray]:
    return {"nusselt_wall": np.asarray(nusselt), "u_rms": np.asarray(u_rms), "theta_mean": theta}


THETA = np.sin(np.linspace(0.0, np.pi, 9))
MEAN = _stats(10.0, 0.3, THETA)


def test_finer_runs_that_pass_and_agree_keep_the_reference() -> None:
    # Nu 10.5 against 10: NMSE (0.5 / 10)^2 = 2.5e-3 for every member and for their mean; u_rms and the profile
    # are the reference's, so the worst error is the Nusselt number's.
    finer = [_stats(10.5, 0.3, THETA)] * 3
    detail = fresh_ensemble.judge(3e-3, MEAN, finer)
    assert "reason" not in detail
    assert detail["finer_member_errors"] == pytest.approx([2.5e-3] * 3)
    assert detail["finer_mean_error"] == pytest.approx(2.5e-3)


def test_a_finer_mean_further_than_the_spread_drops_the_reference() -> None:
    finer = [_stats(10.5, 0.3, THETA)] * 3
    detail = fresh_ensemble.judge(2e-3, MEAN, finer)
    assert detail["reason"].startswith("the finer ensemble's mean lies further")


def test_a_finer_run_failing_the_pass_mark_drops_the_reference() -> None:
    # u_rms 0.2 against 0.3: NMSE (1/3)^2 = 0.111 > 0.10, although the mean of the three (0.2667) is only 0.0123 off
    finer = [_stats(10.0, 0.3, THETA), _stats(10.0, 0.3, THETA), _stats(10.0, 0.2, THETA)]
    detail = fresh_ensemble.judge(0.02, MEAN, finer)
    assert detail["finer_member_errors"][2] == pytest.approx(1 / 9)
    assert detail["finer_mean_error"] == pytest.approx((0.1 / 3 / 0.3) ** 2)
    assert detail["reason"].startswith("a run on the finer grid fails the pass mark")


def test_a_wide_reference_spread_drops_the_draw_before_any_finer_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_finer_runs(*args: object, **kwargs: object) -> None:
        raise AssertionError("the finer ensemble ran")

    monkeypatch.setattr(fresh_ensemble, "finer_statistics", no_finer_runs)
    reference = Reference(fields={}, scalars={"leave_one_out_worst": 0.06}, meta={})
    detail = fresh_ensemble.ensemble_check(SMALL, reference)
    assert detail["reason"] == "the reference ensemble's spread is more than half the pass mark"


def _reference(params: dict[str, float], seeds: int) -> Reference:
    solution = rayleigh_benard(seeds=seeds, **params)
    return Reference(
        fields={**solution.coords, **solution.fields}, scalars=dict(solution.meta), meta={"params": params}
    )


def test_finer_runs_on_the_reference_grid_repeat_the_reference_members() -> None:
    # On the reference's own grid, with its seeds, sampling is the identity: the statistics are the members'.
    reference = _reference(SMALL, seeds=2)
    grid = {"nx": SMALL["nx"], "nz": SMALL["nz"]}
    statistics = fresh_ensemble.finer_statistics(SMALL, reference, grid=grid, seeds=(0, 1))
    for index, member in enumerate(statistics):
        for name, value in member.items():
            np.testing.assert_allclose(value, reference.fields[f"{name}_members"][index], rtol=1e-12, atol=1e-15)


def test_finer_runs_are_sampled_on_the_reference_nodes() -> None:
    # Before convection starts (t = 1 from noise of 1e-3), a finer run is the conduction state b = Lz - z on the
    # reference's 17 Chebyshev nodes: wall Nusselt number 1 and no mean departure, whatever its own nodes.
    reference = Reference(
        fields={"x": np.arange(32) * 4.0 / 32, "z": chebyshev(17, 1.0)[0]},
        scalars={"kappa": (2.0e6) ** -0.5, "lz": 1.0},
        meta={},
    )
    (member,) = fresh_ensemble.finer_statistics(SMALL, reference, grid={"nx": 48, "nz": 25}, seeds=(6,))
    assert member["theta_mean"].shape == (17,)
    assert float(member["nusselt_wall"]) == pytest.approx(1.0, abs=1e-4)
    assert np.abs(member["theta_mean"]).max() < 1e-4
    assert float(member["u_rms"]) < 1e-4


def _no_ensembles(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, float]]:
    """Replace the family's ensemble check (half an hour at the case's size) by one that records its parameters."""
    seen: list[dict[str, float]] = []

    def ensemble(params: dict[str, float], reference: Reference) -> dict[str, str]:
        seen.append(params)
        return {"ensemble": "not run (test)"}

    monkeypatch.setitem(fresh.FAMILIES, FAMILY, dataclasses.replace(fresh.FAMILIES[FAMILY], ensemble=ensemble))
    return seen


def _small_draw(tmp_path: Path, case_id: str, oracle: str | None = None, **params: float) -> Case:
    """The seed-11 draw (Ra = 3e5, Pr = 2.5) with a reference ensemble of 2 runs on the oracle's 128 x 33 grid
    (seconds; stable at this draw's viscosity), ``params`` set in its reference, and ``oracle`` (default: its own)
    as its oracle."""
    published = get_case("cfd-code", FAMILY)
    draw = fresh.fresh_draw(published, np.random.default_rng(11))
    assert draw is not None and draw.params == {"rayleigh_e5": 3.0, "prandtl": 2.5}
    draw.case["hidden"]["reference"]["params"].update({"nx": 128, "nz": 33, "seeds": 2, **params})
    # a wall limit that a loaded test machine cannot reach: these tests are about the gates, not the oracle's time
    draw.case["visible"]["resources"] = {**draw.case["visible"].get("resources", {}), "wall_s": 600.0}
    files = dict(draw.files) if oracle is None else {published.hidden.oracle: oracle}
    return write_case(tmp_path, "cfd-code", case_id, draw.case, files)


def test_a_draw_whose_oracle_scores_and_the_published_answer_fails_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _no_ensembles(monkeypatch)
    case = _small_draw(tmp_path, "rb-fresh")
    check = fresh.verify(case, tmp_path / "fresh")
    assert check.ok, check.detail
    assert seen == [case.hidden.reference["params"]]
    assert check.detail["oracle_nmse"] <= fresh_ensemble.SPREAD_LIMIT
    assert check.detail["published_answer_nmse"] > fresh_ensemble.PASS_MARK


def test_a_draw_that_the_published_answer_passes_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A draw put back at the published Ra = 2e6, Pr = 1, with the published oracle: it scores, and so does the
    # published answer, so the draw is not new. Its reference is the published case's as the tests make it
    # (3 runs on 128 x 65, shared by the session): the reference solver needs 65 nodes across at Ra = 2e6.
    _no_ensembles(monkeypatch)
    published = get_case("cfd-code", FAMILY)
    shared = cfd_code_support.reference(FAMILY)  # made before the patch below, which its making would call
    monkeypatch.setattr(fresh.scorer, "generate_reference", lambda case: shared)
    oracle = (published.folder / published.hidden.oracle).read_text()
    case = _small_draw(tmp_path, "rb-published", oracle, rayleigh=2.0e6, prandtl=1.0)
    check = fresh.verify(case, tmp_path / "published")
    assert not check.ok
    assert check.detail["reason"] == "the published problem's answer passes this draw", check.detail
    assert check.detail["published_answer_nmse"] <= fresh_ensemble.PASS_MARK


def test_a_published_answer_that_cannot_be_scored_drops_the_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_ensembles(monkeypatch)
    monkeypatch.setattr(fresh.scorer, "oracle_source", _failing_published_oracle(fresh.scorer.oracle_source))
    check = fresh.verify(_small_draw(tmp_path, "rb-fresh"), tmp_path / "fresh")
    assert not check.ok
    assert check.detail["reason"].startswith("the published problem's answer could not be scored: it failed")


def _failing_published_oracle(oracle_source: Callable[[Case], str]) -> Callable[[Case], str]:
    """``oracle_source`` whose published oracle exits with an error (the fresh one is left as it is)."""

    def source(case: Case) -> str:
        return "raise SystemExit(3)\n" if case.id == FAMILY else oracle_source(case)

    return source


def test_a_draw_whose_ensemble_check_fails_stops_before_its_oracle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def ensemble(params: dict[str, float], reference: Reference) -> dict[str, str]:
        return {"reason": "the ensembles disagree (test)"}

    monkeypatch.setitem(fresh.FAMILIES, FAMILY, dataclasses.replace(fresh.FAMILIES[FAMILY], ensemble=ensemble))
    case = _small_draw(tmp_path, "rb-small", **{**SMALL, "seeds": 2})
    check = fresh.verify(case, tmp_path / "work")
    assert not check.ok and check.detail == {"reason": "the ensembles disagree (test)"}
    assert not (tmp_path / "work" / "oracle").exists()  # the oracle never ran
