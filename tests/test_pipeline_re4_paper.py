"""Re^4's released transcripts through the real workflow: one programmer's Hilbert and keyhole replies, imported
from ../shared/upstream (skipped when absent) and replayed through re4@paper; every stage gets a verdict and the
summary carries Re^4's tables."""

from __future__ import annotations

import json

import pytest
from pipeline import REPO, make_workdir, scores, snakemake

from simcodebench.suites.re4.transcripts import import_re4_transcripts

pytestmark = pytest.mark.slow

TRANSCRIPTS = REPO.parent / "shared" / "upstream" / "re4" / "transcripts"
VERDICTS = {"Pass", "F-Exec", "F-NaN", "F-Timeout", "F-Extract", "F-NoResponse"}


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="../shared/upstream/re4/transcripts is absent")
def test_released_transcripts_replay_through_the_paper_variant(tmp_path, python_env) -> None:
    import_re4_transcripts(TRANSCRIPTS, tmp_path / "replays")
    agent = {"backend": "replay", "file": str(tmp_path / "replays" / "gpt-4.1-mini.jsonl"), "strategy": "re4"}
    config = {
        "suites": ["re4@paper"],
        "cases": {"re4@paper": ["hilbert", "keyhole"]},
        "agents": {"gpt-4.1-mini": {**agent, "samples": "recorded"}},
    }
    work = make_workdir(tmp_path, config, wall_s=30.0)
    snakemake(work)
    frame = scores(work)
    # samples: recorded runs the released samples only: two of Hilbert, one of keyhole
    assert len(frame) == 9 and (frame["status"] == "scored").all()
    assert set(frame["failure_class"]) <= VERDICTS
    assert list(frame["stage"]) == ["ans-0", "rev-1", "rev-2"] * 3
    # GPT-4.1-mini on Hilbert: sample 0's ans-0 prints "LU with partial pivoting error (L∞): nan" and its
    # revisions run clean; sample 1 prints a NaN error at every stage
    hilbert = frame[frame["case"] == "hilbert"]
    assert list(hilbert["failure_class"]) == ["F-NaN", "Pass", "Pass", "F-NaN", "F-NaN", "F-NaN"]
    assert "stdout.txt: 'LU with partial pivoting error (L∞): nan'" in hilbert["message"].iloc[0]
    # keyhole: ans-0 reads the comma-separated data set as whitespace-separated (one column) and indexes past it;
    # the revisions read it right
    assert list(frame[frame["case"] == "keyhole"]["failure_class"]) == ["F-Exec", "Pass", "Pass"]
    for row in frame.itertuples():
        run = work / "results" / "runs" / "gpt-4.1-mini" / "re4@paper" / row.case / str(row.sample) / str(row.attempt)
        released = [json.loads(x) for x in (tmp_path / "replays" / "gpt-4.1-mini.jsonl").read_text().splitlines()]
        source = next(
            x["response"]
            for x in released
            if (x["case"], x["sample"], x["attempt"]) == (row.case, row.sample, row.attempt)
        )
        assert (run / "solution" / "solution.py").read_text().strip() in source  # the released code, as written
        if row.case == "keyhole":  # the released keyhole programs need pandas and scikit-learn, both provisioned
            assert "ModuleNotFoundError" not in (run / "run" / "stderr.txt").read_text()
    summary = (work / "results" / "summary" / "re4@paper.md").read_text()
    section = summary.split("## Re^4's tables: programmers by stage")[1]
    assert "| problem | gpt-4.1-mini ans-0 | gpt-4.1-mini rev-1 | gpt-4.1-mini rev-2 |" in section
    assert "| hilbert | 0% (0/2) | 50% (1/2) | 50% (1/2) |" in section
    assert "| keyhole |" in section
    assert "### Hilbert" not in section and "### Keyhole" not in section  # no contract files: not measured
