"""Runs side by side: the paired statistics by hand, the agent x suite table (macro beside pooled), runs judged
differently, bundles, and bad input (one line, exit status 2)."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest
from runs_support import run_of, sample

from simcodebench import cli
from simcodebench.core.errors import InputError
from simcodebench.report import bundle
from simcodebench.report.compare import compare_paths, comparison_markdown, suite_rates
from simcodebench.report.stats import mcnemar_exact, paired_bootstrap

# ---------------------------------------------------------------- statistics by hand


def test_mcnemar_exact_by_hand():
    # 1 pair where only A passed, 6 where only B did: p = 2 * (C(7,0) + C(7,1)) / 2^7 = 16 / 128
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert mcnemar_exact(6, 1) == pytest.approx(0.125)
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_exact(3, 3) == pytest.approx(1.0)
    assert mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_paired_bootstrap_contains_the_observed_difference_and_is_seeded():
    a = [True] * 7 + [False] * 3 + [True] * 5 + [False] * 5
    b = [False] * 4 + [True] * 3 + [False] * 3 + [True] * 2 + [False] * 8
    clusters = [f"case{i // 2}" for i in range(len(a))]
    diff, low, high = paired_bootstrap(a, b, clusters, resamples=2000, seed=1)
    assert diff == pytest.approx((12 - 5) / 20)
    assert low <= diff <= high and low < high
    assert paired_bootstrap(a, b, clusters, resamples=2000, seed=1) == (diff, low, high)
    # equal clusters: the bootstrap's spread is the plug-in standard error of the cluster means, sd / sqrt(C)
    means = [(a[i] - b[i] + a[i + 1] - b[i + 1]) / 2 for i in range(0, len(a), 2)]
    mean = sum(means) / len(means)
    se = (sum((m - mean) ** 2 for m in means) / len(means)) ** 0.5 / len(means) ** 0.5
    _, low, high = paired_bootstrap(a, b, clusters, resamples=20_000, seed=3)
    assert high - low == pytest.approx(2 * 1.96 * se, rel=0.2)


def test_paired_bootstrap_without_any_variation_is_a_point():
    assert paired_bootstrap([True] * 4, [False] * 4, list("abcd"), resamples=100) == (1.0, 1.0, 1.0)
    assert paired_bootstrap([True, False], [True, False], ["a", "b"], resamples=100) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="one length"):
        paired_bootstrap([True], [True, False], ["a"])


def test_paired_bootstrap_over_many_cases():
    # 3000 cases of one sample each: the draws are made in chunks; the interval is the plug-in standard error's
    a = [i % 3 == 0 for i in range(3000)]
    b = [i % 5 == 0 for i in range(3000)]
    diff, low, high = paired_bootstrap(a, b, list(range(3000)), resamples=1500, seed=4)
    assert diff == pytest.approx(1000 / 3000 - 600 / 3000)
    se = ((sum((x - y - diff) ** 2 for x, y in zip(a, b, strict=True)) / 3000) / 3000) ** 0.5
    assert low < diff < high and high - low == pytest.approx(2 * 1.96 * se, rel=0.1)


# ---------------------------------------------------------------- two runs made apart

BIG = {("big", f"c{i}"): ["Pass"] for i in range(8)}
SMALL = {("small", "q0"): ["F-Acc"], ("small", "q1"): ["F-Acc"]}


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    # alpha: 8/8 on the big suite, 0/2 on the small one: pooled 80 %, macro 50 %
    alpha = run_of(tmp_path / "day1", "alpha", {**BIG, **SMALL})
    # beta: 1/8 on big (c0 only), 2/2 on small
    beta = run_of(
        tmp_path / "day2",
        "beta",
        {**{k: ["Pass" if k[1] == "c0" else "F-Exec"] for k in BIG}, **{k: ["Pass"] for k in SMALL}},
    )
    return alpha, beta


def test_compare_two_runs(two_runs, tmp_path):
    cmp = compare_paths(list(two_runs), tmp_path / "scratch", resamples=2000)
    rates = suite_rates(cmp.verdicts).set_index("agent")
    assert rates.loc["alpha", "pooled"] == pytest.approx(0.8)
    assert rates.loc["alpha", "macro"] == pytest.approx(0.5)
    assert rates.loc["beta", "pooled"] == pytest.approx(0.3)
    assert rates.loc["beta", "macro"] == pytest.approx((1 / 8 + 1) / 2)
    paired = cmp.paired.set_index("suite")
    big = paired.loc["big"]
    assert (big.a, big.b, big.pairs, big.only_a, big.only_b) == ("alpha", "beta", 8, 7, 0)
    assert big.p_value == pytest.approx(2 / 2**7)  # 7 discordant pairs, all one way
    assert big.difference == pytest.approx(7 / 8) and big.low <= 7 / 8 <= big.high
    pooled = paired.loc["all suites (pooled)"]
    assert (pooled.pairs, pooled.only_a, pooled.only_b) == (10, 7, 2)
    assert pooled.p_value == pytest.approx(mcnemar_exact(7, 2))
    text = comparison_markdown(cmp)
    assert "| alpha |" in text and "| beta |" in text
    assert "macro average" in text and "McNemar" in text
    assert "Every case the runs share was judged on the same" in text


def test_compare_runs_cli_prints_the_tables(two_runs, capsys):
    assert cli.main(["compare", "runs", *map(str, two_runs), "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert "# Runs compared" in out and "alpha" in out and "beta" in out and "0.0156" in out


def test_same_agent_in_two_runs_is_named_by_run(tmp_path):
    first = run_of(tmp_path / "monday", "gpt", {("s", "a"): ["Pass", "Pass"]})
    second = run_of(tmp_path / "tuesday", "gpt", {("s", "a"): ["Pass", "F-Acc"]})
    cmp = compare_paths([first, second], tmp_path / "scratch", resamples=200)
    assert set(cmp.verdicts["agent"]) == {"gpt@monday", "gpt@tuesday"}
    assert cmp.paired.iloc[0][["pairs", "only_a", "only_b"]].tolist() == [2, 1, 0]


def test_time_gates_of_other_machines_are_set_aside_unless_asked(tmp_path):
    verdicts = {("s", f"c{i}"): ["F-Time" if i < 3 else "Pass"] for i in range(5)}
    slow = run_of(tmp_path / "laptop", "alpha", verdicts, tau_time=3.0, machine="laptop")
    fast = run_of(tmp_path / "cluster", "beta", {k: ["Pass"] for k in verdicts}, tau_time=1.0, machine="node")
    cmp = compare_paths([slow, fast], tmp_path / "scratch", resamples=200)
    assert set(cmp.differences["what"]) == {"time gate"}
    assert len(cmp.time_set_aside) == 5
    assert cmp.verdicts["time_aside"].sum() == 3
    assert cmp.paired.iloc[0][["only_a", "only_b"]].tolist() == [0, 0]
    text = comparison_markdown(cmp)
    assert "Time gate set aside for 5 case(s)" in text and "laptop" in text and "node" in text
    judged = compare_paths([slow, fast], tmp_path / "scratch2", compare_time_gates=True, resamples=200)
    assert judged.paired.iloc[0][["only_a", "only_b"]].tolist() == [0, 3]
    assert "compared as judged" in comparison_markdown(judged)


def test_other_case_versions_are_named_and_left_out_of_the_pairs(tmp_path):
    first = run_of(tmp_path / "old", "alpha", {("s", "a"): ["Pass"], ("s", "b"): ["Pass"]})
    second = tmp_path / "new"
    run_of(second, "beta", {("s", "a"): ["F-Acc"]})
    run_of(second, "beta", {("s", "b"): ["F-Acc"]}, version="v2")
    cmp = compare_paths([first, second], tmp_path / "scratch", resamples=200)
    assert cmp.differences[["case", "what"]].values.tolist() == [["b", "case version"]]
    assert cmp.paired.iloc[0][["cases", "pairs", "only_a"]].tolist() == [1, 1, 1]
    assert "left out of the paired tests" in comparison_markdown(cmp)


def test_infra_failures_are_not_counted(tmp_path):
    first = run_of(tmp_path / "a", "alpha", {("s", "a"): ["F-Infra", "Pass"]})
    second = run_of(tmp_path / "b", "beta", {("s", "a"): ["F-Acc", "F-Acc"]})
    cmp = compare_paths([first, second], tmp_path / "scratch", resamples=200)
    rates = suite_rates(cmp.verdicts).set_index("agent")
    assert (rates.loc["alpha", "n"], rates.loc["alpha", "infra"], rates.loc["alpha", "pooled"]) == (1, 1, 1.0)
    assert cmp.paired.iloc[0]["pairs"] == 1


# ---------------------------------------------------------------- bundles


def test_bundle_stands_in_for_its_directory(two_runs, tmp_path):
    alpha, beta = two_runs
    (alpha / "config").mkdir()
    (alpha / "config" / "config.yaml").write_text("suites: [big, small]\n")
    assert cli.main(["bundle", str(alpha), "--out", str(tmp_path / "alpha.tar.gz")]) == 0
    with tarfile.open(tmp_path / "alpha.tar.gz") as tar:
        names = set(tar.getnames())
        meta = json.loads(tar.extractfile("bundle.json").read())
    assert meta["version"] == bundle.VERSION and meta["agents"] == ["alpha"] and meta["commits"] == ["abc123"]
    assert "provenance/config.yaml" in names and "results/calibration/big/c0.json" in names
    assert "results/runs/alpha/big/c0/0/0/response.json" in names
    assert "results/runs/alpha/big/c0/0/0/run/stderr.txt" in names
    direct = compare_paths([alpha, beta], tmp_path / "s1", resamples=300)
    bundled = compare_paths([tmp_path / "alpha.tar.gz", beta], tmp_path / "s2", resamples=300)
    assert bundled.paired.drop(columns=[]).equals(direct.paired)
    assert "bundle " in comparison_markdown(bundled)


def test_bundle_cuts_long_outputs(tmp_path):
    data = b"x" * (3 * bundle.EXCERPT_BYTES)
    cut = bundle.excerpt(data)
    assert len(cut) < len(data) and b"left out by the bundle" in cut
    assert bundle.excerpt(b"short") == b"short"


# ---------------------------------------------------------------- bad input: one line, exit 2


def _one_line_error(capsys, argv: list[str]) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "fix:" in err
    return err


def test_a_directory_that_is_not_a_run(tmp_path, capsys, two_runs):
    (tmp_path / "empty").mkdir()
    err = _one_line_error(capsys, ["compare", "runs", str(two_runs[0]), str(tmp_path / "empty")])
    assert "not a run's working directory" in err and "simcodebench bundle" in err
    err = _one_line_error(capsys, ["compare", "runs", str(two_runs[0] / "results")])
    assert "pass its parent" in err
    err = _one_line_error(capsys, ["bundle", str(tmp_path / "nowhere")])
    assert "does not exist" in err


def test_a_bundle_of_another_version(two_runs, tmp_path, capsys):
    out = bundle.write_bundle(two_runs[0], tmp_path / "a.tar.gz")
    old = tmp_path / "old.tar.gz"
    with tarfile.open(out) as src, tarfile.open(old, "w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read()
            if member.name == "bundle.json":
                data = json.dumps({**json.loads(data), "version": 99, "simcodebench": "9.9"}).encode()
                member.size = len(data)
            dst.addfile(member, __import__("io").BytesIO(data))
    err = _one_line_error(capsys, ["compare", "runs", str(old), str(two_runs[1])])
    assert "version" in err and "99" in err and "simcodebench bundle DIR" in err
    not_a_bundle = tmp_path / "notes.txt"
    not_a_bundle.write_text("hello")
    err = _one_line_error(capsys, ["compare", "runs", str(not_a_bundle)])
    assert "is not a simcodebench bundle" in err


def test_agents_with_no_common_cases(tmp_path, capsys):
    first = run_of(tmp_path / "a", "alpha", {("s1", "a"): ["Pass"]})
    second = run_of(tmp_path / "b", "beta", {("s2", "b"): ["Pass"]})
    err = _one_line_error(capsys, ["compare", "runs", str(first), str(second)])
    assert "share no sample" in err and "alpha: s1" in err and "beta: s2" in err
    with pytest.raises(InputError):
        compare_paths([first, second], tmp_path / "scratch")


def test_a_run_without_final_verdicts(tmp_path, capsys):
    work = tmp_path / "unfinished"
    sample(work, "alpha", "s", "a", 0, ["Pass"])
    next((work / "results" / "runs").rglob("final.json")).unlink()
    err = _one_line_error(capsys, ["compare", "runs", str(work)])
    assert "no final verdict" in err


def test_runs_of_one_folder_name_are_told_apart(tmp_path):
    first = run_of(tmp_path / "a" / "work", "gpt", {("s", "x"): ["Pass"]})
    second = run_of(tmp_path / "b" / "work", "gpt", {("s", "x"): ["F-Acc"]})
    cmp = compare_paths([first, second], tmp_path / "s1", resamples=100)
    assert [r.label for r in cmp.runs] == ["a/work", "b/work"]
    assert set(cmp.verdicts["agent"]) == {"gpt@a/work", "gpt@b/work"}
    bundles = [
        bundle.write_bundle(first, tmp_path / "mon.tar.gz"),
        bundle.write_bundle(second, tmp_path / "tue.tar.gz"),
    ]
    assert [r.label for r in compare_paths(bundles, tmp_path / "s2", resamples=100).runs] == ["mon", "tue"]
