"""Members of a local ``evaluate`` batch run at once, at most as many CPU-busy ones as the job's cores, and a run
that waits gives its core slot back (issue 27); every member keeps the verdict it gets when run alone."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest
from pipeline import make_workdir, scores, snakemake

from simcodebench.execution import slots
from simcodebench.execution.runtime import RunRequest, run


def _request(tmp_path: Path, name: str, code: str, wall_s: float) -> RunRequest:
    run_dir = tmp_path / name
    run_dir.mkdir()
    (run_dir / "main.py").write_text(code)
    return RunRequest(command=[sys.executable, "main.py"], run_dir=run_dir, wall_s=wall_s, mem_mb=1024)


def _holds_its_slot(tmp_path: Path, name: str, code: str, wall_s: float) -> bool:
    """Run ``code`` holding the only slot; whether another thread waited for the slot until the run ended."""
    one = slots.Slots(1)
    started, got_it = threading.Event(), threading.Event()
    ended = threading.Event()

    def member() -> None:
        with one.held():
            started.set()
            run(_request(tmp_path, name, code, wall_s), "local")
            ended.set()

    def other() -> None:
        started.wait()
        with one.held():
            got_it.set()
            ended.wait()

    threads = [threading.Thread(target=member), threading.Thread(target=other)]
    for thread in threads:
        thread.start()
    got_before_end = got_it.wait(timeout=wall_s + 30) and not ended.is_set()
    for thread in threads:
        thread.join()
    return not got_before_end


def test_a_waiting_run_gives_its_slot_back_and_a_busy_one_keeps_it(tmp_path):
    assert not _holds_its_slot(tmp_path, "sleeps", "import time\ntime.sleep(60)\n", wall_s=12.0)
    busy = "import time\nend = time.time() + 6\nwhile time.time() < end:\n    pass\n"
    assert _holds_its_slot(tmp_path, "busy", busy, wall_s=30.0)


def test_tree_cpu_counts_children(tmp_path):
    code = "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'sum(range(10**7))'])\n"
    with slots.Slots(1).held():
        result = run(_request(tmp_path, "child", code, wall_s=30.0), "local")
    assert result.status == "ok"
    assert slots.tree_cpu_s(1) > 0.0 and not slots.holding()


@pytest.mark.slow
def test_members_run_at_once_keep_the_verdicts_they_get_one_by_one(tmp_path, python_env):
    config = {
        "suites": ["re4"],
        "cases": {"re4": ["hilbert", "keyhole"]},
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    verdicts = {}
    for cores in ("1", "2"):
        work = make_workdir(tmp_path / cores, config, wall_s=10.0)
        snakemake(work, "--cores", cores)
        frame = scores(work).set_index(["agent", "case", "sample"]).sort_index()
        verdicts[cores] = frame.failure_class
        mutants = frame.loc["mutants"]
        assert (mutants.failure_class == mutants.declared_class).all(), mutants[["failure_class", "message"]]
        assert (frame.loc["oracle"].failure_class == "Pass").all()
        (record,) = (work / "results" / "batches" / "re4" / "0").glob("*.json")
        members = [(m["agent"], m["case"], m["sample"]) for m in json.loads(record.read_text())["members"]]
        asked = json.loads((work / "results" / "asks" / "re4" / "0" / record.name).read_text())["members"]
        assert len(members) == 2 + 2 * 7
        assert members == [(m["agent"], m["case"], m["sample"]) for m in asked]  # batch order, as asked
    assert verdicts["1"].equals(verdicts["2"])
