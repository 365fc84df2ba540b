"""Shared helpers of the cfd-code tests: the suite's cases, cached references and the upstream arrays."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from shared_cache import made_once

from simcodebench.core.cases import Case, get_case
from simcodebench.core.references import Reference
from simcodebench.suites.cfd_code import scorer

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream" / "cfdllmbench" / "solution"
# References that take more than 20 s on one core (a fine Navier-Stokes run, the 128 x 256 spectral shear flow,
# the ensemble of convection runs; the log-polar cylinder reference takes about 9 s).
SLOW = {
    "2D_Navier_Stokes_Cavity",
    "2D_Shear_Flow_With_Tracer",
    "2D_Rayleigh_Benard_Convection",
}


def case(case_id: str) -> Case:
    """A case of the cfd-code suite."""
    return get_case("cfd-code", case_id, root=REPO / "cases")


def case_ids() -> list[str]:
    """Every case id of the suite, sorted."""
    return sorted(p.parent.name for p in (REPO / "cases" / "cfd-code").glob("*/case.yaml"))


def param_ids() -> list:
    """Case ids as pytest params, the slow ones marked ``slow``."""
    return [pytest.param(cid, marks=pytest.mark.slow) if cid in SLOW else cid for cid in case_ids()]


TEST_ENSEMBLE = {"2D_Rayleigh_Benard_Convection": {"nx": 128, "seeds": 3}}
"""Parameters the tests' reference of a case overrides. The Rayleigh-Benard case's ensemble (6 runs on 256 x 65
nodes to t = 50) costs about 1,100 s of one core; the tests generate a smaller one with the same generator, the
same physics and end time: 3 runs (leave-one-out needs 3) on 128 x 65 nodes, the coarsest x grid on which the
reference solver stays stable at Ra = 2e6 (128 x 33 does not). The case's own ensemble, its spread and
upstream's snapshot against it are measured by benchmarks/rayleigh_benard_ensemble.py."""


def case_as_tested(case_id: str) -> Case:
    """The case as the tests generate its reference: :data:`TEST_ENSEMBLE`'s overrides applied."""
    the_case = case(case_id)
    overrides = TEST_ENSEMBLE.get(case_id)
    if not overrides:
        return the_case
    spec = the_case.hidden.reference
    smaller = {**spec, "params": {**spec.get("params", {}), **overrides}}
    return replace(the_case, hidden=replace(the_case.hidden, reference=smaller))


@cache
def reference(case_id: str) -> Reference:
    """The case's reference (:data:`TEST_ENSEMBLE` smaller where it names the case), generated once per test
    session (by one of its processes under pytest-xdist)."""
    return made_once(f"cfd-code-reference-{case_id}", lambda: scorer.generate_reference(case_as_tested(case_id)))


def upstream(var: str, case_id: str) -> np.ndarray:
    """The upstream array ``<var>_<case>.npy``; skips the test when the upstream data are absent."""
    path = UPSTREAM / f"{var}_{case_id}.npy"
    if not path.is_file():
        pytest.skip(f"upstream data absent: {path}")
    return np.load(path)
