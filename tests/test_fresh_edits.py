"""The shared pieces of fresh-variant generators: seeded draws in range, one-pass checked substitutions."""

from __future__ import annotations

import numpy as np
import pytest

from simcodebench.core.fresh_edits import Param, draw, number, ranges, substitute, substitute_strings


def test_draws_are_seeded_rounded_and_in_range() -> None:
    params = {"nu": Param(0.1, 0.5, 2), "q0": Param(100.0, 300.0, 0)}
    first = [draw(np.random.default_rng(3), params) for _ in range(2)]
    assert first[0] == first[1]
    many = [draw(np.random.default_rng(seed), params) for seed in range(200)]
    assert all(0.1 <= d["nu"] <= 0.5 and 100 <= d["q0"] <= 300 for d in many)
    assert all(round(d["nu"], 2) == d["nu"] and d["q0"] == int(d["q0"]) for d in many)
    assert len({d["nu"] for d in many}) > 20
    assert ranges(params) == {"nu": (0.1, 0.5), "q0": (100.0, 300.0)}
    with pytest.raises(ValueError, match="lo < hi"):
        Param(1.0, 1.0, 1)


def test_numbers_read_as_written() -> None:
    assert [number(v) for v in (0.5, 12.0, 0.0004, 174.0, 2.25)] == ["0.5", "12", "0.0004", "174", "2.25"]


def test_substitutions_run_in_one_pass_and_longest_first() -> None:
    # "a" -> "b" must not be followed by "b" -> "c" on the new text; "ab" is matched before "a".
    assert substitute("a b ab", [("a", "b"), ("b", "c"), ("ab", "X")], "t") == "b c X"


def test_a_missing_text_names_where_it_was_looked_for() -> None:
    with pytest.raises(ValueError, match=r"case\.yaml: \['nu = 9'\] not found"):
        substitute("nu = 1", [("nu = 9", "nu = 2")], "case.yaml")
    with pytest.raises(ValueError, match="update its fresh edits"):
        substitute_strings({"a": ["x"]}, [("x", "y"), ("z", "w")], "case.yaml")


def test_nested_strings_are_edited_and_the_original_kept() -> None:
    data = {"title": "t = 3", "visible": {"problem": "[0, 3] and t = 3", "n": 3}, "tags": ["t = 3"]}
    edited = substitute_strings(data, [("t = 3", "t = 2.2"), ("[0, 3]", "[0, 2.2]")], "case")
    assert edited == {"title": "t = 2.2", "visible": {"problem": "[0, 2.2] and t = 2.2", "n": 3}, "tags": ["t = 2.2"]}
    assert data["title"] == "t = 3"
