"""Progress and budget (issue 26, item 5): ``results/status.json`` while a run goes, and ``max_cost_usd``, which
stops an agent's new requests; a run with a higher budget asks only the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from openai_server import OpenAIServer, ok
from pipeline import make_workdir, scores, snakemake

from simcodebench.agents import budget
from simcodebench.agents.settings import load_agents
from simcodebench.core.errors import InputError
from simcodebench.core.io import write_json
from simcodebench.pipeline import status
from simcodebench.pipeline.plan import Plan

CASES = ["q01", "q02", "q03", "q04", "q05"]
USAGE = {"prompt_tokens": 1000, "completion_tokens": 1000, "total_tokens": 2000}
PRICE = {"prompt_per_1m": 1.0, "completion_per_1m": 1.0}  # $0.002 a request


def _agent(url: str, max_cost_usd: float) -> dict:
    return {
        "backend": "openai",
        "base_url": url,
        "model": "m",
        "api_key_env": None,
        "price": PRICE,
        "max_cost_usd": max_cost_usd,
    }


def _status(work) -> dict:
    return json.loads((work / "results" / "status.json").read_text())


def _check_status_matches_scores(work) -> dict:
    """status.json's row agrees with scores.csv; the row is returned."""
    (row,) = _status(work)["rows"]
    frame = scores(work)
    ran = ~frame.failure_class.isin(["F-Budget", "F-NoResponse", "F-Context", "F-Extract"])
    assert row["planned"] == row["samples"] == len(CASES) == len(frame)
    assert row["not_asked_budget"] == int(frame.failure_class.eq("F-Budget").sum())
    assert row["asked"] == len(frame) - row["not_asked_budget"]
    assert row["executed"] == int(ran.sum())
    assert row["passed"] == row["samples_passed"] == int(frame.failure_class.eq("Pass").sum())
    assert row["prompt_tokens"] == row["completion_tokens"] == 1000 * row["asked"]
    assert row["cost_usd"] == pytest.approx(0.002 * row["asked"])
    return row


@pytest.mark.slow
def test_the_budget_stops_requests_and_a_higher_budget_asks_only_the_rest(tmp_path):
    with OpenAIServer(default=ok(text="The answer is 2.", usage=USAGE)) as server:
        config = {"suites": ["cfd-query"], "cases": {"cfd-query": CASES}, "agents": {"paid": _agent(server.url, 0.005)}}
        work = make_workdir(tmp_path, config)
        result = snakemake(work, "--resources", "llm_openai=1")
        assert server.count == 3  # $0.004 spent is under $0.005, $0.006 is not: two samples are not asked
        frame = scores(work)
        assert frame.failure_class.eq("F-Budget").sum() == 2
        summary = (work / "results" / "summary" / "summary.md").read_text()
        assert "**paid**: stopped by its budget after $0.0060 spent (max_cost_usd $0.005)" in summary
        assert "2 samples not asked (cfd-query 2)" in summary
        row = _check_status_matches_scores(work)
        assert row["asked"] == 3
        assert _status(work)["agents"]["paid"] == {"max_cost_usd": 0.005, "spent_usd": 0.006, "budget": "stopped"}
        assert "status: paid/cfd-query asked 3/5" in result.stderr

        snakemake(work, "--resources", "llm_openai=1")  # the same budget: nothing more is asked
        assert server.count == 3

        config["agents"]["paid"]["max_cost_usd"] = 1.0
        (work / "config" / "config.yaml").write_text(
            yaml.safe_dump({**yaml.safe_load((work / "config" / "config.yaml").read_text()), **config})
        )
        snakemake(work, "--resources", "llm_openai=1")
        assert server.count == 5  # only the two left
    frame = scores(work)
    assert not frame.failure_class.eq("F-Budget").any()
    assert "stopped by its budget" not in (work / "results" / "summary" / "summary.md").read_text()
    row = _check_status_matches_scores(work)
    assert row["asked"] == 5
    assert _status(work)["agents"]["paid"]["budget"] == "within"


def test_the_ledger_sums_every_charge_and_skips_a_cut_line(tmp_path):
    ledger = tmp_path / "spend" / "a.jsonl"
    assert budget.spent(ledger) == 0.0
    budget.charge(ledger, 0.25, "k1")
    budget.charge(ledger, 0.5, "k2")
    with ledger.open("a") as handle:
        handle.write('{"cost_usd": 0.1')  # a crash mid-line
    assert budget.spent(ledger) == pytest.approx(0.75)
    settings = {"max_cost_usd": 0.75}
    assert not budget.within(settings, ledger)
    assert budget.stop_reason(settings, ledger) == (
        "not asked: stopped by its budget after $0.7500 spent (max_cost_usd $0.75)"
    )
    assert budget.stopped_marker(ledger).is_file()
    assert budget.stop_reason({"max_cost_usd": 1.0}, ledger) is None


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"backend": "oracle", "max_cost_usd": 1.0}, "is set on a oracle agent"),
        ({"backend": "openai", "model": "m", "max_cost_usd": 1.0}, "the agent has no price"),
    ],
)
def test_a_budget_needs_a_priced_openai_agent(settings, problem):
    with pytest.raises(InputError) as error:
        load_agents({"agents": {"a": settings}}, "my.yaml")
    message = str(error.value)
    assert "my.yaml" in message and "agents.a.max_cost_usd" in message and problem in message


def test_the_status_counts_finished_job_records_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # results/ of this plan
    agents = {"paid": {"backend": "openai", "model": "m", "samples": 2, "price": PRICE, "max_cost_usd": 0.001}}
    plan = Plan.from_config({"suites": ["cfd-query"], "cases": {"cfd-query": CASES[:3]}, "agents": agents})
    (row,) = status.collect(plan)["rows"]
    assert row["samples"] == row["planned"] == 6
    assert row["asked"] == row["executed"] == row["passed"] == row["cost_usd"] == 0
    assert status.collect(plan)["agents"]["paid"] == {"max_cost_usd": 0.001, "spent_usd": 0.0, "budget": "within"}
    (batch, members), *_ = plan.batches("cfd-query", 0).items()
    states = ["ok", "budget", "skipped"]
    asked = [
        {"agent": a, "case": c, "sample": i, "status": states[n % 3], "prompt_tokens": 7, "cost_usd": 0.5}
        for n, (a, c, i) in enumerate(members)
    ]
    write_json(Path(plan.layout.ask_record("cfd-query", 0, batch)), {"members": asked})
    budget.charge(Path(plan.layout.spend_ledger("paid")), 0.002, "k")
    now = status.refresh(plan, force=True)
    assert now == json.loads(Path(plan.layout.status).read_text()) | {"updated_at": now["updated_at"]}
    (row,) = now["rows"]
    assert (row["asked"], row["not_asked_budget"], row["skipped"]) == (2, 2, 2)
    assert row["prompt_tokens"] == 42 and row["cost_usd"] == 3.0 and row["executed"] == 0
    assert now["agents"]["paid"]["budget"] == "stopped"
    assert status.line(now) == "status: paid/cfd-query asked 2/6 exec 0 pass 0 tok 42+0 $3.0000 budget stopped"
    assert status.refresh(plan) is None  # too soon after the last one
