"""Every physics case, without Genesis: its declared checks exist and name what they need, and every mutant
builds from its oracle and changes it (a suite mutant whose ``old`` string an oracle holds twice, or not at all,
must be pointed elsewhere under the case's ``hidden.mutants``)."""

from __future__ import annotations

import pytest
from pipeline import REPO

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
