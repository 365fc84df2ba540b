"""What the foam suite's fresh-case generators share: the family record, reading and editing oracle files.

A family generator (:class:`Family`) draws new numbers for one kind of published case and writes them into the
case (text, title, oracle files, the mutants that quote them); its ``check`` judges OpenFOAM's run of the fresh
oracle against the physics of the drawn numbers (the end time and finite fields are checked for every family by
:func:`simcodebench.suites.foam.fresh.verify`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.io import read_yaml
from simcodebench.suites.foam.dictionaries import patch_span
from simcodebench.suites.foam.fields import COMPARED
from simcodebench.suites.foam.scorer import OracleRun

Check = Callable[[Case, OracleRun], tuple[dict[str, Any], list[str]]]
"""The family's physical check: (what was measured, the problems found; none keeps the case)."""
_VECTOR = re.compile(r"uniform \((?P<x>\S+) (?P<y>\S+) (?P<z>\S+)\)")
_SCALAR = re.compile(r"(?:uniform|constant) (?P<v>[-+0-9.eE]+)")


@dataclass(frozen=True)
class Family:
    """One family's generator: ``draw`` (published case, rng) -> the fresh draw; ``check`` of the oracle's run;
    ``fields``: the fields of the last time the check reads (more than the compared ones where it needs them)."""

    draw: Callable[[Case, np.random.Generator], FreshDraw]
    check: Check
    fields: tuple[str, ...] = COMPARED


def oracle_text(case: Case, name: str) -> str:
    """The text of the oracle file ``name`` (``0/U``, ``system/controlDict``) of ``case``."""
    return (case.folder / "oracle" / name).read_text(encoding="utf-8")


def patch_entry(text: str, patch: str, key: str = "value") -> str:
    """The value text of entry ``key`` of ``patch`` in a field file's ``boundaryField`` (``uniform (1 0 0)``)."""
    start, end = patch_span(text, patch)
    found = re.search(rf"^\s*{re.escape(key)}\s+([^;]+);", text[start:end], re.M)
    if found is None:
        raise ValueError(f"patch '{patch}' has no entry '{key}'")
    return found.group(1).strip()


def patch_vector(text: str, patch: str, key: str = "value") -> np.ndarray:
    """A uniform vector entry of a patch (``uniform (1 0 0)`` -> [1, 0, 0])."""
    found = _VECTOR.fullmatch(patch_entry(text, patch, key))
    if found is None:
        raise ValueError(f"patch '{patch}': '{key}' is not a uniform vector")
    return np.array([float(found[c]) for c in "xyz"])


def patch_scalar(text: str, patch: str, key: str = "value") -> float:
    """A uniform (or constant) scalar entry of a patch (``uniform 1.2`` -> 1.2)."""
    found = _SCALAR.fullmatch(patch_entry(text, patch, key))
    if found is None:
        raise ValueError(f"patch '{patch}': '{key}' is not a uniform scalar")
    return float(found["v"])


def published_case(family: Case) -> dict[str, Any]:
    """The family's ``case.yaml`` as a mapping, without its second solution (which keeps the published numbers)."""
    raw = read_yaml(family.folder / "case.yaml")
    raw["hidden"].pop("alternative", None)
    return raw


def set_mutant_value(case: dict[str, Any], mutant: str, value: str) -> None:
    """Set the ``value`` argument of ``mutant`` in a case mapping, where the case declares that mutant."""
    args = case["hidden"].get("mutants", {}).get(mutant)
    if args is not None:
        args["value"] = value
