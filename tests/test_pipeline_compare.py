"""End to end, as issue 29 is checked: two runs made apart (the oracle in one directory, the mutants in another,
on the same case) compared side by side with a paired test, bundled, exported to Inspect (read back with one
sample per scored sample), and each run's report holding its sample pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline import make_workdir, scores, snakemake

from simcodebench import cli
from simcodebench.report.bundle import write_bundle

pytestmark = pytest.mark.slow


def _run(tmp_path: Path, agent: str, backend: str) -> Path:
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {agent: {"backend": backend}}}
    work = make_workdir(tmp_path / agent, config, wall_s=8.0, floor_s=2.0, repeats=2)
    snakemake(work)
    return work


def test_two_runs_made_apart(tmp_path, python_env, capsys):
    oracle = _run(tmp_path, "oracle", "oracle")
    mutants = _run(tmp_path, "mutants", "mutant")
    assert (scores(oracle).failure_class == "Pass").all()
    observed = scores(mutants)
    assert len(observed) == 7 and (observed.failure_class == observed.declared_class).all()

    assert cli.main(["compare", "runs", str(oracle), str(mutants), "--resamples", "1000"]) == 0
    out = capsys.readouterr().out
    assert "| oracle |" in out and "| mutants |" in out
    assert "| oracle | mutants | re4 | 1 | 1 | 100.0% | 0.0% | +100.0 pp [+100.0, +100.0] | 1 | 0 | 1 |" in out
    assert "Every case the runs share was judged on the same case version" in out  # same machine, same files

    packed = write_bundle(oracle)
    assert cli.main(["compare", "runs", str(packed), str(mutants), "--resamples", "1000"]) == 0
    assert "| oracle | mutants | re4 | 1 | 1 |" in capsys.readouterr().out

    pages = mutants / "results" / "summary" / "samples"
    assert len(list(pages.glob("mutants__re4__hilbert__*.html"))) == 7  # every failed sample
    assert (oracle / "results" / "summary" / "samples" / "oracle__re4__hilbert__0.html").is_file()
    assert "samples/mutants__re4__hilbert__6.html" in (mutants / "results" / "summary" / "re4.md").read_text()
    snakemake(mutants, "--report", str(mutants / "report.html"))  # the pages are in the Snakemake report too
    assert "mutants__re4__hilbert__6.html" in (mutants / "report.html").read_text(errors="replace")

    from inspect_ai.log import read_eval_log

    assert cli.main(["export", "inspect", str(mutants), "--out", str(tmp_path / "logs")]) == 0
    log = read_eval_log(str(tmp_path / "logs" / "simcodebench_re4_mutants.eval"))
    assert len(log.samples) == 7
    assert sorted(s.scores["simcodebench"].answer for s in log.samples) == sorted(observed.failure_class)
