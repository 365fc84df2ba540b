"""cfd-code oracles and scorer: every oracle script, run standalone as the sandbox runs it, scores 1 on its
case; broken outputs land in the right outcome; legacy mode reads the released code's files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cfd_code_support import case, param_ids, reference

from simcodebench.agents.backends.mutant import OPERATIONS, MutationContext
from simcodebench.core.references import load_reference, save_reference
from simcodebench.suites.cfd_code import scorer


def run_oracle(case_id: str, workdir: Path, source: str | None = None) -> subprocess.CompletedProcess:
    """Run the oracle (or ``source``) as ``python solution.py`` in an empty folder, one thread. Its wall time is
    measured by benchmarks/cfd_code_references.py, not here."""
    workdir.mkdir(parents=True, exist_ok=True)
    the_case = case(case_id)
    text = source if source is not None else (the_case.folder / the_case.hidden.oracle).read_text(encoding="utf-8")
    (workdir / "solution.py").write_text(text, encoding="utf-8")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "solution.py"], cwd=workdir, capture_output=True, text=True, timeout=600, env=env, check=False
    )


@pytest.mark.parametrize("case_id", param_ids())
def test_oracle_scores_one(case_id: str, tmp_path: Path) -> None:
    done = run_oracle(case_id, tmp_path / "run")
    assert done.returncode == 0, done.stderr
    evaluation = scorer.measure(case(case_id), tmp_path / "run", reference(case_id))
    assert evaluation.outcome == "ok", evaluation.message
    assert evaluation.error <= 0.10 and evaluation.metrics["score"] == 1.0, evaluation.metrics


def test_reference_round_trip_and_plot(tmp_path: Path) -> None:
    the_case = case("2D_Diffusion")
    save_reference(reference("2D_Diffusion"), tmp_path / "ref.json", tmp_path / "ref.h5")
    loaded = load_reference(tmp_path / "ref.json", tmp_path / "ref.h5")
    assert set(loaded.fields) == {"u", "x", "y"} and loaded.meta["generator"] == "diffusion_2d"
    run = tmp_path / "run"
    done = run_oracle("2D_Diffusion", run)
    assert done.returncode == 0, done.stderr
    assert scorer.measure(the_case, run, loaded).outcome == "ok"
    assert scorer.plot_comparison(the_case, run, loaded, tmp_path / "cmp.png")
    assert (tmp_path / "cmp.png").stat().st_size > 0
    assert (
        scorer.plot_comparison(
            case("1D_Euler_Shock_Tube"), tmp_path / "empty", reference("1D_Euler_Shock_Tube"), tmp_path / "no.png"
        )
        is False
    )


def _write(run: Path, **arrays: np.ndarray) -> Path:
    run.mkdir(parents=True, exist_ok=True)
    np.savez(run / "solution.npz", **arrays)
    return run


@pytest.mark.parametrize(
    ("broken", "outcome"),
    [
        ("missing file", "missing"),
        ("missing grid", "format"),
        ("grid too short", "format"),
        ("transposed field", "format"),
        ("nan", "nonfinite"),
        ("half the domain", "format"),
    ],
)
def test_broken_outputs(tmp_path: Path, broken: str, outcome: str) -> None:
    the_case, ref = case("2D_Laplace_Equation"), reference("2D_Laplace_Equation")
    x, y, p = ref.fields["x"], ref.fields["y"], ref.fields["p"]
    run = tmp_path / "run"
    run.mkdir()
    if broken == "missing grid":
        _write(run, p=p, x=x)
    elif broken == "grid too short":
        _write(run, p=p, x=x[:-1], y=y)
    elif broken == "transposed field":
        _write(run, p=p[:, :-1].T, x=x[:-1], y=y)
    elif broken == "nan":
        _write(run, p=np.full_like(p, np.nan), x=x, y=y)
    elif broken == "half the domain":
        _write(run, p=p, x=0.5 * x, y=y)
    evaluation = scorer.measure(the_case, run, ref)
    assert evaluation.outcome == outcome, evaluation.message
    assert evaluation.error is None and evaluation.message


def test_coords_mode_scores_a_coarser_exact_sample(tmp_path: Path) -> None:
    from simcodebench.suites.cfd_code.references import potential

    the_case, ref = case("2D_Laplace_Equation"), reference("2D_Laplace_Equation")
    coarse = potential.laplace_mixed(nx=21, ny=11)
    run = _write(tmp_path, p=coarse.fields["p"], x=coarse.coords["x"], y=coarse.coords["y"])
    evaluation = scorer.measure(the_case, run, ref)
    assert evaluation.outcome == "ok" and evaluation.error < 1e-3  # linear interpolation error only
    assert scorer.measure(the_case, run, ref, mode="coords").error == evaluation.error


def test_legacy_mode_reads_npy_files_in_the_upstream_layout(tmp_path: Path) -> None:
    the_case, ref = case("2D_Steady_Heat_Equation"), reference("2D_Steady_Heat_Equation")
    assert scorer.measure(the_case, tmp_path, ref, mode="legacy").outcome == "missing"
    np.save(tmp_path / "T_2D_Steady_Heat_Equation.npy", ref.fields["T"].T)  # upstream stores T[x, y]
    evaluation = scorer.measure(the_case, tmp_path, ref, mode="legacy")
    assert evaluation.outcome == "ok" and evaluation.error == pytest.approx(0.0, abs=1e-30)
    np.save(tmp_path / "T_2D_Steady_Heat_Equation.npy", ref.fields["T"][::2, ::2].T)  # coarser: zoomed by index
    assert scorer.measure(the_case, tmp_path, ref, mode="legacy").error < 0.01
    lane, lane_ref = case("Lane_Emden_Equation"), reference("Lane_Emden_Equation")
    np.save(tmp_path / "f.npy", lane_ref.fields["f"].reshape(1, 1, -1))
    assert scorer.measure(lane, tmp_path, lane_ref, mode="legacy").error == pytest.approx(0.0, abs=1e-30)
    with pytest.raises(ValueError, match="mode"):
        scorer.measure(lane, tmp_path, lane_ref, mode="zoom")


def test_zero_norm_variables_use_their_scale(tmp_path: Path) -> None:
    the_case, ref = case("2D_Navier_Stokes_Channel"), reference("2D_Navier_Stokes_Channel")
    fields = {name: ref.fields[name] for name in ("u", "x", "y")}
    run = _write(tmp_path, v=np.full_like(fields["u"], 0.35), p=7.0 + 0 * fields["u"], **fields)
    evaluation = scorer.measure(the_case, run, ref)
    assert evaluation.metrics["nmse_v"] == pytest.approx((0.35 / 3.5) ** 2)  # mean(v^2) / scale^2
    assert evaluation.metrics["nmse_p"] == 0.0  # a uniform pressure is right up to a constant


def test_scalar_references_round_trip_and_are_not_plotted(tmp_path: Path) -> None:
    """An eigenvalue case: 0-d fields survive HDF5, score without a grid, and have nothing to draw."""
    the_case = case("Pipe_Flow_Disk_EVP")
    save_reference(reference("Pipe_Flow_Disk_EVP"), tmp_path / "ref.json", tmp_path / "ref.h5")
    loaded = load_reference(tmp_path / "ref.json", tmp_path / "ref.h5")
    assert loaded.fields["growth_rate"].shape == ()
    run = _write(tmp_path, growth_rate=1.2 * loaded.fields["growth_rate"], frequency=loaded.fields["frequency"])
    evaluation = scorer.measure(the_case, run, loaded)
    assert evaluation.metrics["nmse_growth_rate"] == pytest.approx(0.04)  # (0.2 lambda_r)^2 / lambda_r^2
    assert evaluation.metrics["nmse_frequency"] == 0.0
    assert scorer.plot_comparison(the_case, run, loaded, tmp_path / "cmp.png") is False


@pytest.mark.parametrize(
    ("op", "outcome"),
    [("poison_output", "nonfinite"), ("break_output_shape", "format"), ("perturb_output", "ok")],
)
@pytest.mark.parametrize("case_id", ["1D_Euler_Shock_Tube", "Pipe_Flow_Disk_EVP"])  # fields; scalars
def test_output_mutants_land_in_their_outcomes(tmp_path: Path, case_id: str, op: str, outcome: str) -> None:
    the_case = case(case_id)
    source = (the_case.folder / the_case.hidden.oracle).read_text(encoding="utf-8")
    declared = next(m for m in the_case.suite.mutants if m["op"] == op)
    mutant = OPERATIONS[op](source, MutationContext(case=the_case, tau_time=None, args=declared.get("args", {})))
    done = run_oracle(case_id, tmp_path / "run", source=mutant)
    assert done.returncode == 0, done.stderr
    evaluation = scorer.measure(the_case, tmp_path / "run", reference(case_id))
    assert evaluation.outcome == outcome, evaluation.message
    if outcome == "ok":
        assert evaluation.error > 0.10  # wrong-answer fails the accuracy gate


def test_every_case_declares_its_grid_and_resolution_constants() -> None:
    from cfd_code_support import case_ids

    for cid in case_ids():
        the_case = case(cid)
        fields = the_case.visible.contract["files"][0]["fields"]
        axes = the_case.hidden.scoring["axes"]
        assert set(fields) == set(the_case.hidden.scoring["fields"]) | set(axes), cid
        assert the_case.visible.spec["resolution"], cid
        oracle = (the_case.folder / the_case.hidden.oracle).read_text(encoding="utf-8")
        for constant in the_case.visible.spec["resolution"]:
            assert f"\n{constant} = " in oracle, (cid, constant)
        assert "simcodebench" not in oracle, cid
