"""End to end on DOLFINx: the real workflow on two fem cases; references and calibrations are made, the oracle
passes every gate and each mutant lands in its class (the paper's classes: F-Exec, F-Acc, F-Time)."""

from __future__ import annotations

import json

import pytest
from pipeline import make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

CASES = ["helmholtz_circle", "poisson_square_kappa"]


def test_fem_oracle_passes_and_mutants_land(tmp_path, dolfinx_env):
    work = make_workdir(
        tmp_path,
        {
            "suites": ["fem"],
            "cases": {"fem": CASES},
            "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
        },
    )
    snakemake(work)
    frame = scores(work)
    oracle = frame[frame.agent == "oracle"]
    assert sorted(oracle.case) == CASES
    assert (oracle.failure_class == "Pass").all(), oracle[["case", "failure_class", "message"]].to_string()
    mutants = frame[frame.agent == "mutants"]
    assert len(mutants) == 6 * len(CASES)
    wrong = mutants[mutants.failure_class != mutants.declared_class]
    assert wrong.empty, wrong[["case", "mutant", "declared_class", "failure_class", "message"]].to_string()
    for case in CASES:
        calibration = json.loads((work / "results" / "calibration" / "fem" / f"{case}.json").read_text())
        assert len(calibration["wall_times"]) == 3
        assert calibration["thresholds"]["accuracy"] == max(10 * calibration["e_base"], 1e-6)
        assert calibration["thresholds"]["time"] == pytest.approx(3 * calibration["t_base"])
    assert (work / "results" / "summary" / "fields" / f"oracle__fem__{CASES[0]}.png").stat().st_size > 1000
