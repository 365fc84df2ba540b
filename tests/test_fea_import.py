"""``simcodebench import feabench`` on the shared upstream archive: a valid suite whose prompts hold neither the
COMSOL code nor the target, and whose answer-key oracle scores as a valid, exact value."""

from __future__ import annotations

import json
import zipfile

import pytest

from simcodebench.agents.prompts import render_messages
from simcodebench.cli import main
from simcodebench.core.cases import load_suite_cases
from simcodebench.suites.fea.importer import readable_units
from simcodebench.suites.fea.scorer import generate_reference, measure


@pytest.fixture(scope="module")
def imported(tmp_path_factory, upstream):
    archive = upstream / "feabench" / "benchmark.zip"
    if not archive.is_file():
        pytest.skip(f"upstream archive absent: {archive}")
    out = tmp_path_factory.mktemp("import") / "feabench"
    assert main(["import", "feabench", str(archive), "--out", str(out)]) == 0
    with zipfile.ZipFile(archive) as handle:
        records = {n.split("/")[-1][:-5]: json.loads(handle.read(n)) for n in handle.namelist() if n.endswith(".json")}
    return out, records


def test_every_gold_problem_is_a_case(imported):
    out, records = imported
    cases = load_suite_cases(out)
    assert sorted(c.id for c in cases) == sorted(records) and len(cases) == 15
    assert all(c.threshold_policy()["accuracy"] == {"policy": "fixed", "value": 0.1} for c in cases)


@pytest.mark.parametrize("variant", [None, "plan", "apidoc"])
def test_no_comsol_code_or_target_in_any_prompt(imported, variant):
    out, records = imported
    for case in load_suite_cases(out, variant):
        record = records[case.id]
        text = "\n".join(m["content"] for m in render_messages(case))
        assert record["model_specifications"].strip()[:200] in text
        code_lines = [line.strip() for line in record["ground_truth_code"].splitlines() if len(line.strip()) > 25]
        assert code_lines and not any(line in text for line in code_lines), case.id
        assert "model.component(" not in text and "model.study(" not in text
        assert str(record["target_value"]) not in text, case.id


def test_the_answer_key_is_a_valid_exact_value(imported, tmp_path):
    out, records = imported
    for case in load_suite_cases(out):
        reference = generate_reference(case)
        source = (case.folder / "oracle.py").read_text()
        namespace: dict = {}
        run_dir = tmp_path / case.id
        run_dir.mkdir()
        exec(
            compile(source.replace('"result.json"', repr(str(run_dir / "result.json"))), "oracle.py", "exec"), namespace
        )
        evaluation = measure(case, run_dir, reference)
        assert evaluation.outcome == "ok" and evaluation.error == 0.0, (case.id, evaluation.message)
        assert reference.scalars["target"] == pytest.approx(float(records[case.id]["target_value"]))


def test_upstream_unit_spellings_are_read():
    assert [readable_units(raw, "x", "c") for raw in ("Ohms (Ω)", "%", "1", "degC", "dB")] == [
        "Ω",
        "%",
        "1",
        "degC",
        "dB",
    ]


def test_a_zip_without_problems_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as handle:
        handle.writestr("README.md", "nothing")
    assert main(["import", "feabench", str(empty), "--out", str(tmp_path / "x")]) != 0
    assert "holds no comsol_*.json problem" in capsys.readouterr().err
