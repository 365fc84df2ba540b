"""cfd-query: option parsing as upstream, the suite's cases and prompt, and the importer of the upstream JSON."""

from __future__ import annotations

import json

import pytest

from simcodebench.agents.choice import parse_option
from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.prompts import render_messages
from simcodebench.cli import main
from simcodebench.core.cases import validate_path
from simcodebench.core.errors import InputError
from simcodebench.suites.cfd_query.importer import import_cfdquery

SYSTEM = (
    "You are an expert computational fluid dynamics researcher. For each multiple-choice question, read the "
    "question and its four options, then respond with only the number (1, 2, 3, or 4) corresponding to the "
    "correct answer."
)


@pytest.mark.parametrize(
    ("reply", "option"),
    [("3", 3), (" 2\n", 2), ("Answer: 4", 4), ("Option 3, not 2", 3), ("The answer is (1).", 1), ("15", 1)],
)
def test_strict_then_first_digit_from_one_to_four(reply, option):
    assert parse_option(reply) == option


@pytest.mark.parametrize("reply", ["", "   ", "I am not sure.", "5 or 6", None])
def test_unparsable_replies_raise(reply):
    with pytest.raises(ExtractionError):
        parse_option(reply)


def test_own_questions_are_valid_and_prompted_as_upstream(repo):
    cases = validate_path(repo / "cases" / "cfd-query")
    assert len(cases) >= 20
    answers = set()
    for case in cases:
        assert len(case.visible.spec["options"]) == 4
        oracle = (case.folder / case.hidden.oracle).read_text()
        assert parse_option(oracle) == case.hidden.reference["params"]["correct_option"]
        answers.add(case.hidden.reference["params"]["correct_option"])
    assert answers == {1, 2, 3, 4}
    system, user = render_messages(cases[0])
    assert system == {"role": "system", "content": SYSTEM}
    spec = cases[0].visible.spec
    expected = f"Question {spec['index']}: {cases[0].visible.problem}\n"
    expected += "".join(f"{i}. {text}\n" for i, text in enumerate(spec["options"], start=1))
    assert user["content"] == expected + "\nReply with only the option number."


def _upstream(questions):
    return {"CFD QA": questions}


def _question(index, answer, order=(1, 2, 3, 4)):
    return {
        "question_index": index,
        "question_content": f"Which scheme number {index}?",
        "options": [{"option_index": i, "option_content": f"option {i} of {index}"} for i in order],
        "correct_option_index": answer,
    }


def test_importer_writes_a_valid_suite(tmp_path):
    path = tmp_path / "CFDQuery.json"
    path.write_text(json.dumps(_upstream([_question(1, 2), _question(7, 4, order=(3, 1, 4, 2))])))
    out = tmp_path / "cfdquery"
    assert main(["import", "cfdquery", str(path), "--out", str(out)]) == 0
    cases = validate_path(out)
    assert [c.id for c in cases] == ["q001", "q007"]
    second = cases[1]
    assert second.suite.name == "cfdquery" and second.suite.environment == "none"
    assert second.visible.spec == {"index": 7, "options": [f"option {i} of 7" for i in (1, 2, 3, 4)]}
    assert second.hidden.reference["params"]["correct_option"] == 4
    assert (second.folder / "oracle.txt").read_text() == "4\n"
    assert render_messages(second)[1]["content"].startswith("Question 7: Which scheme number 7?\n1. option 1 of 7\n")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"questions": []}, "CFD QA"),
        (_upstream([{**_question(1, 2), "correct_option_index": 5}]), "CFD QA.0.correct_option_index"),
        (_upstream([_question(1, 2, order=(1, 2, 3))]), "CFD QA.0.options"),
        (
            _upstream([{k: v for k, v in _question(1, 2).items() if k != "question_content"}]),
            "CFD QA.0.question_content",
        ),
        (_upstream([_question(1, 2), _question(1, 3)]), "CFD QA.1.question_index"),
    ],
)
def test_importer_names_the_bad_field(tmp_path, data, field):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as error:
        import_cfdquery(path, tmp_path / "out")
    assert error.value.field == field


def test_importer_rejects_a_file_that_is_not_json(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    assert main(["import", "cfdquery", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "is not JSON" in capsys.readouterr().err
