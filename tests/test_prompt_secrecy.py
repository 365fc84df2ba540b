"""No hidden value (reference, oracle, scoring, thresholds, mutants) appears in any prompt."""

from __future__ import annotations

import json
import re
from typing import Any

import cfd_code_support
import pytest

from simcodebench.agents.multifile import read_tree
from simcodebench.agents.prompts import render_messages
from simcodebench.core.cases import validate_path
from simcodebench.core.references import Reference
from simcodebench.core.registry import plugin_of
from simcodebench.execution.sandbox import openfoam
from simcodebench.suites.physics.scorer import suite_context


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in (key, *_leaves(item))]
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _spellings(value: Any) -> set[str]:
    """Ways a hidden value could appear in text; short or trivial ones are too common to be a leak."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int | float):
        if float(value).is_integer() and abs(value) < 100:
            return set()  # small integers are everywhere in prose (n = 5, 10, ...)
        return {repr(value), f"{value:g}", f"{value:.3e}", f"{value:.6g}"}
    text = str(value)
    return {text} if len(text) >= 6 else set()


def _visible_text(case) -> str:
    """What the agent may see: the visible spec and the case's resources (the prompt states the wall limit,
    which an imported PDEAgent-Bench record also keeps, hidden, as upstream's ``timeout_sec``)."""
    return json.dumps(
        {
            "problem": case.visible.problem,
            "contract": case.visible.contract,
            "spec": case.visible.spec,
            "inputs": case.visible.inputs,
            "resources": case.resources,
        }
    )


def _template_text(case) -> str:
    """The suite's prompt templates and the files they include: the same for every case, so public by
    construction (a library guide may share idioms with an oracle without leaking anything of a case)."""
    prompt = case.suite.data["prompt"].values()
    names = [name for name in prompt if isinstance(name, str) and (case.suite.folder / name).is_file()]
    texts = [(case.suite.folder / name).read_text() for name in names]
    included = {m for text in texts for m in re.findall(r"{%-?\s*include\s+[\"']([^\"']+)[\"']", text)}
    return "\n".join(texts + [(case.suite.folder / name).read_text() for name in sorted(included)])


def _suite_context_text(case) -> str:
    """Prompt slots the physics plugin builds from the suite alone (``suite_context(suite)``: the Genesis
    documentation and examples), public by construction: no case reaches them."""
    if case.suite.data["plugin"] != "physics":
        return ""
    built = suite_context(case.suite)
    return built.documentation + "\n" + built.examples


@pytest.mark.parametrize(
    "case", validate_path(__import__("simcodebench.core.project").core.project.cases_root()), ids=lambda c: c.key
)
def test_no_hidden_value_in_any_prompt(case):
    prompt = "\n".join(m["content"] for m in render_messages(case))
    visible = _visible_text(case)
    # An OpenFOAM reference is a whole run (seconds each); its numbers are checked by test_foam_cases instead. A
    # refined fem reference is three oracle runs (compiled ones for deal.II): test_fem_oracle checks it. A fea
    # refinement study runs reference.py at every level (minutes for a Gold case): test_fea_cases checks the
    # closed form and the published target, tests/test_pipeline_fea.py the study itself.
    if case.suite.environment in openfoam.ENVIRONMENTS or case.hidden.reference["generator"] in (
        "refined",
        "fea_refinement",
    ):
        reference = Reference()
    elif case.suite.name == "cfd-code":  # generated once per session, shared with the cfd-code tests
        reference = cfd_code_support.reference(case.id)
    else:
        reference = plugin_of(case).generate_reference(case)
    hidden = [
        case.hidden.reference,
        case.hidden.oracle,
        case.hidden.scoring,
        case.hidden.thresholds,
        case.hidden.mutants,
        case.threshold_policy(),
        case.suite.mutants,
        reference.scalars,
    ]
    oracle = case.folder / case.hidden.oracle
    texts = read_tree(oracle).values() if oracle.is_dir() else [oracle.read_text()]
    oracle_lines = [line.strip() for text in texts for line in text.splitlines() if len(line.strip()) > 30]
    candidates = {s for leaf in _leaves(hidden) for s in _spellings(leaf)} | set(oracle_lines)
    public = visible + _template_text(case) + _suite_context_text(case)
    leaked = sorted(s for s in candidates if s in prompt and s not in public)
    assert not leaked, f"{case.key}: hidden values in the prompt: {leaked}"
    for name, values in reference.fields.items():
        sample = [f"{v:.6g}" for v in values.ravel()[:: max(1, values.size // 50)] if abs(v) > 1e-3 and v != 1.0]
        assert not [s for s in sample if len(s) > 4 and s in prompt and s not in visible], (
            f"{case.key}: reference {name} leaked"
        )


def test_the_check_catches_a_leak(repo, monkeypatch):
    """The scan above must be able to fail: a template that prints a hidden field is caught."""
    case = next(c for c in validate_path(repo / "cases") if c.id == "sod")
    prompt = "\n".join(m["content"] for m in render_messages(case)) + f"\n{case.hidden.reference['generator']}"
    spellings = {s for leaf in _leaves([case.hidden.reference]) for s in _spellings(leaf)}
    assert any(s in prompt and s not in _visible_text(case) for s in spellings)
