"""Each suite's paper protocol (suite.yaml ``protocol``) and an agent's ``protocol: paper`` and ``suites``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from openai_server import OpenAIServer
from pipeline import REPO, make_workdir, scores, snakemake

from simcodebench.agents.backends.cache import reply_key
from simcodebench.agents.protocol import paper_setting
from simcodebench.core.cases import load_suite, suite_folders
from simcodebench.core.errors import InputError
from simcodebench.pipeline.plan import Plan

OPENAI = {"backend": "openai", "model": "m", "temperature": 0.7, "max_tokens": 1000}


def _plan(agent: dict, suites: list[str], cases_dir: Path = REPO / "cases") -> Plan:
    """A plan of the first case of each suite for one agent ``a``."""
    first = {
        s: [sorted(p.name for p in (cases_dir / s.split("@")[0]).iterdir() if (p / "case.yaml").is_file())[0]]
        for s in suites
    }
    return Plan.from_config({"suites": suites, "cases": first, "agents": {"a": agent}, "cases_dir": str(cases_dir)})


def test_every_suite_declares_a_valid_paper_protocol():
    for folder in suite_folders(REPO / "cases"):
        suite = load_suite(folder)
        for name in suite.data["protocol"]["settings"]:
            setting = paper_setting(suite, name)
            assert setting["samples"] >= 1 and setting["attempts"] >= 1, (folder.name, name)


@pytest.mark.parametrize(
    ("suite", "strategy", "attempts", "samples", "temperature", "max_tokens"),
    [
        ("fem", "single", 1, 1, 0, 1000),  # the paper gives no token limit: the agent's stays
        ("cfd-code", "single", 1, 1, 0, 8000),
        ("cfd-query", "reask", 3, 1, 0, 1000),
        ("fea", "single", 1, 1, 0.7, 1000),  # FEABench gives no temperature
        ("re4", "re4", 3, 1, 0, 1000),
        ("physics@smoke", "single", 1, 5, 0.1, 4096),
    ],
)
def test_protocol_paper_runs_each_suite_as_its_paper(suite, strategy, attempts, samples, temperature, max_tokens):
    plan = _plan({**OPENAI, "protocol": "paper"}, [suite])
    agent = plan.agent("a", suite)
    assert (agent.strategy.name, agent.attempts) == (strategy, attempts)
    assert (agent.settings.get("temperature"), agent.settings.get("max_tokens")) == (temperature, max_tokens)
    assert len(plan.final_targets()) == samples
    assert len(plan.score_paths("a", suite, next(iter(plan.cases))[1], 0)) == attempts
    assert "protocol" not in agent.settings and "suites" not in agent.settings


def test_default_protocol_keeps_the_agents_own_settings():
    plan = _plan(dict(OPENAI), ["physics@smoke", "cfd-query"])
    for suite in ("physics@smoke", "cfd-query"):
        assert plan.agent("a", suite).settings == OPENAI
    assert len(plan.final_targets()) == 2


def test_per_suite_settings_win_over_the_paper_and_pick_a_named_setting():
    agent = {
        **OPENAI,
        "protocol": "paper",
        "suites": {"physics": {"setting": "smrf", "samples": 2}, "fem": {"setting": "feedback", "temperature": 0.2}},
    }
    plan = _plan(agent, ["physics@smoke", "fem", "cfd-query"])
    physics, fem = plan.agent("a", "physics@smoke"), plan.agent("a", "fem")
    assert (physics.strategy.name, physics.attempts, physics.settings["temperature"]) == ("smrf", 5, 0.1)
    assert (fem.strategy.name, fem.attempts, fem.settings["temperature"]) == ("feedback", 3, 0.2)
    assert len(plan.final_targets()) == 2 + 1 + 1
    assert plan.attempts("physics@smoke") == 5 and plan.attempts("cfd-query") == 3
    # a setting alone implies the paper protocol for that suite; other suites keep the agent's own
    only = _plan({**OPENAI, "suites": {"fea": {"setting": "agent"}}}, ["fea", "cfd-query"])
    assert only.agent("a", "fea").attempts == 40 and only.agent("a", "cfd-query").settings == OPENAI


def test_a_replay_agents_recorded_samples_stay_under_the_paper_protocol(tmp_path):
    case_id = sorted(p.parent.name for p in (REPO / "cases" / "physics").glob("*/case.yaml"))[0]
    replies = tmp_path / "replies.jsonl"
    lines = [{"suite": "physics", "case": case_id, "sample": i, "attempt": 0, "response": "x"} for i in range(3)]
    replies.write_text("".join(json.dumps(line) + "\n" for line in lines))
    plan = _plan({"backend": "replay", "file": str(replies), "samples": "recorded", "protocol": "paper"}, ["physics"])
    effective = plan.agent("a", "physics")
    assert effective.samples(plan.case("physics", case_id)) == 3  # the file's, not the paper's 5
    assert effective.settings["temperature"] == 0.1


def test_roles_of_another_strategy_stay_with_it_and_re4_roles_set_apart():
    roles = {"consultant": {"model": "gpt-4.1-mini"}, "reviewer": {"model": "gpt-4.1-mini", "temperature": 0.3}}
    plan = _plan({**OPENAI, "protocol": "paper", "suites": {"re4": {"roles": roles}}}, ["re4", "physics@smoke"])
    re4 = plan.agent("a", "re4")
    assert re4.role_settings("consultant")["model"] == "gpt-4.1-mini"
    assert re4.role_settings("reviewer")["temperature"] == 0.3 and re4.role_settings("programmer")["model"] == "m"
    assert "roles" not in plan.agent("a", "physics@smoke").settings
    own = _plan({**OPENAI, "strategy": "re4", "early_stop": True, "roles": roles, "protocol": "paper"}, ["cfd-query"])
    assert {"roles", "early_stop"}.isdisjoint(own.agent("a", "cfd-query").settings)


def test_the_reply_cache_key_follows_the_effective_settings():
    plan = _plan({**OPENAI, "protocol": "paper"}, ["cfd-code"])
    own = _plan(dict(OPENAI), ["cfd-code"])
    messages = [{"role": "user", "content": "q"}]
    paper_key = reply_key(plan.agent("a", "cfd-code").role_settings("programmer"), messages, 0, 0)
    own_key = reply_key(own.agent("a", "cfd-code").role_settings("programmer"), messages, 0, 0)
    assert paper_key != own_key
    # an override for a suite not run leaves the key alone
    other = _plan({**OPENAI, "suites": {"fem": {"samples": 4}}}, ["cfd-code"])
    assert reply_key(other.agent("a", "cfd-code").role_settings("programmer"), messages, 0, 0) == own_key


@pytest.mark.parametrize(
    ("agent", "field"),
    [
        ({"protocol": "papers"}, "agents.a.protocol"),
        ({"suites": {"nosuch": {"samples": 2}}}, "agents.a.suites.nosuch"),
        ({"suites": {"fem": {"model": "x"}}}, "agents.a.suites.fem.model"),
        ({"suites": {"fem": {"setting": "agent"}}}, "protocol.settings"),
        ({"suites": {"physics": {"strategy": "smrf", "attempts": 1}}}, "agents.a.suites.physics@smoke.attempts"),
        ({"suites": {"fem": {"roles": {"consultant": {"model": "x"}}}}}, "agents.a.suites.fem.roles.consultant"),
    ],
)
def test_bad_protocol_keys_are_one_clear_line(agent, field):
    with pytest.raises(InputError) as error:
        _plan({**OPENAI, **agent}, ["fem", "physics@smoke"])
    assert error.value.field == field


def test_a_suite_protocol_that_names_no_setting_is_an_input_error(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(REPO / "cases" / "cfd-query", cases / "cfd-query")
    suite_file = cases / "cfd-query" / "suite.yaml"
    data = yaml.safe_load(suite_file.read_text())
    data["protocol"]["default"] = "agent"
    suite_file.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError) as error:
        _plan({**OPENAI, "protocol": "paper"}, ["cfd-query"], cases)
    assert (error.value.field, Path(error.value.file)) == ("protocol.default", suite_file)
    del data["protocol"]["settings"]
    suite_file.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError, match="protocol"):
        _plan({**OPENAI, "protocol": "paper"}, ["cfd-query"], cases)


@pytest.mark.slow
def test_requests_carry_each_agents_effective_settings(tmp_path):
    """Two agents on cfd-query over HTTP: the paper's (three tries at temperature 0 while the reply cannot be
    parsed) and one with its own per-suite samples and temperature."""
    with OpenAIServer(responder=lambda request: "I am not sure.") as server:
        agents = {
            "paper": {**OPENAI, "model": "paper-model", "base_url": server.url, "protocol": "paper"},
            "own": {**OPENAI, "model": "own-model", "base_url": server.url, "suites": {"cfd-query": {"samples": 2}}},
        }
        for agent in agents.values():
            agent.update(api_key_env=None, backoff_s=0.01)
        work = make_workdir(tmp_path, {"suites": ["cfd-query"], "cases": {"cfd-query": ["q01"]}, "agents": agents})
        snakemake(work)
    by_model: dict[str, list[dict]] = {}
    for request in server.requests:
        by_model.setdefault(request.json["model"], []).append(request.json)
    assert len(by_model["paper-model"]) == 3  # one sample, three tries
    assert {(r["temperature"], r["max_tokens"]) for r in by_model["paper-model"]} == {(0, 1000)}
    assert len(by_model["own-model"]) == 2  # two samples, one try each
    assert {(r["temperature"], r["max_tokens"]) for r in by_model["own-model"]} == {(0.7, 1000)}
    frame = scores(work)
    finals = frame[frame["final"]]
    assert sorted(finals.groupby("agent").size().items()) == [("own", 2), ("paper", 1)]
    assert sorted(frame[frame.agent == "paper"].attempt) == [0, 1, 2]
