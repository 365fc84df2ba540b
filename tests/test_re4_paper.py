"""re4@paper (the released Re^4 protocol and its execution-success metric), Re^4's stage tables and the
transcript importer, on inputs we write and on the released transcripts in ../shared/upstream (skipped when
absent)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd
import pytest

from simcodebench.agents.artifacts import write_solution
from simcodebench.agents.backends.mutant import build_mutant
from simcodebench.agents.extract import extract_code
from simcodebench.agents.prompts import render_messages
from simcodebench.agents.settings import load_agents
from simcodebench.cli import main
from simcodebench.core.cases import get_case
from simcodebench.core.errors import InputError
from simcodebench.execution.sandbox import execute_solution
from simcodebench.pipeline.calibrate import calibrate_case
from simcodebench.pipeline.gates import score_attempt
from simcodebench.report.collect import COLUMNS
from simcodebench.suites.re4 import paper, transcripts
from simcodebench.suites.re4.report import re4_paper_markdown
from simcodebench.suites.re4.scorer import generate_reference

REPO = Path(__file__).resolve().parents[1]
TRANSCRIPTS = REPO.parent / "shared" / "upstream" / "re4" / "transcripts"


def paper_case(case_id: str = "hilbert"):
    return get_case("re4@paper", case_id, root=REPO / "cases")


# ---------------------------------------------------------------- the variant


def test_the_variant_asks_the_printed_problem_and_has_no_accuracy_gate(tmp_path: Path) -> None:
    case = paper_case("sod")
    [*_, user] = render_messages(case)
    assert case.visible.released_problem is not None  # the printed text, its overlapping conditions kept
    assert user["content"] == case.visible.released_problem.strip()  # exactly the printed text, no contract
    assert "0 < x \\leq 0.5" in user["content"] and "0 \\leq x < 0.5" in case.visible.problem
    assert "solution.npz" in render_messages(get_case("re4", "sod", root=REPO / "cases"))[-1]["content"]
    hilbert = paper_case("hilbert")  # its own fixed 1e-2 rule does not apply under the variant
    assert hilbert.threshold_policy() == {"accuracy": {"policy": "none"}, "time": None}
    record = calibrate_case(hilbert, generate_reference(hilbert), tmp_path / "cal", "local")
    assert record["thresholds"] == {"accuracy": None, "time": None} and record["e_base"] is None
    assert [m["name"] for m in hilbert.suite.mutants] == ["raises", "nan", "hang"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("x = [1. nan 3.]", "x = [1. nan 3.]"),
        ("error n=25: -inf", "error n=25: -inf"),
        ("   a      NaN\n", "a      NaN"),
        ("value=+inf;", "value=+inf;"),
        ("L-inf error 1e-3\nL-infinity norm\nL_inf: 2e-3", None),
        ("  best = -np.inf\n  x[np.isnan(x)] = 0", None),
        ("info nano Inference isnan(x) nan( infinite Infinity INF Inf", None),
    ],
)
def test_the_nonfinite_tokens(text: str, found: str | None) -> None:
    assert paper.first_token(text) == found


def _score(case, source: str, tmp_path: Path) -> dict:
    solution = tmp_path / "solution"
    write_solution({"solution.py": source}, solution)
    result = execute_solution(case, solution, tmp_path / "run", "local")
    reference = generate_reference(case)
    calibration = calibrate_case(case, reference, tmp_path / "cal", "local")
    response = {"status": "ok"}
    manifest = {"status": "ok", "files": []}
    return score_attempt(case, response, manifest, result.to_dict(), tmp_path / "run", reference, calibration)


PLOTS_AND_FILES = """
import json, numpy as np, matplotlib.pyplot as plt
x = np.linalg.solve(np.eye(3), np.ones(3))
plt.plot(x); plt.title("L-infinity error"); plt.savefig("errors.png"); plt.show()
np.savetxt("result.csv", x); json.dump({"x": list(x)}, open("out.json", "w")); np.savez("fields.npz", x=x)
print("L-inf error:", 0.0, "and np.nan never printed")
"""
SCRIPTS = {
    "clean": (PLOTS_AND_FILES, "Pass", ""),
    "crash": ("import numpy as np\nnp.linalg.cholesky(-np.eye(2))\n", "F-Exec", "exited with code 1"),
    "nan printed": ("import numpy as np\nprint('x =', np.sqrt(-np.ones(2)))\n", "F-NaN", "stdout.txt: 'x = [nan nan]'"),
    "inf saved": ("import numpy as np\nnp.save('u.npy', np.array([1.0, np.inf]))\n", "F-NaN", "u.npy"),
    "nan in a csv": (
        "import os\nos.makedirs('out')\nopen('out/u.csv', 'w').write('x,u\\n0,NaN\\n')\n",
        "F-NaN",
        "out/u.csv",
    ),
    "timeout": ("import time\nprint('started', flush=True)\ntime.sleep(60)\n", "F-Timeout", ""),
    "exit 0 early": ("import sys\nprint('nothing to do')\nsys.exit(0)\n", "Pass", ""),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_hand_written_scripts_get_the_paper_verdict(name: str, tmp_path: Path, python_env) -> None:
    source, expected, detail = SCRIPTS[name]
    case = paper_case("hilbert")
    case = dataclasses.replace(case, resources={**case.resources, "wall_s": 2 if name == "timeout" else 60})
    score = _score(case, source, tmp_path)
    assert score["failure_class"] == expected, score["message"]
    assert detail in score["message"]
    assert score["error"] is None and "accuracy" not in [g["name"] for g in score["gates"]]


def test_an_executed_script_that_writes_the_contract_records_its_error(tmp_path: Path, python_env) -> None:
    source = (
        "import numpy as np\nnp.savez('solution.npz', **{f'x_{n}': np.full(n, 1.5) for n in (5, 10, 15, 20, 25)})\n"
    )
    score = _score(paper_case("hilbert"), source, tmp_path)
    assert score["failure_class"] == "Pass" and score["error"] == pytest.approx(0.5)  # recorded, never gating
    assert score["metrics"]["linf_n25"] == pytest.approx(0.5)


# ---------------------------------------------------------------- Re^4's tables


def _row(agent: str, case: str, sample: int, attempt: int, executable: bool, error=None, metrics=None) -> dict:
    row = {column: None for column in COLUMNS}
    row.update(
        agent=agent,
        suite="re4@paper",
        case=case,
        sample=sample,
        attempt=attempt,
        status="scored",
        failure_class="Pass" if executable else "F-Exec",
        passed=executable,
        final=attempt == 2,
        error=error,
        metrics=json.dumps(metrics or {}),
        strategy="re4",
        stage=["ans-0", "rev-1", "rev-2"][attempt],
        executable=executable,
        selected=False,
    )
    return row


def _cells(markdown: str, title: str, label: str) -> list[str]:
    section = markdown.split(f"### {title}")[1].split("###")[0]
    [line] = [line for line in section.splitlines() if line.startswith(f"| {label} |")]
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


def test_the_stage_tables_on_rows_computed_by_hand() -> None:
    good = {f"linf_n{n}": 1e-12 for n in (5, 10)}
    rows = [
        # burgers, agent a: ans-0 two runs (one executable, error 0.04), rev-2 both executable (0.02, 0.01)
        _row("a", "burgers", 0, 0, True, 0.04),
        _row("a", "burgers", 1, 0, False),
        _row("a", "burgers", 0, 2, True, 0.02),
        _row("a", "burgers", 1, 2, True, 0.01),
        # an executable run without an error (re4@paper, no contract files) counts in exec, not in the mean
        _row("a", "sod", 0, 0, True),
        _row("a", "sod", 0, 2, True, 0.3),
        # agent b at rev-2 on burgers: an error of a non-executable run never enters a mean or a best
        _row("b", "burgers", 0, 2, False, 1e-9),
        _row("b", "burgers", 1, 2, True, 0.05),
        # hilbert: n = 10 fails once at ans-0 (3e-2), a crash has no metric (not solved)
        _row("a", "hilbert", 0, 0, True, 3e-2, {"linf_n5": 1e-3, "linf_n10": 3e-2}),
        _row("a", "hilbert", 1, 0, False),
        _row("a", "hilbert", 0, 2, True, 1e-12, good),
        _row("a", "keyhole", 0, 0, True, 0.2),
        _row("a", "keyhole", 0, 2, True, 1e-8),
    ]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    text = re4_paper_markdown(frame)
    assert _cells(text, "Execution success", "burgers") == ["50% (1/2)", "100% (2/2)", "50% (1/2)"]
    assert _cells(text, "Execution success", "sod") == ["100% (1/1)", "100% (1/1)", "—"]
    assert _cells(text, "Mean error", "burgers") == ["4.00e-02 (1)", "1.50e-02 (2)", "5.00e-02 (1)"]
    assert _cells(text, "Mean error", "sod") == ["—", "3.00e-01 (1)", "—"]
    assert _cells(text, "Hilbert", "n = 5") == ["50% (1/2)", "100% (1/1)"]
    assert _cells(text, "Hilbert", "n = 10") == ["0% (0/2)", "100% (1/1)"]
    assert _cells(text, "Keyhole", "keyhole") == ["0% (0/1)", "100% (1/1)"]
    assert _cells(text, "Best of N", "burgers") == ["1.00e-02 (2)", "5.00e-02 (1)"]
    assert "| problem | a ans-0 | a rev-2 | b rev-2 |" in text
    assert text.index("| burgers |") < text.index("| sod |")  # the paper's row order
    assert "hilbert" not in text.split("### Mean error")[1].split("###")[0]
    assert re4_paper_markdown(frame.assign(strategy="single")) == ""
    unmeasured = re4_paper_markdown(frame.assign(error=None, metrics="{}"))  # re4@paper: no contract files
    assert "### Execution success" in unmeasured
    assert not any(f"### {title}" in unmeasured for title in ("Mean error", "Hilbert", "Keyhole", "Best of N"))


def test_table_5_best_hilbert_error_by_n_at_the_last_stage() -> None:
    rows = [
        # agent a, rev-2: two executable runs; the best per n is taken n by n (2e-4 from one, 5e-5 from the other)
        _row("a", "hilbert", 0, 2, True, 3e-3, {"linf_n5": 2e-4, "linf_n10": 3e-3}),
        _row("a", "hilbert", 1, 2, True, 1e-3, {"linf_n5": 7e-4, "linf_n10": 5e-5}),
        # neither an earlier stage nor a run that did not execute counts, however small its error
        _row("a", "hilbert", 0, 0, True, 1e-12, {"linf_n5": 1e-12, "linf_n10": 1e-12}),
        _row("a", "hilbert", 2, 2, False, 1e-12, {"linf_n5": 1e-12, "linf_n10": 1e-12}),
        # agent b stops at rev-1 with one run missing n = 10
        _row("b", "hilbert", 0, 1, True, 4e-4, {"linf_n5": 4e-4}),
    ]
    text = re4_paper_markdown(pd.DataFrame(rows, columns=list(COLUMNS)))
    title = "L-inf error of the best Hilbert runs at the last stage (Table 5)"
    assert "| programmer | stage | methods | n = 5 | n = 10 |" in text.split(f"### {title}")[1]
    assert _cells(text, title, "a") == ["rev-2", "not computed", "2.00e-04 (2)", "5.00e-05 (2)"]
    assert _cells(text, title, "b") == ["rev-1", "not computed", "4.00e-04 (1)", "—"]


# ---------------------------------------------------------------- the transcript importer


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_importer_maps_folders_samples_and_stages(tmp_path: Path) -> None:
    root = tmp_path / "_3Programmers_for_Reproduction"
    _write(root / "PDEbench" / "Hemholtz" / "R1_ans" / "solu_rev_1.dat", "```python\nprint(1)\n```\n")
    _write(root / "PDEbench" / "Lid_Driven" / "GPT_ans" / "sample3" / "solu_ans_0.dat", "reply")
    _write(root / "PDEbench" / "Lid_Driven" / "GPT_ans" / "sample3" / "advice_1.dat", "not a reply")
    _write(root / "Wave" / "GPT_ans" / "solu_ans_0.dat", "not Re^4's")
    counts, unknown = transcripts.import_re4_transcripts(root, tmp_path / "out")
    assert counts == {"deepseek-r1": 1, "gpt-4.1-mini": 1} and unknown == ["Wave"]
    [line] = [json.loads(x) for x in (tmp_path / "out" / "deepseek-r1.jsonl").read_text().splitlines()]
    assert (line["suite"], line["case"], line["sample"], line["attempt"]) == ("re4", "helmholtz_holes", 0, 1)
    assert extract_code(line["response"], "python") == "print(1)\n"
    [line] = [json.loads(x) for x in (tmp_path / "out" / "gpt-4.1-mini.jsonl").read_text().splitlines()]
    assert (line["case"], line["sample"], line["attempt"]) == ("lid_driven", 2, 0)
    _write(tmp_path / "bad" / "Hilbert" / "Claude_ans" / "solu_ans_0.dat", "x")
    with pytest.raises(InputError, match="names programmer 'Claude'"):
        transcripts.import_re4_transcripts(tmp_path / "bad", tmp_path / "out2")
    assert main(["import", "re4-transcripts", str(tmp_path / "empty")]) == 2  # --out is required


def test_every_case_of_the_mapping_exists() -> None:
    """The mapping names the eight Re^4 problems; those of our suite must be among them (the 2-D PDE cases land
    with issue 15's other half)."""
    ours = {path.parent.name for path in (REPO / "cases" / "re4").glob("*/case.yaml")}
    assert ours <= set(transcripts.PROBLEMS.values()) and len(transcripts.PROBLEMS) == 8


def test_a_replay_agent_runs_the_recorded_samples(tmp_path: Path) -> None:
    replies = tmp_path / "replies.jsonl"
    lines = [("hilbert", 0), ("hilbert", 2), ("keyhole", 0)]
    replies.write_text(
        "".join(
            json.dumps({"suite": "re4", "case": c, "sample": s, "attempt": 0, "response": "x"}) + "\n" for c, s in lines
        )
    )
    [agent] = load_agents(
        {"agents": {"r": {"backend": "replay", "file": str(replies), "samples": "recorded"}}}
    ).values()
    counts = {case: agent.samples(paper_case(case)) for case in ("hilbert", "keyhole", "sod")}
    assert counts == {"hilbert": 3, "keyhole": 1, "sod": 0}  # a gap is run (no response), an absent case is not
    with pytest.raises(InputError, match="samples.*only a replay agent"):
        load_agents({"agents": {"o": {"backend": "oracle", "samples": "recorded"}}})


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="../shared/upstream/re4/transcripts is absent")
def test_the_importer_on_the_released_transcripts(tmp_path: Path, capsys) -> None:
    assert main(["import", "re4-transcripts", str(TRANSCRIPTS), "--out", str(tmp_path)]) == 0
    assert "gpt-4.1-mini.jsonl (9 replies)" in capsys.readouterr().out
    for programmer, model in transcripts.PROGRAMMERS.items():
        lines = [json.loads(x) for x in (tmp_path / f"{model}.jsonl").read_text().splitlines()]
        keys = [(x["case"], x["sample"], x["attempt"]) for x in lines]
        hilbert = [("hilbert", s, a) for s in (0, 1) for a in (0, 1, 2)]
        assert keys == hilbert + [("keyhole", 0, a) for a in (0, 1, 2)]
        for line in lines:
            released = TRANSCRIPTS / line["source"]
            assert released.read_text() == line["response"] and released.parts[-2].startswith(("sample", programmer))
            assert "import numpy" in extract_code(line["response"], "python")


@pytest.mark.parametrize(("mutant", "expected"), [("raises", "F-Exec"), ("nan", "F-NaN")])
def test_the_variant_mutants_land(mutant: str, expected: str, tmp_path: Path, python_env) -> None:
    """The oracle poisoned or broken lands in the declared class (``hang`` is the timeout script above)."""
    case = paper_case("keyhole")
    index = [m["name"] for m in case.suite.mutants].index(mutant)
    built = build_mutant(case, index, None)
    score = _score(case, extract_code(built.reply, "python"), tmp_path)
    assert built.declared_class == expected and score["failure_class"] == expected, score["message"]
