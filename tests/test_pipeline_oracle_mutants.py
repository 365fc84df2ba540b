"""End to end: the real workflow on the re4 suite; the oracle passes every case, each mutant lands in its class."""

from __future__ import annotations

import pytest
from pipeline import make_workdir, scores, snakemake

pytestmark = pytest.mark.slow


def test_oracle_passes_and_every_mutant_lands_in_its_class(tmp_path, python_env):
    work = make_workdir(
        tmp_path,
        {
            "suites": ["re4"],
            # The 2-D cases (DOLFINx references) are checked in test_re4_plane.py, outside the pipeline.
            "cases": {"re4": ["burgers", "hilbert", "keyhole", "sod"]},
            "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
        },
    )
    snakemake(work)
    frame = scores(work)
    oracle = frame[frame.agent == "oracle"]
    assert sorted(oracle.case) == ["burgers", "hilbert", "keyhole", "sod"]
    assert (oracle.failure_class == "Pass").all(), oracle[["case", "failure_class", "message"]]
    mutants = frame[frame.agent == "mutants"]
    assert len(mutants) == 4 * 7
    wrong = mutants[mutants.failure_class != mutants.declared_class]
    assert wrong.empty, wrong[["case", "mutant", "declared_class", "failure_class", "message"]].to_string()
    summary = (work / "results" / "summary" / "summary.md").read_text()
    assert "oracle" in summary and "mutants" in summary
    assert (work / "results" / "summary" / "failure_classes.png").stat().st_size > 1000
    # a second run finds nothing to do
    again = snakemake(work, "-n")
    assert "Nothing to be done" in again.stdout + again.stderr
