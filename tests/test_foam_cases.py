"""The foam suite's cases and the FoamBench importer, without running OpenFOAM."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from simcodebench.agents.artifacts import extract_files
from simcodebench.agents.backends.alternative import alternative_artifact, alternative_reply
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.agents.backends.oracle import oracle_artifact, oracle_reply
from simcodebench.agents.prompts import render_messages
from simcodebench.cli import main
from simcodebench.core.cases import validate_path
from simcodebench.core.errors import InputError
from simcodebench.execution.openfoam import application
from simcodebench.suites.foam.importer import case_id, import_foambench

FAMILIES = {"cavity", "pitzDaily", "cylinder", "forwardStep", "obliqueShock", "wedge", "damBreak", "squareBend"}


@pytest.fixture(scope="module")
def cases(repo):
    return validate_path(repo / "cases" / "foam")


def test_eight_families_with_three_variants_or_more(cases):
    counts = Counter(case.visible.spec["family"] for case in cases)
    assert set(counts) == FAMILIES
    assert min(counts.values()) >= 3


# What a second solution may choose differently: the numerics and the output format, never the stated problem
FREE_FILES = {"system/fvSolution", "system/fvSchemes", "system/controlDict"}


def test_every_case_has_a_second_solution_that_changes_only_free_settings(cases):
    for case in cases:
        oracle, second = oracle_artifact(case), alternative_artifact(case)
        assert case.hidden.alternative == "alternative" and set(second) == set(oracle), case.id
        changed = {path for path in oracle if oracle[path] != second[path]}
        assert changed and changed <= FREE_FILES, (case.id, changed)  # not the oracle's twin
        assert extract_files(case, alternative_reply(case)) == second


def test_oracles_are_whole_cases_that_survive_the_reply_format(cases):
    for case in cases:
        files = oracle_artifact(case)
        assert files["Allrun"].startswith("#!") and "system/blockMeshDict" in files
        assert {path.split("/")[0] for path in files} >= {"0", "constant", "system"}
        assert extract_files(case, oracle_reply(case)) == files
        assert "log." in files["Allrun"] and "RunFunctions" not in files["Allrun"]


def test_every_mutant_builds_and_changes_the_case(cases, tmp_path):
    for case in cases:
        oracle = oracle_artifact(case)
        solver = None
        for index, name in enumerate(mutant_names(case)):
            mutant = build_mutant(case, index, None)
            assert mutant.source != oracle, (case.key, name)
            assert extract_files(case, mutant.reply) == mutant.source
            if name == "wrong-solver":
                (tmp_path / "system").mkdir(exist_ok=True)
                (tmp_path / "system" / "controlDict").write_text(mutant.source["system/controlDict"])
                solver = application(tmp_path)
        assert solver == case.hidden.mutants["wrong-solver"]["solver"]


def test_prompts_state_the_requirement_and_format_and_hide_the_oracle(cases):
    for case in cases:
        system, user = render_messages(case)
        text = user["content"]
        assert text.startswith(case.visible.problem) and "path=" in text and "v1912" in text
        assert "RunFunctions` is not installed" in text
        assert ("in parallel on" in text) == (case.resources["tasks"] > 1)
        assert "fvSchemes" not in text and "ddtSchemes" not in text  # no oracle file content
    assert any(case.resources["tasks"] > 1 for case in cases)


def _upstream():
    return {
        "Cavity/1": {
            "usr_requirement": "Do a lid-driven cavity with pisoFoam.",
            "Allrun": "#!/bin/sh\n. $WM_PROJECT_DIR/bin/tools/RunFunctions\nrunApplication blockMesh\n",
            "0/U": "FoamFile { class volVectorField; }\n",
            "system/controlDict": "application pisoFoam;\n",
        },
        "damBreakWithObstacle/10": {
            "usr_requirement": "Do a 3D dam break with an obstacle.",
            "system/controlDict": "application interFoam;\n",
        },
    }


def test_foambench_importer_writes_a_valid_openfoam10_suite(tmp_path):
    path = tmp_path / "FoamBench_basic.json"
    path.write_text(json.dumps(_upstream()))
    out = tmp_path / "foambench-basic"
    assert main(["import", "foambench", str(path), "--out", str(out)]) == 0
    cases = validate_path(out)
    assert [c.id for c in cases] == ["Cavity-1", "damBreakWithObstacle-10"]
    cavity = cases[0]
    assert cavity.suite.name == "foambench-basic" and cavity.suite.environment == "openfoam10"
    assert cavity.suite.mutants == [] and cavity.suite.data["plugin"] == "foam"
    assert cavity.visible.problem == "Do a lid-driven cavity with pisoFoam."
    assert oracle_artifact(cavity) == {k: v for k, v in _upstream()["Cavity/1"].items() if k != "usr_requirement"}
    assert (cavity.folder / "oracle" / "Allrun").stat().st_mode & 0o111
    user = render_messages(cavity)[1]["content"]
    assert "OpenFOAM 10" in user and "RunFunctions` is not installed" not in user
    assert case_id("Cavity_SA") == "Cavity_SA"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "(top level)"),
        ({"Cavity/1": {"0/U": "x"}}, "Cavity/1.usr_requirement"),
        ({"Cavity/1": {"usr_requirement": "r"}}, "Cavity/1"),
        ({"Cavity/1": {"usr_requirement": "r", "../escape": "x"}}, "Cavity/1.../escape"),
        ({"Cavity/1": {"usr_requirement": "r", "0/U": 3}}, "Cavity/1.0/U"),
        (
            {"Cavity/1": {"usr_requirement": "r", "0/U": "x"}, "Cavity 1": {"usr_requirement": "r", "0/U": "x"}},
            "Cavity 1",
        ),
    ],
)
def test_foambench_importer_names_the_bad_field(tmp_path, data, field):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as error:
        import_foambench(path, tmp_path / "out")
    assert error.value.field == field
