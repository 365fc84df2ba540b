"""Strategies without the workflow: prompt layouts, skips and carries, selections, role routing, validation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simcodebench.agents.backends.cache import reply_key
from simcodebench.agents.backends.replay import replay_reply
from simcodebench.agents.generation import generate
from simcodebench.agents.prompts import render_messages
from simcodebench.agents.settings import Agent, load_agents
from simcodebench.agents.strategies import STRATEGIES, get_strategy
from simcodebench.agents.strategies.base import TRUNCATION_MARKER, Previous, fill, template, truncate_middle
from simcodebench.agents.strategies.best_of_n import select_sample
from simcodebench.agents.strategies.re4 import verdict
from simcodebench.core.cases import Case, load_suite_cases
from simcodebench.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]
STDERR = "Traceback (most recent call last):\n  File solution.py, line 9\nRuntimeError: boom, a deliberate bug\n"
LONG_CODE = "# padding line of a long program\n" * 80 + "raise RuntimeError('boom, a deliberate bug')\n"


@pytest.fixture(scope="module")
def hilbert() -> Case:
    return next(c for c in load_suite_cases(REPO / "cases" / "re4") if c.id == "hilbert")


def _score(attempt: int, failure: str | None, **extra: Any) -> dict[str, Any]:
    skipped = failure is None
    return {
        "attempt": attempt,
        "status": "skipped" if skipped else "scored",
        "failure_class": failure,
        "passed": failure == "Pass",
        "executable": failure in ("Pass", "F-Acc", "F-Time"),
        "error": extra.pop("error", 0.5 if failure in ("Pass", "F-Acc", "F-Time") else None),
        "tau_acc": 1.0e-2,
        "tau_time": 12.5,
        "visible_detail": "",
        "message": "",
        **extra,
    }


def _previous(tmp_path: Path, attempt: int, failure: str | None, text: str | None = None, **extra: Any) -> Previous:
    """Attempt ``attempt`` as files would give it; its run printed STDERR when it ran."""
    run_dir = tmp_path / str(attempt) / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    if failure is not None:
        (run_dir / "stdout.txt").write_text("n = 5: error 1e-3\n")
        (run_dir / "stderr.txt").write_text(STDERR)
    carry = extra.pop("carry", {})
    response = {"status": "ok" if text else "skipped", "text": text, "carry": carry}
    return Previous({"messages": []}, response, _score(attempt, failure, **extra), run_dir)


def _fenced(code: str) -> str:
    return f"Here it is.\n\n```python\n{code}```\n"


# ---------------------------------------------------------------- feedback (PDEAgent-Bench)


def test_feedback_retry_is_one_user_message_in_order(hilbert, tmp_path):
    previous = _previous(
        tmp_path,
        0,
        "F-Exec",
        _fenced(LONG_CODE),
        visible_detail=f"exited with code 1\nstderr (last 1500 characters):\n{STDERR}",
    )
    payload = get_strategy("feedback").prepare(hilbert, 1, previous, {"strategy": "feedback"})
    assert payload["calls"] == ["programmer"] and payload["stage"] == "attempt-1"
    [message] = payload["messages"]
    assert message["role"] == "user"
    text = message["content"]
    assert text.startswith("ATTEMPT 2 - FEEDBACK FROM PREVIOUS ATTEMPT")
    code_start = text.index("```python\n") + len("```python\n")
    assert text[code_start:].startswith(LONG_CODE[:2000].rstrip() + "\n```")
    assert f"showing the first 2000 of {len(LONG_CODE)} characters" in text
    assert "raise RuntimeError" not in text  # past the 2000 characters
    assert "Category: F-Exec" in text and "RuntimeError: boom, a deliberate bug" in text
    assert text.count("## Feedback") == 1 and "accuracy check" not in text and "time check" not in text
    original = "\n\n".join(m["content"] for m in render_messages(hilbert))
    assert text.endswith(original)
    assert text.index("## Previous code") < text.index("## Feedback") < text.index("## Original task")
    assert "1.000e-02" not in text and "12.50" not in text and "Pass criteria" not in text


@pytest.mark.parametrize(
    ("failure", "own", "gate"), [("F-Acc", "is 3.000e-01", "accuracy"), ("F-Time", "took 40.00 s", "time")]
)
def test_feedback_shows_own_numbers_and_thresholds_only_when_leaking(hilbert, tmp_path, failure, own, gate):
    detail = {"F-Acc": "the error of your solution is 3.000e-01", "F-Time": "your solution took 40.00 s"}[failure]
    previous = _previous(tmp_path, 0, failure, _fenced("print(1)\n"), visible_detail=detail)
    hidden = get_strategy("feedback").prepare(hilbert, 1, previous, {})["messages"][0]["content"]
    assert own in hidden and f"the {gate} check failed" in hidden and "Category:" not in hidden
    assert "Truncated" not in hidden
    assert "1.000e-02" not in hidden and "12.50" not in hidden
    leaked = get_strategy("feedback").prepare(hilbert, 1, previous, {"leak_thresholds": True})
    assert "Pass criteria: error <= 1.000e-02, wall time <= 12.50 s" in leaked["messages"][0]["content"]


def test_feedback_skips_after_a_pass_and_selects_as_released(hilbert, tmp_path):
    feedback = get_strategy("feedback")
    payload = feedback.prepare(hilbert, 2, _previous(tmp_path, 1, "Pass", _fenced("x")), {})
    assert payload == {
        "skipped": True,
        "strategy": "feedback",
        "stage": "attempt-2",
        "reason": "attempt 1 passed",
        "carry": {},
    }
    chain = [_score(0, "F-Acc", error=0.5), _score(1, "F-Acc", error=0.2), _score(2, "F-Exec")]
    assert feedback.select_attempt(chain)["attempt"] == 1  # executable with the lowest error
    assert feedback.select_attempt([_score(0, "F-Acc"), _score(1, "Pass"), _score(2, None)])["attempt"] == 1
    assert feedback.select_attempt([_score(0, "F-Exec"), _score(1, "F-Extract")])["attempt"] == 1
    assert get_strategy("single").select_attempt(chain)["attempt"] == 2


# ---------------------------------------------------------------- Re^4


def test_re4_run_report_is_cut_800_plus_800():
    text = "a" * 900 + "b" * 900
    cut = truncate_middle(text)
    assert cut == "a" * 800 + f"\n{TRUNCATION_MARKER}\n" + "b" * 800
    assert TRUNCATION_MARKER == "[Truncated: Content too long...]"
    assert truncate_middle("short") == "short"


def test_re4_verdicts():
    assert verdict("Decision: **REVISE**\nThe scheme is unstable; ACCEPT it once fixed.") == "REVISE"
    assert verdict("Results are reasonable. ACCEPT") == "ACCEPT"
    assert verdict("I would accept or revise") == "UNCLEAR"
    assert verdict(None) == "UNCLEAR"


def test_re4_templates_are_the_papers(hilbert):
    assert template("re4/consultant.md").startswith(
        "[Role] You are a distinguished Mathematical Consultant and Numerical Analyst."
    )
    assert "[Consultant expansion]" not in template("re4/programmer_revise.md")
    assert "if results are reasonable, **ACCEPT** it" in template("re4/reviewer.md")
    with pytest.raises(KeyError, match="lacks"):
        fill(template("re4/consultant.md"), {"< *Advice to Algorithm and Debug* >": ""})


def test_re4_on_the_oracle_calls_every_role(hilbert, tmp_path):
    agent = Agent("o", {"backend": "oracle", "strategy": "re4"})
    payload = agent.strategy.prepare(hilbert, 0, None, agent.settings)
    record = generate(agent, hilbert, 0, 0, payload, tmp_path / "cache")
    assert [c["role"] for c in record["calls"]] == ["consultant", "programmer"]
    assert record["stage"] == "ans-0" and record["text"].startswith("```python")
    expansion = record["calls"][0]["text"]
    assert record["carry"] == {"expansion": expansion}
    assert expansion in record["calls"][1]["messages"][0]["content"]
    assert hilbert.visible.problem.strip()[:60] in record["calls"][0]["messages"][0]["content"]

    previous = _previous(tmp_path, 0, "Pass", record["text"], carry=record["carry"])
    payload = agent.strategy.prepare(hilbert, 1, previous, agent.settings)
    assert payload["calls"] == ["reviewer", "programmer"] and payload["stage"] == "rev-1"
    review_prompt = payload["messages"][0]["content"]
    assert expansion in review_prompt and "RuntimeError: boom" in review_prompt
    record = generate(agent, hilbert, 0, 1, payload, tmp_path / "cache")
    assert record["verdict"] == "ACCEPT" and record["status"] == "ok"
    revise_prompt = record["calls"][1]["messages"][0]["content"]
    assert expansion not in revise_prompt and "[Reviewer comments]" in revise_prompt

    early = Agent("e", {"backend": "oracle", "strategy": "re4", "early_stop": True})
    payload = early.strategy.prepare(hilbert, 1, previous, early.settings)
    record = generate(early, hilbert, 0, 1, payload, tmp_path / "cache")
    assert record["status"] == "skipped" and [c["role"] for c in record["calls"]] == ["reviewer"]
    assert record["reason"] == "the Reviewer accepted attempt 0" and record["verdict"] == "ACCEPT"


# ---------------------------------------------------------------- SMRF


def test_smrf_corrects_then_refines_the_first_executable_attempt(hilbert, tmp_path):
    smrf = get_strategy("smrf")
    assert [smrf.stage(a, 5) for a in range(5)] == ["generate", "correct-1", "correct-2", "correct-3", "refine"]
    failed = _previous(tmp_path, 0, "F-Exec", _fenced("raise SystemExit(3)\n"))
    payload = smrf.prepare(hilbert, 1, failed, {})
    assert payload["calls"] == ["corrector"] and "raise SystemExit(3)" in payload["messages"][0]["content"]
    assert "Failed check: F-Exec" in payload["messages"][0]["content"]

    runs = _previous(tmp_path, 1, "F-Acc", _fenced("print('works')\n"))
    skip = smrf.prepare(hilbert, 2, runs, {})
    assert skip["skipped"] and skip["reason"] == "attempt 1 executes"
    assert skip["carry"]["refine"]["code"] == "print('works')\n"
    skipped = _previous(tmp_path, 2, None, carry=skip["carry"], message=skip["reason"])
    again = smrf.prepare(hilbert, 3, skipped, {})
    assert again["skipped"] and again["carry"] == skip["carry"]
    refine = smrf.prepare(hilbert, 4, _previous(tmp_path, 3, None, carry=again["carry"], message="x"), {})
    assert refine["calls"] == ["refiner"] and "print('works')" in refine["messages"][0]["content"]

    never = smrf.prepare(hilbert, 4, _previous(tmp_path, 3, "F-Exec", _fenced("1/0\n")), {})
    assert never["skipped"] and never["reason"] == "no attempt executed after 3 correction(s)"
    two = smrf.prepare(hilbert, 1, runs, {"attempts": 2})
    assert two["stage"] == "refine" and two["calls"] == ["refiner"]


# ---------------------------------------------------------------- best-of-n


def test_best_of_n_selection_is_blind_to_the_reference():
    candidates = [
        {"sample": 0, "executable": False, "stderr_warnings": 0, "wall_s": 0.1, "passed": False, "error": None},
        {"sample": 1, "executable": True, "stderr_warnings": 2, "wall_s": 0.5, "passed": True, "error": 1e-9},
        {"sample": 2, "executable": True, "stderr_warnings": 0, "wall_s": 0.9, "passed": False, "error": 0.7},
        {"sample": 3, "executable": True, "stderr_warnings": 0, "wall_s": 0.4, "passed": False, "error": 0.9},
    ]
    assert select_sample(candidates) == 3
    flipped = [{**c, "passed": not c["passed"], "error": 1.0 - (c["error"] or 0.0)} for c in candidates]
    assert select_sample(flipped) == 3  # what the reference says changes nothing
    assert select_sample([{"sample": 4, "executable": None, "stderr_warnings": None, "wall_s": float("nan")}]) == 4


# ---------------------------------------------------------------- roles, replay, cache, config


def test_role_settings_merge_over_the_agent():
    agent = Agent(
        "a",
        {
            "backend": "openai",
            "model": "big",
            "temperature": 0.2,
            "strategy": "re4",
            "roles": {"consultant": {"model": "small"}},
        },
    )
    assert agent.role_settings("consultant") == {
        "backend": "openai",
        "model": "small",
        "temperature": 0.2,
        "strategy": "re4",
    }
    assert agent.role_settings("programmer")["model"] == "big"
    assert agent.attempts == 3 and Agent("b", {"backend": "oracle"}).attempts == 1
    key = reply_key(agent.role_settings("programmer"), [], 0, 0, "programmer")
    assert key != reply_key(agent.role_settings("programmer"), [], 0, 0, "reviewer")
    assert key == reply_key({**agent.role_settings("programmer"), "attempts": 7, "early_stop": True}, [], 0, 0)


def test_replay_lines_name_their_role(tmp_path):
    path = tmp_path / "replies.jsonl"
    lines = [
        {"suite": "s", "case": "c", "sample": 0, "attempt": 0, "response": "code"},
        {"suite": "s", "case": "c", "sample": 0, "attempt": 0, "role": "consultant", "response": "plan"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert replay_reply(path, "s", "c", 0, 0)["response"] == "code"
    assert replay_reply(path, "s", "c", 0, 0, "consultant", writes_code=False)["response"] == "plan"
    assert replay_reply(path, "s", "c", 0, 0, "corrector", writes_code=True)["response"] == "code"
    assert replay_reply(path, "s", "c", 0, 0, "reviewer", writes_code=False) is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"strategy": "tree"}, "field 'agents.x.strategy': 'tree' is not a strategy"),
        ({"strategy": "feedback", "roles": {"reviewer": {}}}, "'agents.x.roles.reviewer': is not a role of"),
        ({"strategy": "re4", "leak_thresholds": True}, "'agents.x.leak_thresholds': has no effect"),
        ({"early_stop": True}, "fix: use strategy: re4"),
        ({"strategy": "smrf", "attempts": 1}, "strategy 'smrf' needs at least 2"),
    ],
)
def test_bad_strategy_settings_are_one_clear_line(settings, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        load_agents({"agents": {"x": {"backend": "oracle", **settings}}})


def test_registry():
    assert {"single", "feedback", "re4", "smrf", "best_of_n"} <= set(STRATEGIES)
    with pytest.raises(KeyError, match="known"):
        get_strategy("nope")
