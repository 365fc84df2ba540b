"""Every case folder of the fea suite follows the contract (docs: cases/fea/README.md): readable units, a
refinement reference with at least two levels, a reference.py that takes --level, and no hidden number in a
prompt. Cheap: nothing is solved here (tests/test_pipeline_fea.py runs the pipeline on example_torsion)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from simcodebench.agents.prompts import render_messages
from simcodebench.core.cases import load_suite_cases
from simcodebench.suites.fea.units import convert, parse_units

SUITE = Path(__file__).resolve().parents[1] / "cases" / "fea"
CASES = load_suite_cases(SUITE)
ALLOWED_IMPORTS = {
    "numpy",
    "scipy",
    "sympy",
    "skfem",
    "dolfinx",
    "ufl",
    "basix",
    "mpi4py",
    "petsc4py",
    "gmsh",
    "ngsolve",
}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_follows_the_contract(case):
    target = case.visible.spec["target"]
    parse_units(target["units"])
    assert [f["name"] for f in case.visible.contract["files"]] == ["result.json"]
    reference = case.hidden.reference
    assert reference["generator"] == "fea_refinement" and case.hidden.oracle == "reference.py"
    levels = reference.get("params", {}).get("levels", [0, 1, 2])
    assert len(levels) >= 2 and 1 in levels, "levels must include the oracle's default level 1"
    scoring = case.hidden.scoring
    if "published_target" in scoring:  # the COMSOL target, in units convertible to ours
        convert(float(scoring["published_target"]), scoring["published_units"], target["units"])
    source = (case.folder / "reference.py").read_text()
    assert "--level" in source and "result.json" in source
    assert _imports(source) <= ALLOWED_IMPORTS | set(sys.stdlib_module_names), _imports(source) - ALLOWED_IMPORTS


def _imports(source: str) -> set[str]:
    return {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }


def test_every_case_has_a_second_solution():
    """A second solution (README, "Second solutions") writes result.json from the problem alone: it uses the
    environment's libraries and no refinement level, and is not the reference's text."""
    assert [c.id for c in CASES if not c.hidden.alternative] == []
    for case in CASES:
        source = (case.folder / case.hidden.alternative).read_text()
        assert case.hidden.alternative == "alternative_solution.py" and "result.json" in source
        assert "--level" not in source and source != (case.folder / "reference.py").read_text()
        assert _imports(source) <= ALLOWED_IMPORTS | set(sys.stdlib_module_names), case.id


@pytest.mark.parametrize("variant", [None, "plan", "apidoc"])
def test_no_hidden_number_in_a_prompt(variant):
    for case in load_suite_cases(SUITE, variant):
        text = "\n".join(m["content"] for m in render_messages(case))
        params = case.hidden.reference.get("params", {})
        hidden = [params.get("closed_form"), case.hidden.scoring.get("published_target")]
        for number in (h for h in hidden if h is not None):
            assert f"{float(number):.4g}" not in text and str(number) not in text, (case.id, number)
        assert "reference.py" not in text, case.id
