"""Aggregation: Wilson intervals, pass@k, the tidy frame, markdown tables, the plot and the summary folder."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import binomtest

from simcodebench.report.breakdowns import agent_stats, mutant_stats, stage_stats
from simcodebench.report.collect import COLUMNS, collect
from simcodebench.report.plots import failure_class_plot
from simcodebench.report.stats import pass_at_k, wilson_interval
from simcodebench.report.summary import write_summary
from simcodebench.report.tables import write_tables

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
KEY = ["agent", "suite", "case", "sample", "attempt"]


# ---------------------------------------------------------------- statistics


def test_wilson_by_hand():
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (0, 7), (3, 7), (8, 10), (50, 100), (99, 100), (5, 1000)])
def test_wilson_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 5)[0] == 0.0
    assert wilson_interval(5, 5)[1] == 1.0
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(6, 5)


def _brute_pass_at_k(n: int, c: int, k: int) -> float:
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    return sum(any(s) for s in subsets) / len(subsets)


def test_pass_at_k_matches_enumeration():
    for n in range(1, 9):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(_brute_pass_at_k(n, c, k), abs=1e-12), (n, c, k)


def test_pass_at_k_large_n_is_stable():
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001)
    assert 0.0 < pass_at_k(10_000, 3, 10) < 1.0


def test_pass_at_k_errors():
    with pytest.raises(ValueError, match="at least 5 samples"):
        pass_at_k(3, 1, 5)
    with pytest.raises(ValueError, match="k >= 1"):
        pass_at_k(3, 1, 0)
    with pytest.raises(ValueError, match="c <= n"):
        pass_at_k(3, 4, 1)


# ---------------------------------------------------------------- synthetic runs tree


def _score(root: Path, agent, suite, case, sample, attempt, cls, *, mutant=None, declared=None, cost=0.01):
    skipped = cls is None
    rec = {
        "agent": agent,
        "suite": suite,
        "case": case,
        "sample": sample,
        "attempt": attempt,
        "status": "skipped" if skipped else "scored",
        "failure_class": cls,
        "passed": cls == "Pass",
        "mutant": mutant,
        "declared_class": declared,
        "gates": [],
        "error": None if skipped else 0.01,
        "tau_acc": 0.05,
        "wall_s": None if skipped else 1.0,
        "tau_time": 10.0,
        "metrics": {} if skipped else {"rel_l2_u": 0.01},
        "run": None if skipped else {"status": "ok", "rc": 0, "wall_s": 1.0, "peak_rss_mb": 80.0},
        "generation": None
        if skipped
        else {"model": "m", "prompt_tokens": 100, "completion_tokens": 200, "cost_usd": cost},
        "message": "" if cls in (None, "Pass") else f"{cls} because",
    }
    path = root / agent / suite / case / str(sample) / str(attempt) / "score.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(rec))


def _final(root: Path, agent, suite, case, sample, selected, cls, attempts=1, mutant=None, declared=None):
    rec = {
        "agent": agent,
        "suite": suite,
        "case": case,
        "sample": sample,
        "attempts": attempts,
        "selected_attempt": selected,
        "passed": cls == "Pass",
        "failure_class": cls,
        "declared_class": declared,
        "mutant": mutant,
    }
    (root / agent / suite / case / str(sample) / "final.json").write_text(json.dumps(rec))


def _sample(root: Path, agent, suite, case, sample, classes, **kw):
    """Write one sample's attempts (None = skipped) and its final.json (last attempt that ran)."""
    for attempt, cls in enumerate(classes):
        _score(root, agent, suite, case, sample, attempt, cls, **kw)
    selected = max(a for a, cls in enumerate(classes) if cls is not None)
    kw.pop("cost", None)
    _final(root, agent, suite, case, sample, selected, classes[selected], len(classes), **kw)


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    for case in ("a", "b"):
        for sample in range(2):
            _sample(root, "oracle", "s1", case, sample, ["Pass"], cost=0.0)
    _sample(root, "oracle", "s2", "c", 0, ["Pass"], cost=0.0)
    # execution feedback, 3 attempts: pass at 1 (attempt 2 skipped), fail throughout, infrastructure failure
    _sample(root, "feedback", "s1", "a", 0, ["F-Acc", "Pass", None])
    _sample(root, "feedback", "s1", "a", 1, ["F-Exec", "F-Exec", "F-Acc"])
    _sample(root, "feedback", "s1", "b", 0, ["F-Infra"])
    _sample(root, "mutant", "s1", "a", 0, ["F-Exec"], mutant="raises", declared="F-Exec")
    _sample(root, "mutant", "s1", "b", 0, ["F-Exec"], mutant="raises", declared="F-Exec")
    _sample(root, "mutant", "s1", "a", 1, ["F-Acc"], mutant="nan_field", declared="F-NaN")
    return root


