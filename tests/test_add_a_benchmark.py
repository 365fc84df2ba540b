"""Adding a benchmark touches only its own folders: a toy suite (its cases in a temporary folder, its plugin in a
temporary module that a config names) runs through the real pipeline with the oracle and one mutant, and the
package is not edited. docs/adding-a-benchmark.md is this test in prose."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pandas as pd
import pytest
import yaml
from pipeline import REPO, snakemake

from simcodebench.core import registry
from simcodebench.core.errors import InputError

SUITE = {
    "name": "toy",
    "description": "Double a number: the smallest benchmark there is.",
    "environment": "python",
    "language": "python",
    "entrypoint": "solution.py",
    "prompt": {"system": "system.md.j2", "user": "user.md.j2"},
    "extraction": {"kind": "code", "language": "python", "filename": "solution.py"},
    "plugin": "toy",
    "thresholds": {"accuracy": {"policy": "fixed", "value": 1.0e-9}, "time": None},
    "calibration": {"warmup": 0, "repeats": 1},
    "defaults": {"resources": {"cpus": 1, "tasks": 1, "mem_mb": 512, "wall_s": 30, "gpu": 0}},
    "mutants": [{"name": "raises", "expect": "F-Exec", "op": "raise_at_start"}],
}
CASE = {
    "id": "double",
    "title": "Twice 21",
    "visible": {
        "problem": "Compute twice the number 21.",
        "contract": {"files": [{"name": "answer.json", "format": "json", "fields": {"value": {"shape": []}}}]},
    },
    "hidden": {
        "reference": {"generator": "double", "params": {"x": 21}},
        "oracle": "reference_solution.py",
        "scoring": {"kind": "relative"},
    },
}
PLUGIN = '''
"""The toy suite's plugin: its reference is 2x, its measure the relative error of answer.json's value."""

import json
from pathlib import Path

import pandas as pd

from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import ReportSection, SuitePlugin
from simcodebench.core.references import Reference


class ToySuite(SuitePlugin):
    name = "toy"

    def generate_reference(self, case):
        return Reference(scalars={"value": 2 * case.hidden.reference["params"]["x"]})

    def measure(self, case, run_dir: Path, reference: Reference) -> Measurement:
        path = Path(run_dir) / "answer.json"
        if not path.is_file():
            return Measurement(outcome="missing", message="answer.json is missing")
        value, expected = json.loads(path.read_text())["value"], reference.scalars["value"]
        return Measurement(outcome="ok", error=abs(value - expected) / abs(expected), metrics={"toy_value": value})

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        return [ReportSection("Toy table", f"{len(frame)} toy attempts\\n")]
'''
ORACLE = 'import json\njson.dump({"value": 2 * 21}, open("answer.json", "w"))\n'


def _write_benchmark(root: Path) -> tuple[Path, Path]:
    """The toy's cases folder and plugin folder, outside the repository."""
    suite = root / "cases" / "toy"
    (suite / "double").mkdir(parents=True)
    (suite / "suite.yaml").write_text(yaml.safe_dump(SUITE))
    (suite / "system.md.j2").write_text("You write Python programs.\n")
    (suite / "user.md.j2").write_text('{{ problem }}\nWrite the result to answer.json as {"value": ...}.\n')
    (suite / "double" / "case.yaml").write_text(yaml.safe_dump(CASE))
    (suite / "double" / "reference_solution.py").write_text(ORACLE)
    plugins = root / "plugins"
    plugins.mkdir()
    (plugins / "toy_plugin.py").write_text(textwrap.dedent(PLUGIN))
    return root / "cases", plugins


def _package_state() -> str:
    """What git sees of the package (its tracked and untracked files' changes)."""
    command = ["git", "status", "--porcelain", "--", "src"]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True).stdout


@pytest.mark.slow
def test_adds_a_toy_suite_through_the_pipeline_without_editing_the_package(tmp_path, python_env):
    before = _package_state()
    cases, plugins = _write_benchmark(tmp_path)
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    config = {
        "cases_dir": str(cases),
        "plugins": [str(plugins)],
        "suites": ["toy"],
        "runtime": "auto",
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    (work / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    snakemake(work)
    scores = pd.read_csv(work / "results" / "summary" / "scores.csv").set_index("agent")
    assert scores.loc["oracle", "failure_class"] == "Pass"
    assert scores.loc["mutants", "mutant"] == "raises" and scores.loc["mutants", "failure_class"] == "F-Exec"
    summary = (work / "results" / "summary" / "toy.md").read_text()
    assert "## Toy table" in summary and "2 toy attempts" in summary  # the plugin's report hook
    assert _package_state() == before


def test_a_plugin_folder_finds_the_plugin_by_name(tmp_path, monkeypatch):
    _, plugins = _write_benchmark(tmp_path)
    monkeypatch.setattr(registry, "_folders", [])
    registry.plugins.cache_clear()
    with pytest.raises(KeyError, match="no suite plugin named 'toy'"):
        registry.plugin("toy")
    registry.use_folders([plugins])
    assert type(registry.plugin("toy")).__name__ == "ToySuite"
    assert "re4" in registry.plugins()  # the installed plugins stay
    registry.plugins.cache_clear()


def test_a_plugin_named_twice_is_refused(tmp_path, monkeypatch):
    _, plugins = _write_benchmark(tmp_path)
    (plugins / "again.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.setattr(registry, "_folders", [])
    registry.use_folders([plugins])
    with pytest.raises(InputError, match="'toy' is defined twice"):
        registry.plugins()
    registry.plugins.cache_clear()


def test_a_missing_plugin_folder_is_one_clear_message(tmp_path):
    with pytest.raises(InputError, match=r"config.yaml: field 'plugins'.*is not a folder"):
        registry.use_folders([tmp_path / "absent"], "config.yaml")
