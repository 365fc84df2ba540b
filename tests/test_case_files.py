"""The case files that the rules take as input: an edited case or oracle reruns its references and calibrations."""

from __future__ import annotations

from pathlib import Path

from simcodebench.pipeline.plan import Plan


def _files(repo: Path, suite: str) -> dict[str, list[str]]:
    plan = Plan.from_config({"suites": [suite], "agents": {"oracle": {"backend": "oracle"}}})
    return {case: plan.case_files(suite, case) for _, case in plan.cases}


def test_an_oracle_shared_by_the_cases_of_a_suite_is_an_input_of_each(repo):
    """The fem cases name ``../oracle_dolfinx.py``: the fix of an oracle bug must regenerate their references."""
    shared = str(repo / "cases" / "fem" / "oracle_dolfinx.py")
    files = _files(repo, "fem")
    assert files and all(shared in listed for listed in files.values())
    assert all(len(listed) == len(set(listed)) for listed in files.values())


def test_an_oracle_inside_the_case_folder_is_listed_once(repo):
    files = _files(repo, "foam")
    for case, listed in files.items():
        assert len(listed) == len(set(listed)), case
        assert all(Path(path).is_relative_to(repo / "cases" / "foam" / case) for path in listed), case
        assert any("/oracle/" in path for path in listed), case
