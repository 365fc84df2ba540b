"""SMRF's ablation rows (PhysCodeBench): ``without: [refiner]`` and ``without: [corrector]`` as agent options."""

from __future__ import annotations

import pytest
from test_strategies import _fenced, _previous, hilbert  # noqa: F401  (hilbert is a fixture)

from simcodebench.agents.settings import load_agents
from simcodebench.agents.strategies import get_strategy
from simcodebench.core.errors import InputError

SMRF = get_strategy("smrf")


def test_the_default_attempts_follow_the_stages_left():
    assert SMRF.attempts({}) == 5
    assert SMRF.attempts({"without": ["refiner"]}) == 4
    assert SMRF.attempts({"without": ["corrector"]}) == 2
    assert SMRF.attempts({"without": ["refiner"], "attempts": 6}) == 6


def test_without_the_refiner_every_later_slot_corrects(hilbert, tmp_path):  # noqa: F811
    settings = {"without": ["refiner"]}
    failed = _previous(tmp_path, 2, "F-Exec", _fenced("raise SystemExit(3)\n"))
    last = SMRF.prepare(hilbert, 3, failed, settings)
    assert last["stage"] == "correct-3" and last["calls"] == ["corrector"]
    runs = _previous(tmp_path, 1, "F-Acc", _fenced("print('works')\n"))
    skip = SMRF.prepare(hilbert, 3, runs, settings)
    assert skip["skipped"] and skip["stage"] == "correct-3" and skip["reason"] == "attempt 1 executes"


def test_without_the_corrector_the_refiner_follows_the_generator(hilbert, tmp_path):  # noqa: F811
    settings = {"without": ["corrector"]}
    runs = _previous(tmp_path, 0, "F-Acc", _fenced("print('works')\n"))
    refine = SMRF.prepare(hilbert, 1, runs, settings)
    assert refine["stage"] == "refine" and refine["calls"] == ["refiner"]
    assert "print('works')" in refine["messages"][0]["content"]
    failed = _previous(tmp_path, 0, "F-Exec", _fenced("raise SystemExit(3)\n"))
    never = SMRF.prepare(hilbert, 1, failed, settings)
    assert never["skipped"] and never["reason"] == "no attempt executed after 0 correction(s)"
    # with more slots than it needs, the middle ones are skipped, never corrected
    middle = SMRF.prepare(hilbert, 1, failed, {**settings, "attempts": 3})
    assert middle["skipped"] and "the Corrector is left out" in middle["reason"]
    assert SMRF.prepare(hilbert, 2, _previous(tmp_path, 1, None, message="x"), {**settings, "attempts": 3})["skipped"]


def test_without_belongs_to_smrf():
    def load(agent):
        return load_agents({"agents": {"a": agent}})

    assert load({"backend": "oracle", "strategy": "smrf", "without": ["refiner"]})["a"].attempts == 4
    with pytest.raises(InputError, match="has no effect with strategy 'single'"):
        load({"backend": "oracle", "without": ["refiner"]})