def test_collect_tidy(runs: Path):
    frame = collect(runs)
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == len(list(runs.glob("**/score.json"))) == 15
    assert not frame.duplicated(KEY).any()
    assert frame[KEY].equals(frame.sort_values(KEY, ignore_index=True)[KEY])
    # one final row per sample, and it is the selected attempt
    assert frame["final"].sum() == len(list(runs.glob("**/final.json"))) == 11
    fb = frame[(frame["agent"] == "feedback") & (frame["case"] == "a") & (frame["sample"] == 0)]
    assert fb["final"].tolist() == [False, True, False]
    assert fb["status"].tolist() == ["scored", "scored", "skipped"]
    assert pd.isna(fb["cost_usd"].iloc[2]) and pd.isna(fb["rc"].iloc[2])
    assert fb["rc"].iloc[0] == 0 and fb["prompt_tokens"].iloc[0] == 100


def test_agent_stats_excludes_infra(runs: Path):
    stats = agent_stats(collect(runs)[lambda f: f["suite"] == "s1"]).set_index("agent")
    fb = stats.loc["feedback"]
    assert (fb["samples"], fb["infra"], fb["passed"]) == (3, 1, 1)
    assert fb["rate"] == 0.5  # 1 of 2: the F-Infra sample is not in the denominator
    assert (fb["low"], fb["high"]) == wilson_interval(1, 2)
    # case b has no counted sample, so pass@1 averages case a only: 1 of 2
    assert fb["pass@1"] == 0.5
    assert fb["cost_usd"] == pytest.approx(0.025)  # (0.02 + 0.03) / 2 counted samples
    assert fb["cost_per_solve"] == pytest.approx(0.05)
    oracle = stats.loc["oracle"]
    assert (oracle["rate"], oracle["pass@1"]) == (1.0, 1.0)
    assert pd.isna(oracle["pass@5"])  # 2 samples per case cannot estimate pass@5


def test_stage_stats(runs: Path):
    stages = stage_stats(collect(runs))
    fb = stages[stages["agent"] == "feedback"].set_index("attempt")
    assert fb["reached"].tolist() == [2, 2, 1]  # infra excluded at 0; skipped not reached at 2
    assert fb["infra"].tolist() == [1, 0, 0]
    assert fb["passed"].tolist() == [0, 1, 0]
    assert fb["cumulative"].tolist() == [0.0, 0.5, 0.5]


def test_mutant_stats_flags_mismatch(runs: Path):
    stats = mutant_stats(collect(runs)).set_index("mutant")
    assert bool(stats.loc["raises", "match"]) and stats.loc["raises", "samples"] == 2
    assert not stats.loc["nan_field", "match"]
    assert stats.loc["nan_field", "failure_class"] == "F-Acc"


def test_write_tables(runs: Path, tmp_path: Path):
    out = tmp_path / "summary"
    paths = write_tables(collect(runs), out, {})
    assert sorted(p.name for p in paths) == ["s1.md", "s2.md", "summary.md"]
    s1 = (out / "s1.md").read_text()
    assert "| feedback | 3 | 1 | 1 | 50.0% [" in s1
    assert "| mutant | nan_field | F-NaN | F-Acc | 1 | no |" in s1
    assert "| mutant | raises | F-Exec | F-Exec | 2 | yes |" in s1
    assert "F-Infra (excluded)" in s1
    assert "| feedback | 1 | 2 | 1 | 0 | 50.0% | 50.0% |" in s1
    assert "Mutants" not in (out / "s2.md").read_text()
    summary = (out / "summary.md").read_text()
    assert "[s1](s1.md)" in summary and "| oracle | 100.0% (4/4) | 100.0% (1/1) |" in summary


def test_plot(runs: Path, tmp_path: Path):
    frame = collect(runs)
    for name, part in [("all.png", frame), ("one.png", frame[frame["agent"] == "oracle"])]:
        failure_class_plot(part, tmp_path / name)
        assert (tmp_path / name).read_bytes()[:8] == PNG_MAGIC
    assert not list(tmp_path.glob(".*.tmp"))


def test_write_summary(runs: Path, tmp_path: Path):
    paths = write_summary(runs, tmp_path / "out", {})
    assert set(paths) == {"scores.csv", "s1.md", "s2.md", "summary.md", "failure_classes.png"}
    assert all(p.is_file() for p in paths.values())
    csv = pd.read_csv(paths["scores.csv"])
    assert len(csv) == 15 and not csv.duplicated(KEY).any()
    assert set(COLUMNS) <= set(csv.columns)


def test_empty_tree(tmp_path: Path):
    frame = collect(tmp_path / "absent")
    assert frame.empty and list(frame.columns) == list(COLUMNS)
    paths = write_summary(tmp_path / "absent", tmp_path / "out", {})
    assert set(paths) == {"scores.csv", "summary.md", "failure_classes.png"}
    assert "_no results_" in paths["summary.md"].read_text()
    assert paths["failure_classes.png"].read_bytes()[:8] == PNG_MAGIC
    assert list(pd.read_csv(paths["scores.csv"]).columns) == list(COLUMNS)


def test_unreadable_record_names_file(tmp_path: Path):
    path = tmp_path / "x" / "s" / "c" / "0" / "0" / "score.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="score.json"):
        collect(tmp_path)
