"""Parameter-level verification of a fresh physics scene (a Genesis run costs minutes of CPU here).

A written case is kept when, recomputed from its reference parameters alone (``hidden.reference.params``):

- the closed-form values in those parameters (an acceleration, a range, masses, velocity bounds) equal their
  closed forms from the drawn numbers in them;
- every declared check equals the family's check from those parameters;
- the oracle, run against a recording stand-in for Genesis (:mod:`.scene_probe`), builds the drawn scene (sizes,
  positions, angles, densities, friction, launch velocity, gravity);
- the draw can be run as stated (a block on a slope steeper than its friction angle, a body still on the plank
  when the fit ends, a range longer than the landing check's step);
- the motion the checks judge is over within :data:`SETTLE_SHARE` of the shortest video the suite's variants
  ask for (1 s for ``physics@smoke``), so that the final-state checks see it at rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, family_of
from simcodebench.core.io import read_yaml
from simcodebench.suites.physics.fresh import FAMILIES
from simcodebench.suites.physics.fresh_common import Family
from simcodebench.suites.physics.scene_probe import probe

SETTLE_SHARE = 0.8
"""The motion must be over within this share of the shortest video (the rest shows it at rest)."""


def same(a: Any, b: Any) -> bool:
    """Equal values: numbers (and nested lists of them) to 1e-9 relative, anything else exactly; mappings key by
    key."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    numbers = (int, float, np.floating, np.integer)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return bool(np.isclose(float(a), float(b), rtol=1e-9, atol=1e-12))
    return a == b


def shortest_video(case: Case) -> float:
    """The shortest video (seconds) the case's suite asks for, under any of its variants."""
    protocol = read_yaml(Path(case.suite.folder) / "suite.yaml")
    durations = [float(protocol["scoring"]["video"]["duration_s"])]
    for variant in (protocol.get("variants") or {}).values():
        video = (variant.get("scoring") or {}).get("video") or {}
        if "duration_s" in video:
            durations.append(float(video["duration_s"]))
    return min(durations)


def _family(case: Case) -> Family:
    published = family_of(case.id)
    if published not in FAMILIES:
        raise KeyError(f"{case.key}: no physics fresh family '{published}'")
    return FAMILIES[published]


def _scene_problems(family: Family, params: dict[str, Any], source: str, where: str) -> list[str]:
    built = probe(source, where).flat()
    problems = []
    for key, value in family.scene(params).items():
        if key not in built or not same(built[key], value):
            problems.append(f"the oracle's {key} is {built.get(key)!r}, not the drawn {value!r}")
    return problems


def verify(case: Case, workdir: Path) -> FreshCheck:
    """Parameter-level verification of a fresh scene (module docstring); ``workdir`` is not needed."""
    family = _family(case)
    params = dict(case.hidden.reference["params"])
    problems = []
    recomputed = family.reference(params)
    for key, value in recomputed.items():
        if not same(params.get(key), value):
            problems.append(f"reference {key} = {params.get(key)!r}, its closed form gives {value!r}")
    declared, expected = case.hidden.scoring["checks"], family.checks(params)
    if len(declared) != len(expected):
        problems.append(f"{len(declared)} checks declared, the family has {len(expected)}")
    for got, want in zip(declared, expected, strict=False):
        if not same(got, want):
            problems.append(f"check {want['check']} is {got!r}, its closed form is {want!r}")
    oracle = case.folder / case.hidden.oracle
    problems += _scene_problems(family, params, oracle.read_text(encoding="utf-8"), str(oracle))
    problems += family.problems(params)
    settle, video = family.settle_s(params), shortest_video(case)
    detail: dict[str, Any] = {"settle_s": settle, "shortest_video_s": video, "settle_share": SETTLE_SHARE}
    detail.update({k: v for k, v in recomputed.items() if isinstance(v, int | float | list)})
    if settle > SETTLE_SHARE * video:
        problems.append(f"the motion takes {settle:.2f} s, more than {SETTLE_SHARE:g} of the {video:g} s video")
    if problems:
        return FreshCheck(ok=False, detail={**detail, "reason": "; ".join(problems)})
    return FreshCheck(ok=True, detail=detail)
