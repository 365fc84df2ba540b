"""Every foam family's first case runs to its end in OpenFOAM v1912 and yields a reference of U, p (T, rho)."""

from __future__ import annotations

import pytest

from simcodebench.core.cases import validate_path
from simcodebench.suites.foam.scorer import generate_reference

pytestmark = pytest.mark.slow


def _first_of_each_family(repo):
    first = {}
    for case in validate_path(repo / "cases" / "foam"):
        first.setdefault(case.visible.spec["family"], case)
    return sorted(first.values(), key=lambda c: c.id)


@pytest.mark.parametrize("family", ["cylinder", "damBreak", "forwardStep", "pitzDaily", "squareBend", "wedge"])
def test_family_reference_runs(family, repo, openfoam_env):
    case = next(c for c in _first_of_each_family(repo) if c.visible.spec["family"] == family)
    reference = generate_reference(case)
    assert {"U", "p"} <= set(reference.scalars["fields"])
    cells = reference.scalars["cells"]
    assert reference.fields["C"].shape == (cells, 3) and reference.fields["U"].shape == (cells, 3)
    assert reference.scalars["time"] > 0
