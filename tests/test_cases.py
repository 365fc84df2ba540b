from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from simcodebench.core.cases import load_suite_cases, validate_path
from simcodebench.core.errors import InputError


def test_every_shipped_case_validates(repo):
    cases = validate_path(repo / "cases")
    assert {c.key for c in cases} >= {"re4/hilbert", "re4/sod", "re4/burgers", "re4/keyhole"}


def _copy_suite(repo: Path, tmp_path: Path) -> Path:
    target = tmp_path / "cases" / "re4"
    shutil.copytree(repo / "cases" / "re4", target)
    load_suite_cases.cache_clear()
    return target


def _edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data))


@pytest.mark.parametrize(
    ("change", "field", "fix"),
    [
        (lambda d: d["visible"].pop("problem"), "visible.problem", "add 'problem'"),
        (lambda d: d["visible"].update(resources={"cpus": 0}), "visible.resources.cpus", "fix:"),
        (lambda d: d["hidden"].update(oracle="nope.py"), "hidden.oracle", "add the reference solution file"),
        (lambda d: d.update(extra_key=1), "(top level)", "remove or rename it"),
        (
            lambda d: d["visible"]["contract"]["files"][0].update(format="csv"),
            "visible.contract.files.0.format",
            "fix:",
        ),
        (lambda d: d["hidden"].update(mutants={"no-such": {}}), "hidden.mutants.no-such", "use one of"),
    ],
)
def test_a_malformed_case_gets_one_line_naming_file_field_and_fix(repo, tmp_path, change, field, fix):
    suite = _copy_suite(repo, tmp_path)
    _edit(suite / "sod" / "case.yaml", change)
    with pytest.raises(InputError) as info:
        validate_path(suite)
    message = str(info.value)
    assert "\n" not in message
    assert str(suite / "sod" / "case.yaml") in message
    assert f"field '{field}'" in message and fix in message


def test_broken_yaml_and_cli_exit_code(repo, tmp_path):
    suite = _copy_suite(repo, tmp_path)
    (suite / "hilbert" / "case.yaml").write_text("id: hilbert\nvisible: [unclosed\n")
    result = subprocess.run(
        [sys.executable, "-m", "simcodebench.cli", "cases", "validate", str(suite)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "hilbert/case.yaml" in lines[0] and "fix the YAML syntax" in lines[0]


def test_bad_suite_field_is_named(repo, tmp_path):
    suite = _copy_suite(repo, tmp_path)
    _edit(suite / "suite.yaml", lambda d: d["mutants"][0].update(op="explode"))
    with pytest.raises(
        InputError, match=r"suite.yaml: field 'mutants.0.op'.*an operation of simcodebench.agents.backends.mutant"
    ):
        validate_path(suite)


def test_cli_lists_cases(repo):
    result = subprocess.run(
        [sys.executable, "-m", "simcodebench.cli", "cases", "list"],
        capture_output=True,
        text=True,
        cwd=repo,
        check=True,
    )
    assert "re4/sod\tpython\t" in result.stdout
