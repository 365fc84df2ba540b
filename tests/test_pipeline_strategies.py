"""Strategies through the real workflow, in one run on re4/hilbert: execution feedback (replayed and over HTTP),
Re^4 (oracle, per-role models over HTTP, early stop), SMRF and best-of-n; no hidden value in any prompt."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd
import pytest
from openai_server import OpenAIServer
from pipeline import REPO, make_workdir, scores, snakemake

from simcodebench.core.references import load_reference

pytestmark = pytest.mark.slow

ORACLE = (REPO / "cases" / "re4" / "hilbert" / "reference_solution.py").read_text()
TIME_FLOOR_S = 7.25
"""The time threshold (the oracle is far faster): a value no prompt has any other reason to print."""


def reply(source: str) -> str:
    return f"Here is my solution.\n\n```python\n{source.rstrip()}\n```\n"


def saves(value: str) -> str:
    return reply(
        f"import numpy as np\nnp.savez('solution.npz', **{{f'x_{{n}}': {value} for n in (5, 10, 15, 20, 25)}})"
    )


CRASH = reply("raise SystemExit('crash: deliberate')")
ZEROS = saves("np.zeros(n)")
HALF = saves("np.full(n, 0.5)")
LONG_BUG = reply(
    "# a long preamble that pushes the bug past 2000 characters\n" * 40 + ORACLE + "raise RuntimeError('boom')"
)
WARNS = reply("import warnings\nwarnings.warn('a deliberate warning')\n" + ORACLE)
CONSULTANT, REVIEWER = "[Role] You are a distinguished Mathematical Consultant", "[Role]** You are a Code Reviewer"


def _lines(path: Path, rows: list[tuple[int, int, str | None, str]]) -> str:
    """A replay file of (sample, attempt, role, response) rows on re4/hilbert."""
    with path.open("w") as handle:
        for sample, attempt, role, response in rows:
            line = {"suite": "re4", "case": "hilbert", "sample": sample, "attempt": attempt, "response": response}
            handle.write(json.dumps(line | ({"role": role} if role else {})) + "\n")
    return str(path)


def _respond(request: dict[str, Any]) -> str:
    """The test endpoint: a fixed answer per role, told apart by the role prompts."""
    last = request["messages"][-1]["content"]
    if request["model"] == "fb-model":
        return reply(ORACLE) if "FEEDBACK FROM PREVIOUS ATTEMPT" in last else CRASH
    if last.startswith(CONSULTANT):
        return "Use exact rational arithmetic, then round once."
    if REVIEWER in last:
        return "Decision: REVISE\nPrint the error of every n."
    return reply(ORACLE)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, python_env) -> SimpleNamespace:
    tmp = tmp_path_factory.mktemp("strategies")
    feedback = _lines(
        tmp / "feedback.jsonl",
        [
            (0, 0, None, LONG_BUG),  # F-Exec; attempt 1 repairs it; attempt 2 is never asked
            (0, 1, None, reply(ORACLE)),
            (0, 2, None, "never asked: attempt 1 passed"),
            (1, 0, None, ZEROS),  # error 1.0, then 0.5, then no code: selected is attempt 1
            (1, 1, None, HALF),
            (1, 2, None, "No code this time."),
        ],
    )
    smrf = _lines(
        tmp / "smrf.jsonl",
        [
            (0, 0, None, CRASH),
            (0, 1, "corrector", ZEROS),  # executes: corrections 2 and 3 are skipped, the refiner takes it
            (0, 4, "refiner", reply(ORACLE)),
            (1, 0, None, reply(ORACLE)),
            (1, 4, "refiner", HALF),  # the refined program stands for the sample, even when it is worse
            *[(2, a, None, CRASH) for a in range(4)],  # never executes: no refinement
        ],
    )
    re4 = _lines(
        tmp / "re4.jsonl",
        [(0, 0, "consultant", "Plan A."), (0, 0, None, ZEROS), (0, 1, "reviewer", "Looks fine. ACCEPT")],
    )
    best = _lines(tmp / "best.jsonl", [(0, 0, None, CRASH), (1, 0, None, WARNS), (2, 0, None, ZEROS)])
    with OpenAIServer(responder=_respond) as server:
        endpoint = {"backend": "openai", "base_url": server.url, "api_key_env": None, "backoff_s": 0.01}
        agents = {
            "fb": {"backend": "replay", "file": feedback, "strategy": "feedback", "samples": 2},
            "fb-leak": {"backend": "replay", "file": feedback, "strategy": "feedback", "leak_thresholds": True},
            "oai-fb": {**endpoint, "model": "fb-model", "strategy": "feedback"},
            "oai-re4": {
                **endpoint,
                "model": "big-model",
                "strategy": "re4",
                "price": {"prompt_per_1m": 1.0, "completion_per_1m": 2.0},
                "roles": {"consultant": {"model": "small-model"}, "reviewer": {"model": "small-model"}},
            },
            "oracle-re4": {"backend": "oracle", "strategy": "re4"},
            "re4-early": {"backend": "replay", "file": re4, "strategy": "re4", "early_stop": True},
            "smrf": {"backend": "replay", "file": smrf, "strategy": "smrf", "samples": 3},
            "bon": {"backend": "replay", "file": best, "strategy": "best_of_n", "samples": 3},
        }
        config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": agents}
        work = make_workdir(tmp, config, wall_s=20.0, floor_s=TIME_FLOOR_S, repeats=2)
        snakemake(work)
    return SimpleNamespace(work=work, requests=[r.json for r in server.requests], frame=scores(work))


def _sample(run: SimpleNamespace, agent: str, sample: int = 0) -> Path:
    return run.work / "results" / "runs" / agent / "re4" / "hilbert" / str(sample)


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def _observed(run: SimpleNamespace, agent: str, sample: int = 0) -> list[tuple[str, str | None]]:
    rows = run.frame[(run.frame.agent == agent) & (run.frame["sample"] == sample)].sort_values("attempt")
    return [(r.stage, r.failure_class if r.status == "scored" else None) for r in rows.itertuples()]


def _final(run: SimpleNamespace, agent: str, sample: int = 0) -> int:
    return _json(_sample(run, agent, sample) / "final.json")["selected_attempt"]


def test_feedback_repairs_at_attempt_1_and_skips_attempt_2(run):
    assert _observed(run, "fb") == [("attempt-0", "F-Exec"), ("attempt-1", "Pass"), ("attempt-2", None)]
    skipped = _json(_sample(run, "fb") / "2" / "response.json")
    assert skipped["status"] == "skipped" and skipped["calls"] == [] and skipped["reason"] == "attempt 1 passed"
    assert _final(run, "fb") == 1
    # no pass: the executable attempt with the lowest error stands for the sample
    assert _observed(run, "fb", 1) == [("attempt-0", "F-Acc"), ("attempt-1", "F-Acc"), ("attempt-2", "F-Extract")]
    assert _final(run, "fb", 1) == 1


def test_feedback_retry_prompt_layout(run):
    original = "\n\n".join(m["content"] for m in _json(_sample(run, "fb") / "0" / "messages.json")["messages"])
    [message] = _json(_sample(run, "fb") / "1" / "messages.json")["messages"]
    text = message["content"]
    assert message["role"] == "user" and text.startswith("ATTEMPT 2 - FEEDBACK FROM PREVIOUS ATTEMPT")
    code = LONG_BUG.split("```python\n")[1]
    assert "```python\n" + code[:2000].rstrip() + "\n```\n[Truncated: showing the first 2000 of" in text
    assert "raise RuntimeError('boom')" not in text.split("## Feedback")[0]  # the code is cut before its bug
    assert "Category: F-Exec" in text and "RuntimeError: boom" in text  # stderr excerpt
    assert text.count("## Feedback") == 1 and "accuracy check" not in text
    assert text.endswith(original)
    accuracy = _json(_sample(run, "fb", 1) / "1" / "messages.json")["messages"][0]["content"]
    assert "the accuracy check failed" in accuracy and "1.000e+00" in accuracy and "Category" not in accuracy


def test_openai_feedback_asks_only_until_a_pass(run):
    asked = [r for r in run.requests if r["model"] == "fb-model"]
    assert len(asked) == 2
    assert _observed(run, "oai-fb") == [("attempt-0", "F-Exec"), ("attempt-1", "Pass"), ("attempt-2", None)]


def test_role_models_are_routed_as_configured(run):
    routed = []
    for request in run.requests:
        last = request["messages"][-1]["content"]
        if request["model"] != "fb-model":
            role = "consultant" if last.startswith(CONSULTANT) else "reviewer" if REVIEWER in last else "programmer"
            routed.append((role, request["model"]))
    assert sorted(routed) == sorted(
        [("consultant", "small-model"), *[("reviewer", "small-model")] * 2, *[("programmer", "big-model")] * 3]
    )
    for attempt, first in enumerate(["consultant", "reviewer", "reviewer"]):
        response = _json(_sample(run, "oai-re4") / str(attempt) / "response.json")
        calls = [(c["role"], c["model"]) for c in response["calls"]]
        assert calls == [(first, "small-model"), ("programmer", "big-model")]
        assert response["model"] == "big-model" and response["text"] == response["calls"][-1]["text"]
        for name in ("prompt_tokens", "completion_tokens"):
            assert response["usage"][name] == sum(c["usage"][name] for c in response["calls"]) > 0
        assert response["cost_usd"] == pytest.approx(sum(c["cost_usd"] for c in response["calls"]))
    rev1 = _json(_sample(run, "oai-re4") / "1" / "score.json")
    assert rev1["verdict"] == "REVISE" and rev1["stage"] == "rev-1"


def test_re4_on_the_oracle_gives_the_three_stage_table(run):
    assert _observed(run, "oracle-re4") == [("ans-0", "Pass"), ("rev-1", "Pass"), ("rev-2", "Pass")]
    frame = run.frame[run.frame.agent == "oracle-re4"]
    assert list(frame.verdict.fillna("")) == ["", "ACCEPT", "ACCEPT"] and (frame.strategy == "re4").all()
    summary = (run.work / "results" / "summary" / "re4.md").read_text()
    section = summary.split("## Re^4 stages: execution success and error")[1]
    header = "| agent | case | ans-0 exec | ans-0 error | ans-0 pass | rev-1 exec | rev-1 error | rev-1 pass | rev-2"
    assert header in section
    stage = "100.0% (1/1) | 0.00e+00 | 100.0% (1/1)"
    assert f"| oracle-re4 | re4/hilbert | {stage} | {stage} | {stage} |" in section
    assert "| oai-re4 | re4/hilbert |" in section


def test_re4_early_stop_on_accept(run):
    assert _observed(run, "re4-early") == [("ans-0", "F-Acc"), ("rev-1", None), ("rev-2", None)]
    response = _json(_sample(run, "re4-early") / "1" / "response.json")
    assert [c["role"] for c in response["calls"]] == ["reviewer"] and response["verdict"] == "ACCEPT"
    assert _json(_sample(run, "re4-early") / "1" / "score.json")["verdict"] == "ACCEPT"
    assert _final(run, "re4-early") == 0


def test_smrf_stage_counts_and_skips(run):
    stages = ["generate", "correct-1", "correct-2", "correct-3", "refine"]
    expected = {
        0: ["F-Exec", "F-Acc", None, None, "Pass"],
        1: ["Pass", None, None, None, "F-Acc"],
        2: ["F-Exec", "F-Exec", "F-Exec", "F-Exec", None],
    }
    for sample, classes in expected.items():
        assert _observed(run, "smrf", sample) == list(zip(stages, classes, strict=True)), sample
    assert [_final(run, "smrf", s) for s in expected] == [4, 4, 3]
    refine = _json(_sample(run, "smrf") / "4" / "messages.json")["messages"][0]["content"]
    assert "np.zeros(n)" in refine  # attempt 1's program, carried through the skipped corrections
    assert _json(_sample(run, "smrf", 2) / "4" / "response.json")["reason"].startswith("no attempt executed")
    table = (run.work / "results" / "summary" / "re4.md").read_text().split("## Stages")[1]
    assert "| smrf | smrf | 4 | refine | 2 | 1 | 0 | 2 | 1 |" in table


def test_best_of_n_selection_is_blind_to_the_reference(run):
    finals = run.frame[(run.frame.agent == "bon") & run.frame.final].set_index("sample")
    assert list(finals.failure_class) == ["F-Exec", "Pass", "F-Acc"]
    assert finals.loc[1, "stderr_warnings"] > 0 and finals.loc[2, "stderr_warnings"] == 0
    assert list(finals.selected) == [False, False, True]  # executable and quiet beats the one that passed
    assert not run.frame[run.frame.agent != "bon"].selected.any()
    section = (run.work / "results" / "summary" / "re4.md").read_text().split("## Best-of-n selection")[1]
    assert "| bon | re4/hilbert | 3 | 2 | 1 | 2 | F-Acc | no |" in section


def _spellings(value: float, *formats: str) -> set[str]:
    """Ways a hidden number could be printed; zero and small integers are too common to be a leak."""
    if value == 0 or (float(value).is_integer() and abs(value) < 100):
        return set()
    return {repr(value), f"{value:g}", f"{value:.3e}", f"{value:.6g}", *(format(value, f) for f in formats)}


def _prompts(sample: Path) -> list[str]:
    """Every message of every attempt: messages.json and every call kept in response.json."""
    texts = []
    for attempt in sorted(p for p in sample.iterdir() if p.is_dir()):
        texts += [m["content"] for m in _json(attempt / "messages.json").get("messages", [])]
        for call in _json(attempt / "response.json").get("calls", []):
            texts += [m["content"] for m in call["messages"]]
    return texts


def test_no_threshold_or_reference_value_in_any_prompt_unless_leaking(run):
    results = run.work / "results"
    calibration = _json(results / "calibration" / "re4" / "hilbert.json")
    thresholds = calibration["thresholds"]
    assert thresholds == {"accuracy": 1.0e-2, "time": TIME_FLOOR_S}
    hidden = {s for v in thresholds.values() for s in _spellings(v, ".2f")}
    hidden |= _spellings(calibration["e_base"]) | _spellings(calibration["t_base"])
    reference = load_reference(
        results / "references/re4/hilbert/reference.json", results / "references/re4/hilbert/reference.h5"
    )
    hidden |= {s for v in reference.scalars.values() if isinstance(v, float) for s in _spellings(v)}
    for values in reference.fields.values():
        hidden |= {f"{v:.6g}" for v in values.ravel() if abs(v) > 1e-3 and v != 1.0}
    samples = sorted((results / "runs").glob("*/re4/hilbert/*"))
    assert len(samples) == 13
    for sample in samples:
        texts = _prompts(sample)
        assert texts, sample
        found = sorted(s for s in hidden if any(s in text for text in texts))
        if sample.parts[-4] == "fb-leak":
            assert "Pass criteria: error <= 1.000e-02, wall time <= 7.25 s" in "\n".join(texts)
        else:
            assert not found, f"{sample}: hidden values {found}"


def test_scores_carry_strategy_and_stage(run):
    frame = run.frame
    assert set(frame.strategy) == {"feedback", "re4", "smrf", "best_of_n"}
    assert not frame.stage.isna().any()
    csv = pd.read_csv(run.work / "results" / "summary" / "scores.csv")
    assert {"strategy", "stage", "verdict", "executable", "stderr_warnings", "selected"} <= set(csv.columns)
