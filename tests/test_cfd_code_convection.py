"""2D_Rayleigh_Benard_Convection: the snapshot statistics by hand, the Fourier-Chebyshev solver against the
critical Rayleigh number and the hydrostatic state, and the statistics scoring (coords, legacy, plots, mutants)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cfd_code_support import TEST_ENSEMBLE, case, reference

from simcodebench.agents.backends.mutant import OPERATIONS, MutationContext
from simcodebench.suites.cfd_code import convection_statistics, scorer
from simcodebench.suites.cfd_code.references.rayleigh_benard import Convection, Setup, simulate

CASE = "2D_Rayleigh_Benard_Convection"


def test_statistics_of_a_single_mode_by_hand() -> None:
    """w = a sin(kx) sin(pi z), u = d cos(kx) cos(pi z), b = 1 - z + c sin(kx) sin(pi z) + e sin(2 pi z):
    <w b> = a c / 4, <u^2 + w^2> = (a^2 + d^2) / 4, mean_x(b) - (1 - z) = e sin(2 pi z), whose slope at both
    walls is 2 pi e, so the wall Nusselt number is 1 - 2 pi e."""
    a, c, d, e, kappa = 0.3, 0.2, 0.1, 0.05, 1.0e-3
    x = np.arange(64) * 4.0 / 64
    z = np.linspace(0.0, 1.0, 801)
    kx, zz = np.meshgrid(2 * np.pi * x / 4.0, z, indexing="ij")
    fields = {
        "w": a * np.sin(kx) * np.sin(np.pi * zz),
        "u": d * np.cos(kx) * np.cos(np.pi * zz),
        "b": 1 - zz + c * np.sin(kx) * np.sin(np.pi * zz) + e * np.sin(2 * np.pi * zz),
    }
    stats = convection_statistics.snapshot_statistics(fields, z, kappa, 1.0)
    assert stats["nusselt_volume"] == pytest.approx(1 + a * c / 4 / kappa, rel=1e-5)
    assert stats["u_rms"] == pytest.approx(np.sqrt((a**2 + d**2) / 4), rel=1e-5)
    assert np.allclose(stats["theta_mean"], e * np.sin(2 * np.pi * z), atol=1e-12)
    assert stats["nusselt_wall"] == pytest.approx(1 - 2 * np.pi * e, rel=1e-4)  # one-sided difference, dz 1/800


def test_statistic_errors_and_leave_one_out_by_hand() -> None:
    profile = np.array([0.0, -0.3, 0.3, 0.0])
    members = [{"nusselt_wall": n, "u_rms": 0.3, "theta_mean": profile} for n in (9.0, 10.0, 11.0)]
    assert convection_statistics.ensemble_mean(members)["nusselt_wall"] == pytest.approx(10.0)
    # each member against the mean of the other two: 10.5, 10, 9.5
    expected = [(1.5 / 10.5) ** 2, 0.0, (1.5 / 9.5) ** 2]
    assert convection_statistics.leave_one_out(members) == pytest.approx(expected)
    mean = convection_statistics.ensemble_mean(members)
    errors = convection_statistics.statistic_errors({**members[0], "theta_mean": 2 * profile}, mean)
    assert errors["theta_mean"] == pytest.approx(1.0) and errors["u_rms"] == 0.0
    assert convection_statistics.statistic_errors({**members[0], "u_rms": np.nan}, members[1])["u_rms"] == np.inf


def test_the_conduction_state_has_the_hydrostatic_pressure() -> None:
    """At rest with b = 1 - z: dp/dz = b, so p = z - z^2 / 2 - 1/3 (zero mean)."""
    box = Convection(8, 17, 4.0, 1.0, 2.0e6, 1.0)
    zero = np.zeros((17, 5), dtype=complex)
    pressure = box.physical(box.pressure(zero, zero))
    assert np.allclose(pressure, (box.z - box.z**2 / 2 - 1 / 3)[None, :], atol=1e-10)


def test_convection_sets_in_at_the_critical_rayleigh_number() -> None:
    """A box one critical wavelength wide (k = 3.117): small disturbances decay below Ra_c = 1707.76 (no-slip
    walls; Reid & Harris 1958) and grow above it. The growth rates at Ra = 1650 and 1770, measured between t = 100
    and t = 200, put the zero within 1% of Ra_c."""
    lx = 2 * np.pi / 3.117
    rates = []
    for rayleigh in (1650.0, 1770.0):
        speeds = []
        for t_end in (100.0, 200.0):
            run = simulate(Setup(nx=8, nz=21, lx=lx, rayleigh=rayleigh, t_end=t_end, max_dt=0.05), seed=1)
            speeds.append(np.sqrt(np.mean(run["u"] ** 2 + run["w"] ** 2)))
        rates.append(np.log(speeds[1] / speeds[0]) / 100.0)
    assert rates[0] < 0 < rates[1]
    critical = 1650.0 + 120.0 * -rates[0] / (rates[1] - rates[0])
    assert critical == pytest.approx(1707.76, rel=0.01)


def test_the_ensemble_spread_fits_inside_the_pass_mark() -> None:
    """Each reference run's statistics score 1 against the mean of the others: an independent correct program
    is not failed for drawing different noise. On the tests' ensemble (``TEST_ENSEMBLE``: 3 runs on 128 x 65
    nodes), where each run is compared with the mean of only two others, so a wider spread would show sooner;
    the case's 6 runs on 256 x 65 are checked by benchmarks/rayleigh_benard_ensemble.py."""
    ref, declared = reference(CASE), case(CASE).hidden.reference["params"]
    assert (declared["seeds"], declared["nx"], declared["nz"]) == (6, 256, 65)  # the benchmark's ensemble
    assert ref.meta["params"] == {**declared, **TEST_ENSEMBLE[CASE]}  # the same problem, fewer and coarser runs
    members = [
        {name: ref.fields[f"{name}_members"][i] for name in ("nusselt_wall", "u_rms", "theta_mean")}
        for i in range(TEST_ENSEMBLE[CASE]["seeds"])
    ]
    assert ref.fields["nusselt_wall_members"].shape == (TEST_ENSEMBLE[CASE]["seeds"],)
    assert len(set(ref.fields["nusselt_wall_members"])) == len(members)  # the seeds drew different noise
    assert ref.scalars["leave_one_out_worst"] == pytest.approx(max(convection_statistics.leave_one_out(members)))
    assert ref.scalars["leave_one_out_worst"] <= 0.10


