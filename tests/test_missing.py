"""SIMCODEBENCH_ALLOW_MISSING: a solver environment, SLURM or MPI that cannot be had fails the tests and `make envs`
and `tests/provision.py`, unless the variable lists it; and no test skips for one behind the variable's back."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import missing
import mpi_env
import provision
import pytest
import slurm_cluster
from missing import VARIABLE, allowed_missing, require_or_skip, verdict

TESTS = Path(__file__).resolve().parent
ORDINARY_SKIP = re.compile(r"upstream|bubblewrap|apptainer|GPU|CUDA|weights", re.IGNORECASE)
"""What an ordinary skip may be for: absent upstream data, bubblewrap or apptainer, a GPU, model weights."""


def test_the_variable_is_a_comma_list_of_known_names(monkeypatch):
    monkeypatch.delenv(VARIABLE, raising=False)
    assert allowed_missing() == frozenset()
    monkeypatch.setenv(VARIABLE, " openfoam, DEALII ,,slurm")
    assert allowed_missing() == {"openfoam", "dealii", "slurm"}
    monkeypatch.setenv(VARIABLE, "openfoam,python,opnfoam")
    with pytest.raises(ValueError, match="names opnfoam, python; it may list: openfoam"):
        allowed_missing()


def test_a_missing_environment_fails_unless_listed_and_the_skip_names_the_variable(monkeypatch):
    monkeypatch.setenv(VARIABLE, "dealii")
    with pytest.raises(pytest.fail.Exception, match=rf"^openfoam is not available: no apt-get .*{VARIABLE}=openfoam"):
        require_or_skip("openfoam", "no apt-get\nsecond line")
    with pytest.raises(pytest.skip.Exception, match=rf"^dealii is not available, its tests skip \({VARIABLE} lists"):
        require_or_skip("dealii", "no apt-get")
    with pytest.raises(ValueError, match="python"):
        verdict("python", "cannot be opted out of")


def _make_envs(tmp_path: Path, allowed: str) -> subprocess.CompletedProcess:
    """`make envs` with a stand-in `simcodebench` whose openfoam and dealii set-ups fail (nothing installed)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "simcodebench"
    fake.write_text('#!/bin/sh\ncase "$3" in openfoam|dealii) exit 1;; esac\necho "environment $3 ready"\n')
    fake.chmod(0o755)
    (bin_dir / "python").unlink(missing_ok=True)
    (bin_dir / "python").symlink_to(sys.executable)
    command = ["make", "--no-print-directory", "-o", "python-env", "-o", "genesis-libs", "envs", f"BIN={bin_dir}"]
    env = {**os.environ, VARIABLE: allowed}
    return subprocess.run(command, cwd=TESTS.parent, capture_output=True, text=True, env=env, timeout=120)


def test_make_envs_tries_every_environment_and_fails_unless_the_missing_are_listed(tmp_path):
    failed = _make_envs(tmp_path, "openfoam")
    assert failed.returncode != 0
    lines = failed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["openfoam", "environment", "environment", "dealii", "environment"]
    assert lines[0].startswith("openfoam is not available, its tests skip")
    assert lines[3].startswith("dealii is not available:") and f"{VARIABLE}=dealii" in lines[3]
    assert _make_envs(tmp_path, "dealii,openfoam").returncode == 0


def test_provision_fails_for_missing_slurm_or_mpi_unless_listed(monkeypatch, capsys):
    monkeypatch.setattr(slurm_cluster, "provision", lambda: "not root")
    monkeypatch.setattr(mpi_env, "provision", lambda: None)
    monkeypatch.setenv(VARIABLE, "mpi")
    assert provision.main() == 1
    assert capsys.readouterr().out.splitlines() == [
        f"slurm is not available: not root (fix it, or set {VARIABLE}=slurm to skip its tests)",
        "MPI test environment: ready",
    ]
    monkeypatch.setenv(VARIABLE, "slurm")
    assert provision.main() == 0


def test_the_command_line_answers_with_its_exit_status(monkeypatch, capsys):
    monkeypatch.setenv(VARIABLE, "genesis")
    assert missing.main(["genesis"]) == 0 and missing.main(["fea", "no index"]) == 1
    assert missing.main(["nonsense"]) == 2 and missing.main([]) == 2
    assert capsys.readouterr().out.splitlines()[1].startswith("fea is not available: no index")


def _skips(tree: ast.AST) -> list[ast.AST]:
    """The reasons of every ``pytest.skip(...)`` and ``skipif(..., reason=...)`` in ``tree``; ``importorskip``
    calls themselves (they skip for a missing package)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr == "skip" and node.args:
            found.append(node.args[0])
        elif node.func.attr == "skipif":
            found += [keyword.value for keyword in node.keywords if keyword.arg == "reason"]
        elif node.func.attr == "importorskip":
            found.append(node)
    return found


def test_no_test_skips_for_a_missing_solver_slurm_or_mpi_outside_the_opt_out():
    bad = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == "missing.py":
            continue
        source = path.read_text(encoding="utf-8")
        for reason in _skips(ast.parse(source)):
            text = ast.get_source_segment(source, reason) or ""
            if not ORDINARY_SKIP.search(text):
                bad.append(f"{path.relative_to(TESTS)}:{reason.lineno}: {text}")
    assert not bad, "skips that are neither ordinary nor missing.require_or_skip:\n" + "\n".join(bad)
