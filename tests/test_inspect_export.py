"""Export to Inspect: one eval log per agent and suite, written through inspect_ai's log API and read back by
it, one Inspect sample per scored sample with its input, output, score, tokens and every attempt's transcript."""

from __future__ import annotations

from pathlib import Path

import pytest
from runs_support import run_of, sample

from simcodebench import cli
from simcodebench.report import bundle


@pytest.fixture
def run(tmp_path: Path) -> Path:
    work = run_of(tmp_path / "work", "alpha", {("s", "a"): ["Pass", "F-Acc"], ("t", "b"): ["F-Infra"]})
    run_of(work, "beta", {("s", "a"): ["Pass"]})
    sample(work, "alpha", "s", "retry", 0, ["F-Exec", "Pass"])
    return work


def test_export_reads_back_with_one_sample_per_scored_sample(run, tmp_path, capsys):
    from inspect_ai.log import read_eval_log

    out = tmp_path / "logs"
    assert cli.main(["export", "inspect", str(run), "--out", str(out)]) == 0
    assert "inspect view --log-dir" in capsys.readouterr().out
    logs = {p.name: read_eval_log(str(p)) for p in sorted(out.glob("*.eval"))}
    assert sorted(logs) == ["simcodebench_s_alpha.eval", "simcodebench_s_beta.eval", "simcodebench_t_alpha.eval"]
    alpha = logs["simcodebench_s_alpha.eval"]
    assert alpha.status == "success" and alpha.eval.task == "simcodebench/s" and alpha.eval.model == "model-alpha"
    assert sorted((s.id, s.epoch) for s in alpha.samples) == [("a", 1), ("a", 2), ("retry", 1)]
    assert alpha.results.scores[0].metrics["accuracy"].value == pytest.approx(2 / 3)
    retry = next(s for s in alpha.samples if s.id == "retry")
    assert retry.scores["simcodebench"].value == "C" and retry.scores["simcodebench"].answer == "Pass"
    assert "Solve retry (attempt 0)." in retry.input[-1].text
    assert "alpha retry 0 1" in retry.output.completion
    assert retry.model_usage["model-alpha"].input_tokens == 200  # both attempts' tokens
    spans = [e.name for e in retry.events if e.event == "span_begin"]
    assert spans == ["attempt 0 (attempt-0)", "attempt 1 (attempt-1)"]
    models = [e for e in retry.events if e.event == "model"]
    assert len(models) == 2 and "alpha retry 0 0" in models[0].output.completion
    scores = [e for e in retry.events if e.event == "score"]
    assert [(e.score.answer, e.intermediate) for e in scores] == [("F-Exec", True), ("Pass", False)]
    info = next(e for e in retry.events if e.event == "info")
    assert "Traceback: boom" in info.data["stderr (end)"]
    failed = next(s for s in alpha.samples if (s.id, s.epoch) == ("a", 2))
    assert failed.scores["simcodebench"].value == "I" and failed.scores["simcodebench"].metadata["tau_acc"] == 0.01
    infra = logs["simcodebench_t_alpha.eval"].samples[0]
    assert infra.error is not None and not infra.scores


def test_export_from_a_bundle(run, tmp_path):
    from inspect_ai.log import read_eval_log

    packed = bundle.write_bundle(run, tmp_path / "run.tar.gz")
    assert cli.main(["export", "inspect", str(packed), "--out", str(tmp_path / "logs")]) == 0
    log = read_eval_log(str(tmp_path / "logs" / "simcodebench_s_beta.eval"))
    assert len(log.samples) == 1 and log.eval.metadata["run"] == "work"


def test_analysis_dataframes_read_the_logs(run, tmp_path):
    from inspect_ai.analysis import samples_df

    cli.main(["export", "inspect", str(run), "--out", str(tmp_path / "logs")])
    frame = samples_df(str(tmp_path / "logs"))
    assert len(frame) == 5 and set(frame["metadata_agent"]) == {"alpha", "beta"}
