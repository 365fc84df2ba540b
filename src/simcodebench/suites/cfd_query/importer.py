"""``simcodebench import cfdquery PATH``: CFDQuery's upstream questions as a suite of ordinary cases.

The upstream file (Kaggle ``nithinsekhar/cfdquery``, read by ``CFDQuery/llms.py``) is
``{"CFD QA": [{"question_index", "question_content", "options": [{"option_index", "option_content"}],
"correct_option_index"}]}``. Each question becomes case ``q<index>`` (three digits) with the protocol of
``cases/cfd-query``; the options are ordered by ``option_index``, which must be 1, 2, 3 and 4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.core.errors import InputError
from simcodebench.core.importing import read_json_input, validated, write_case, write_suite
from simcodebench.core.project import cases_root

TEMPLATE_SUITE = "cfd-query"
ITEMS_KEY = "CFD QA"


def _field(item: dict[str, Any], key: str, kind: type, path: Path, where: str) -> Any:
    value = item.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        problem = "is missing" if value is None else f"is not a {kind.__name__}"
        raise InputError(path, f"{where}.{key}", problem, f"give '{key}' as a {kind.__name__}")
    return value


def _question(item: Any, path: Path, where: str) -> tuple[int, str, list[str], int]:
    if not isinstance(item, dict):
        raise InputError(path, where, "is not an object", "give each question as a JSON object")
    index = _field(item, "question_index", int, path, where)
    text = _field(item, "question_content", str, path, where)
    options = _field(item, "options", list, path, where)
    answer = _field(item, "correct_option_index", int, path, where)
    by_index = {}
    for number, option in enumerate(options):
        at = f"{where}.options.{number}"
        if not isinstance(option, dict):
            raise InputError(path, at, "is not an object", "give each option as {option_index, option_content}")
        by_index[_field(option, "option_index", int, path, at)] = _field(option, "option_content", str, path, at)
    if sorted(by_index) != [1, 2, 3, 4]:
        raise InputError(path, f"{where}.options", f"has option indices {sorted(by_index)}", "give options 1, 2, 3, 4")
    if answer not in by_index:
        raise InputError(path, f"{where}.correct_option_index", f"is {answer}", "give one of 1, 2, 3, 4")
    return index, text, [by_index[i] for i in (1, 2, 3, 4)], answer


def import_cfdquery(path: Path, out: Path) -> int:
    """Write the questions of the upstream file ``path`` as the suite folder ``out``; return the case count."""
    data = read_json_input(path)
    if not isinstance(data, dict) or not isinstance(data.get(ITEMS_KEY), list):
        raise InputError(
            path, ITEMS_KEY, "is missing or not a list", f"use the upstream file with a '{ITEMS_KEY}' list"
        )
    questions = [_question(item, path, f"{ITEMS_KEY}.{n}") for n, item in enumerate(data[ITEMS_KEY])]
    seen: set[int] = set()
    for n, (index, *_rest) in enumerate(questions):
        if index in seen:
            raise InputError(path, f"{ITEMS_KEY}.{n}.question_index", f"repeats {index}", "keep indices unique")
        seen.add(index)
    write_suite(
        cases_root() / TEMPLATE_SUITE,
        out,
        description=f"CFDQuery's upstream questions, imported from {Path(path).name} by simcodebench import cfdquery",
    )
    for index, text, options, answer in questions:
        case_id = f"q{index:03d}"
        case = {
            "id": case_id,
            "title": f"CFDQuery question {index}",
            "tags": ["cfd-query", "upstream"],
            "visible": {"problem": text, "spec": {"index": index, "options": options}},
            "hidden": {
                "reference": {"generator": "answer_key", "params": {"correct_option": answer}},
                "oracle": "oracle.txt",
                "scoring": {"kind": "answer_key"},
            },
        }
        write_case(out / case_id, case, {"oracle.txt": f"{answer}\n"})
    return validated(out)
