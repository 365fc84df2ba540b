"""End to end: the physics suite through the real workflow on ``physics@smoke`` (real Genesis, CPU).

A Genesis run in a fresh process costs about a minute of CPU here (import, build, render), so this module runs
few: the oracle of ``ball_drop`` (also timed once by the calibration, which sets S_exec's limit) and its
``api-misuse`` mutant (it fails at once); then, reusing ball_drop's calibration,
SMRF with scripted replies on ``ball_drop``: a Generator reply with an API error (``friction_coef``), a
correction that runs but simulates gravity 50 m/s^2 (F-Acc, as the ``gravity-50`` mutant), and a refinement
that is the oracle (Pass); and the ablation without the Corrector (the same Generator reply, from the reply
cache). Every mutant of the rigid cases lands in its class in the in-session test
``test_physics_runner.py::test_the_oracle_passes_and_each_mutant_lands_in_its_class``.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from missing import require_or_skip
from openai_server import OpenAIServer
from pipeline import make_workdir, scores, snakemake

from simcodebench.core.cases import get_case
from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.environments import get_environment
from simcodebench.suites.physics import scorer

pytestmark = pytest.mark.slow

SUITE = "physics@smoke"
ORACLE = scorer.oracle_source(get_case(SUITE, "ball_drop"))
API_ERROR = ORACLE.replace("gs.materials.Rigid(", "gs.materials.Rigid(friction_coef=0.5, ")
TIMEOUT_S = 3600  # each run stops at its wall_s; a loaded machine makes a minute of CPU take ten
HEAVY = ORACLE.replace("gravity=(0.0, 0.0, -9.81)", "gravity=(0.0, 0.0, -50.0)")


def reply(source: str) -> str:
    return f"Here is the script.\n\n```python\n{source.rstrip()}\n```\n"


def keep_mutants(work, names: list[str]) -> None:
    """Keep only ``names`` among the suite's mutants in the working copy of the cases, give a run 15 minutes
    before it is killed (a minute of CPU can take several on this shared machine), and ask for a GPU, as the full
    cases do: where there is none, the runs go on on the CPU."""
    suite_file = work / "cases" / "physics" / "suite.yaml"
    suite = yaml.safe_load(suite_file.read_text())
    suite["mutants"] = [m for m in suite["mutants"] if m["name"] in names]
    suite["variants"]["smoke"]["defaults"]["resources"]["wall_s"] = 900
    suite["variants"]["smoke"]["defaults"]["resources"]["gpu"] = 1  # as a full case asks; no GPU here
    suite_file.write_text(yaml.safe_dump(suite, sort_keys=False))
    for case_file in suite_file.parent.glob("*/case.yaml"):  # a case's overrides of the mutants left out go too
        case = yaml.safe_load(case_file.read_text())
        overrides = case.get("hidden", {}).get("mutants")
        if overrides:
            case["hidden"]["mutants"] = {name: args for name, args in overrides.items() if name in names}
            case_file.write_text(yaml.safe_dump(case, sort_keys=False))


def respond(request: dict[str, Any]) -> str:
    """The SMRF roles, told apart by their templates: the Generator errs, the Corrector runs, the Refiner fixes."""
    text = request["messages"][-1]["content"]
    if text.startswith("[Role] You are the Error Corrector"):
        return reply(HEAVY)
    if text.startswith("[Role] You are the Solution Refiner"):
        return reply(ORACLE)
    return reply(API_ERROR)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    try:
        get_environment("genesis")
    except InfrastructureError as exc:
        require_or_skip("genesis", f"the genesis environment is not provisioned: {exc}")
    tmp = tmp_path_factory.mktemp("physics")
    one = {"suites": [SUITE], "cases": {SUITE: ["ball_drop"]}}
    agents = {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}}
    work = make_workdir(tmp, {**one, "agents": agents})
    keep_mutants(work, ["api-misuse"])
    snakemake(work, timeout=TIMEOUT_S)
    judged = scores(work)
    with OpenAIServer(responder=respond) as server:
        smrf = {
            "backend": "openai",
            "base_url": server.url,
            "api_key_env": None,
            "backoff_s": 0.01,
            "model": "physics-model",
            "strategy": "smrf",
        }
        ablation = {**smrf, "without": ["corrector"]}  # the paper's row without the Corrector
        agents = {"smrf": smrf, "smrf-no-corrector": ablation}
        config = {"suites": [SUITE], "cases": {SUITE: ["ball_drop"]}, "agents": agents}
        (work / "config" / "config.yaml").write_text(yaml.safe_dump({"cases_dir": str(work / "cases"), **config}))
        snakemake(work, timeout=TIMEOUT_S)
    return SimpleNamespace(work=work, judged=judged, smrf=scores(work), requests=[r.json for r in server.requests])


def _metrics(row) -> dict[str, float]:
    return json.loads(row.metrics)


def _stages(frame) -> list[tuple[str, str, str | None]]:
    """(stage, status, failure class) per attempt; a skipped attempt has no class (NaN in scores.csv)."""
    classes = [c if isinstance(c, str) else None for c in frame.failure_class]
    return list(zip(frame.stage, frame.status, classes, strict=True))


def test_the_oracle_passes_with_full_code_and_physics_scores(run):
    oracles = run.judged[(run.judged.agent == "oracle") & run.judged.final].set_index("case")
    assert list(oracles.failure_class) == ["Pass"], oracles.message
    for case in ("ball_drop",):
        metrics = _metrics(oracles.loc[case])
        assert (metrics["s_exec"], metrics["s_file"], metrics["physics"]) == (25.0, 25.0, 100.0)
        calibration = json.loads((run.work / "results" / "calibration" / SUITE / f"{case}.json").read_text())
        assert len(calibration["wall_times"]) == 1  # one timed oracle run
        assert calibration["thresholds"]["time"] == pytest.approx(max(3 * calibration["t_base"], 120.0))
        assert oracles.loc[case].tau_time == calibration["thresholds"]["time"]
        run_dir = run.work / "results" / "runs" / "oracle" / SUITE / case / "0" / "0" / "run"
        recorded = json.loads((run_dir / "simcodebench_physics.json").read_text())
        assert recorded["backend"] == {"requested": "gpu", "used": "cpu"}  # the oracle asks gs.gpu; none here


def test_each_mutant_lands_in_its_class(run):
    mutants = run.judged[(run.judged.agent == "mutants") & run.judged.final]
    assert len(mutants) == 1
    assert (mutants.failure_class == mutants.declared_class).all(), mutants[["case", "mutant", "message"]]
    assert all(_metrics(r)["s_exec"] == 0.0 for r in mutants.itertuples())


def test_smrf_corrects_on_the_real_traceback_then_refines(run):
    smrf = run.smrf[run.smrf.agent == "smrf"].sort_values("attempt")
    stages = _stages(smrf)
    assert stages == [
        ("generate", "scored", "F-Exec"),
        ("correct-1", "scored", "F-Acc"),
        ("correct-2", "skipped", None),
        ("correct-3", "skipped", None),
        ("refine", "scored", "Pass"),
    ], stages
    scored = smrf[smrf.status == "scored"]
    physics = [_metrics(r).get("physics") for r in scored.itertuples()]
    code = [_metrics(r)["code"] for r in scored.itertuples()]
    assert code == [0.0, 50.0, 50.0]  # every stage scored: the failed run earns nothing
    assert physics[0] is None and physics[1] < 100.0 and physics[2] == 100.0
    assert smrf[smrf.final].stage.tolist() == ["refine"]
    [corrector] = [r for r in run.requests if r["messages"][-1]["content"].startswith("[Role] You are the Error")]
    seen = corrector["messages"][-1]["content"]
    # Genesis's own traceback of the Generator's reply, from the run's stderr
    assert "Traceback (most recent call last)" in seen and "friction_coef" in seen, seen[-3000:]
    assert "Failed check: F-Exec" in seen


def test_without_the_corrector_nothing_is_corrected(run):
    ablation = run.smrf[run.smrf.agent == "smrf-no-corrector"].sort_values("attempt")
    stages = _stages(ablation)
    assert stages == [("generate", "scored", "F-Exec"), ("refine", "skipped", None)], stages
    assert ablation[ablation.final].stage.tolist() == ["generate"]


def test_the_report_has_table_1_and_frame_strips(run):
    page = (run.work / "results" / "summary" / f"{SUITE}.md").read_text()
    assert "As PhysCodeBench Table 1" in page and "| Code (/50) | Visual (/50) | Total (/100) |" in page
    assert f"| smrf | {SUITE} | 1 (1 cases) | 50.0 | " + " | ".join(["not computed"] * 8) + " |" in page
    assert f"| smrf | {SUITE} | 50.0 | — | 50.0 | — | — | — | 100.0 |" in page  # Code (/50) by case, Physics
    strip = run.work / "results" / "summary" / "fields" / f"smrf__{SUITE}__ball_drop.png"
    assert strip.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
