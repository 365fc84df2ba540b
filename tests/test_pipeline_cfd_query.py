"""End to end: cfd-query through the real workflow with no environment; oracle, mutants and upstream re-asking."""

from __future__ import annotations

import json

import pytest
from pipeline import make_workdir, scores, snakemake

pytestmark = pytest.mark.slow

CASES = ["q01", "q02", "q03"]


def _replay(path, lines):
    path.write_text("".join(json.dumps({"suite": "cfd-query", "sample": 0, **line}) + "\n" for line in lines))


def test_oracle_mutants_and_reask(tmp_path, repo):
    answers = {c: int((repo / "cases" / "cfd-query" / c / "oracle.txt").read_text()) for c in CASES}
    wrong = answers["q02"] % 4 + 1
    replay = tmp_path / "replies.jsonl"
    _replay(
        replay,
        [
            {"case": "q01", "attempt": 0, "response": "Not sure, sorry."},
            {"case": "q01", "attempt": 1, "response": f"The answer is {answers['q01']}."},
            {"case": "q02", "attempt": 0, "response": str(wrong)},
            *({"case": "q03", "attempt": a, "response": "no idea"} for a in range(3)),
        ],
    )
    work = make_workdir(
        tmp_path,
        {
            "suites": ["cfd-query"],
            "cases": {"cfd-query": CASES},
            "agents": {
                "oracle": {"backend": "oracle"},
                "mutants": {"backend": "mutant"},
                "quiz": {"backend": "replay", "file": str(replay), "strategy": "reask"},
            },
        },
    )
    snakemake(work)
    frame = scores(work)
    finals = frame[frame.final]
    oracle = finals[finals.agent == "oracle"]
    assert (oracle.failure_class == "Pass").all()
    assert all(json.loads(m)["correct"] == 1.0 for m in oracle.metrics)
    mutants = finals[finals.agent == "mutants"]
    assert len(mutants) == 3 * len(CASES)
    assert (mutants.failure_class == mutants.declared_class).all(), mutants[["case", "mutant", "failure_class"]]
    quiz = frame[frame.agent == "quiz"].set_index(["case", "attempt"])
    assert quiz.loc[("q01", 0), "failure_class"] == "F-Extract"
    assert quiz.loc[("q01", 1), "failure_class"] == "Pass" and quiz.loc[("q01", 1), "final"]
    assert quiz.loc[("q01", 2), "status"] == "skipped"
    assert quiz.loc[("q02", 0), "failure_class"] == "F-Acc" and quiz.loc[("q02", 0), "final"]
    assert (quiz.loc["q02"].status.iloc[1:] == "skipped").all()
    assert quiz.loc[("q03", 2), "failure_class"] == "F-Extract" and quiz.loc[("q03", 2), "final"]
    report = (work / "results" / "summary" / "cfd-query.md").read_text()
    assert "CFDQuery accuracy" in report
