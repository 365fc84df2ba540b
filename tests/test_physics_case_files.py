"""Every physics case, without Genesis: its declared checks exist and name what they need, and every mutant
builds from its oracle and changes it (a suite mutant whose ``old`` string an oracle holds twice, or not at all,
must be pointed elsewhere under the case's ``hidden.mutants``); every case's second solution gets the variant's
video contract and a gravity mutant."""

from __future__ import annotations

import pytest
from pipeline import REPO

from simcodebench.agents.backends.alternative import alternative_artifact, has_alternative
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.core.cases import load_suite_cases
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.checks import CHECKS

CASES = load_suite_cases(REPO / "cases" / "physics", "smoke")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_checks_are_known_and_every_mutant_edits_the_oracle(case):
    for spec in case.hidden.scoring["checks"]:
        assert spec["check"] in CHECKS, spec
        objects = [spec["object"]] if "object" in spec else [item["object"] for item in spec.get("objects", [])]
        assert spec["check"] == "no_nan" or objects, f"{case.id}: {spec['check']} names no object"
        assert all("kind" in obj for obj in objects), spec
    oracle = scorer.oracle_source(case)
    for index, name in enumerate(mutant_names(case)):
        mutant = build_mutant(case, index, None)
        assert mutant.source != oracle, f"{case.id}: mutant {name} changes nothing"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_second_solution_gets_the_variants_video_contract_and_a_gravity_mutant(case):
    assert has_alternative(case), f"{case.id}: no second solution (hidden.alternative)"
    written = (case.folder / case.hidden.alternative).read_text(encoding="utf-8")
    assert "RES, FPS, SECONDS = (1280, 640), 60, 5.0" in written  # written to the paper's contract
    source = alternative_artifact(case)
    assert "RES, FPS, SECONDS = (320, 160), 30, 1.0" in source and "(1280, 640)" not in source
    assert source.replace("(320, 160), 30, 1.0", "") != scorer.oracle_source(case).replace("(320, 160), 30, 1.0", "")
    gravity = build_mutant(case, 0, None, ["gravity-50"], base="alternative")
    assert gravity.name == "gravity-50@alternative" and gravity.declared_class == "F-Acc"
    assert gravity.source != source and "-50.0)" in gravity.source


def test_a_second_solution_without_one_contract_line_is_refused():
    case = CASES[0]
    with pytest.raises(ValueError, match="exactly one line 'RES, FPS, SECONDS"):
        scorer.with_contract(case, "import genesis as gs\n")
