"""The package reads as the pipeline: few modules at its top, no import cycle (counting imports for type
checking and inside functions), no particular suite imported from outside ``suites/``, every shipped suite a
plugin found by its plugin module, one pipeline module per rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pipeline import REPO

from simcodebench.core.plugin import SuitePlugin
from simcodebench.core.registry import plugins

PACKAGE = REPO / "src" / "simcodebench"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(path: Path) -> set[str]:
    """Every simcodebench module ``path`` imports, wherever the import stands (a submodule named in a
    ``from package import name`` counts as that submodule)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in MODULES else node.module)
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) for name, path in MODULES.items()}


def _cycle() -> list[str] | None:
    """One import cycle, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state and (found := visit(name)):
            return found
    return None


def test_no_import_cycle():
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_the_cycle_finder_finds_a_cycle(monkeypatch):
    monkeypatch.setitem(GRAPH, "simcodebench.core.errors", {"simcodebench.core.io"})
    monkeypatch.setitem(GRAPH, "simcodebench.core.io", {"simcodebench.core.errors"})
    assert _cycle() is not None


def test_no_particular_suite_is_imported_from_outside_suites():
    outside = {name for name in MODULES if not name.startswith("simcodebench.suites.")}
    offenders = {
        name: sorted(target for target in GRAPH[name] if target.startswith("simcodebench.suites.")) for name in outside
    }
    assert {name: targets for name, targets in offenders.items() if targets} == {}


def test_at_most_eight_modules_at_the_top_of_the_package():
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


def test_core_imports_nothing_above_it():
    core = {name for name in MODULES if name.startswith("simcodebench.core")}
    above = {name: sorted(t for t in GRAPH[name] if not t.startswith("simcodebench.core")) for name in core}
    assert {name: targets for name, targets in above.items() if targets} == {}


def test_one_pipeline_module_per_rule():
    rules = sorted(path.stem for path in (REPO / "workflow" / "rules").glob("*.smk") if path.stem != "common")
    for rule in rules:
        module = PACKAGE / "pipeline" / f"{rule}.py"
        assert module.is_file(), f"workflow/rules/{rule}.smk has no pipeline/{rule}.py"
        assert f"{rule}.run(" in (REPO / "workflow" / "rules" / f"{rule}.smk").read_text()


def test_every_shipped_suite_is_found_by_its_plugin_module():
    folders = sorted(p.parent.name for p in (PACKAGE / "suites").glob("*/plugin.py"))
    found = {type(plugin).__module__.split(".")[2]: plugin for plugin in plugins().values()}
    assert sorted(found) == folders and len(folders) == 7
    assert all(isinstance(plugin, SuitePlugin) for plugin in found.values())


@pytest.mark.parametrize("hook", [name for name in vars(SuitePlugin) if not name.startswith("_")])
def test_every_hook_is_documented(hook):
    member = getattr(SuitePlugin, hook)
    assert callable(member) or hook in ("name", "mutant_operations", "fresh_note")
    if callable(member):
        assert (member.__doc__ or "").strip(), f"SuitePlugin.{hook} has no docstring"
