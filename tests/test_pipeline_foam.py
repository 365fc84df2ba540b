"""End to end on real OpenFOAM v1912: references from the oracle cases, the oracle passes, each mutant lands in
its class, the second solution (other linear solvers, schemes, output format) passes and a wrong inlet on it
fails, a malformed multi-file reply is a model failure (F-Extract), and the FoamBench table is written."""

from __future__ import annotations

import json
import re

import pytest
from pipeline import make_workdir, scores, snakemake

from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import get_case

pytestmark = pytest.mark.slow

CASES = ["cavity-1", "obliqueShock-1"]


def test_foam_oracle_mutants_and_malformed_replies(tmp_path, openfoam_env):
    good = oracle_reply(get_case("foam", "cavity-1"))
    no_allrun = re.sub(
        r"```sh path=Allrun\n.*?\n```\n", "", oracle_reply(get_case("foam", "obliqueShock-1")), flags=re.S
    )
    replies = [
        {"case": "cavity-1", "response": good + "\n```foam path=0/U\nduplicate\n```\n"},
        {"case": "obliqueShock-1", "response": no_allrun},
    ]
    replay = tmp_path / "replies.jsonl"
    replay.write_text("".join(json.dumps({"suite": "foam", "sample": 0, "attempt": 0, **r}) + "\n" for r in replies))
    work = make_workdir(
        tmp_path,
        {
            "suites": ["foam"],
            "cases": {"foam": CASES},
            "agents": {
                "oracle": {"backend": "oracle"},
                "mutants": {"backend": "mutant"},
                "second": {"backend": "alternative"},
                "second-broken": {"backend": "mutant", "base": "alternative", "mutants": ["wrong-inlet"]},
                "broken": {"backend": "replay", "file": str(replay)},
            },
        },
    )
    snakemake(work)
    frame = scores(work).set_index(["agent", "case", "sample"])
    for case in CASES:
        oracle = frame.loc[("oracle", case, 0)]
        assert oracle.failure_class == "Pass", oracle.message
        metrics = json.loads(oracle.metrics)
        assert metrics["nmse"] == 0.0 and metrics["nmse_score"] == 1.0 and metrics["struct"] == metrics["file"] == 1.0
    assert json.loads(frame.loc[("oracle", "obliqueShock-1", 0)].metrics)["fields_compared"] == 4
    mutants = frame.loc["mutants"]
    assert len(mutants) == 4 * len(CASES)
    wrong = mutants[mutants.failure_class != mutants.declared_class]
    assert wrong.empty, wrong[["mutant", "declared_class", "failure_class", "message"]].to_string()
    for case in CASES:
        second = frame.loc[("second", case, 0)]
        assert second.failure_class == "Pass" and 0 < second.error < 0.01, second.message  # not the oracle's twin
        assert frame.loc[("second-broken", case, 0)].failure_class == "F-Acc"
    assert "| second | alternative | Pass | Pass | 2 | yes |" in (work / "results" / "summary" / "foam.md").read_text()
    duplicate = frame.loc[("broken", "cavity-1", 0)]
    assert duplicate.failure_class == "F-Extract" and "given twice" in duplicate.message
    missing = frame.loc[("broken", "obliqueShock-1", 0)]
    assert missing.failure_class == "F-Exec"
    assert json.loads(missing.metrics)["struct"] == 1.0  # diagnostics are kept for cases that do not run
    table = (work / "results" / "summary" / "foam.md").read_text()
    assert "FoamBench: exec / struct / file / NMSE / success" in table
    assert "| oracle | foam | 2 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 |" in table