def _write(folder: Path, **arrays: np.ndarray) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / "solution.npz", **arrays)
    return folder


def _snapshot(ref, scale: float = 1.0) -> dict[str, np.ndarray]:
    return {name: scale * ref.fields[name] for name in ("b", "u", "w", "p")} | {
        "x": ref.fields["x"],
        "z": ref.fields["z"],
    }


def test_a_reference_member_passes_and_the_conduction_state_fails(tmp_path: Path) -> None:
    the_case, ref = case(CASE), reference(CASE)
    member = scorer.measure(the_case, _write(tmp_path / "member", **_snapshot(ref)), ref)
    assert member.outcome == "ok" and member.metrics["score"] == 1.0, member.metrics
    x, z = np.linspace(0, 4, 64, endpoint=False), np.linspace(0, 1, 33)
    rest = np.zeros((64, 33))
    conduction = _write(tmp_path / "rest", b=1 - z[None, :] + rest, u=rest, w=rest, p=rest, x=x, z=z)
    evaluation = scorer.measure(the_case, conduction, ref)
    assert evaluation.metrics["nmse_theta_mean"] == pytest.approx(1.0)  # no mean profile at all
    nusselt = ref.scalars["nusselt_wall"]
    assert evaluation.metrics["nmse_nusselt_wall"] == pytest.approx((1 - nusselt) ** 2 / nusselt**2)
    assert evaluation.metrics["nusselt_volume"] == pytest.approx(1.0)
    assert evaluation.metrics["score"] == 0.0
    assert scorer.plot_comparison(the_case, conduction, ref, tmp_path / "cmp.png")
    assert (tmp_path / "cmp.png").stat().st_size > 0


def test_legacy_mode_takes_the_statistics_of_index_resampled_arrays(tmp_path: Path) -> None:
    the_case, ref = case(CASE), reference(CASE)
    for name in ("b", "u", "w", "p"):
        np.save(tmp_path / f"{name}_{CASE}.npy", ref.fields[name])
    same = scorer.measure(the_case, tmp_path, ref, mode="legacy")
    assert same.outcome == "ok" and same.metrics["score"] == 1.0
    np.save(tmp_path / f"b_{CASE}.npy", np.full((40, 20), np.nan))
    broken = scorer.measure(the_case, tmp_path, ref, mode="legacy")
    assert broken.outcome == "nonfinite" and broken.metrics["nmse_theta_mean"] == np.inf


@pytest.mark.parametrize(
    ("op", "refined"), [("perturb_output", False), ("degrade_when_refined", False), ("degrade_when_refined", True)]
)
def test_the_output_mutants_move_the_statistics(tmp_path: Path, op: str, refined: bool) -> None:
    """wrong-answer fails the pass mark; degrade-on-refine passes as written and fails once NX is doubled (the
    case's convergence floor is the pass mark, so the 5% default would not cross it)."""
    the_case, ref = case(CASE), reference(CASE)
    np.savez(tmp_path / "snapshot.npz", **_snapshot(ref))
    source = "import shutil\nNX = 128\nshutil.copy('snapshot.npz', 'solution.npz')\n"
    declared = next(m for m in the_case.suite.mutants if m["op"] == op)
    args = {**declared.get("args", {}), **the_case.hidden.mutants[declared["name"]]}
    mutant = OPERATIONS[op](source, MutationContext(case=the_case, tau_time=None, args=args))
    if refined:
        mutant = mutant.replace("NX = 128\n", "NX = 256\n", 1)
    (tmp_path / "solution.py").write_text(mutant, encoding="utf-8")
    subprocess.run([sys.executable, "solution.py"], cwd=tmp_path, check=True, capture_output=True)
    evaluation = scorer.measure(the_case, tmp_path, ref)
    assert evaluation.outcome == "ok", evaluation.message
    passes = op == "degrade_when_refined" and not refined
    assert (evaluation.error <= the_case.hidden.scoring["convergence_floor"]) is passes, evaluation.metrics
