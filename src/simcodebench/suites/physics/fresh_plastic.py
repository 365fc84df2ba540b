"""Fresh families of plastic bodies dropped onto the ground (MPM): clay cubes (von Mises) and packed snow.

Drawn: the cube's side and its drop height (the material, the MPM grid and the substeps stay the published
ones). The checks that follow from the draw are the elastic drops' (free fall at g, the body's size, the MPM
domain's top 10 cm above it, no bounce above 0.15 of the fall, all particles kept). The checks that make these
scenes what they are, the plastic flattening of clay and the compaction of snow (the final height over the
initial one, and clay's spread), have no closed form: they are measured, as the published bounds were, by
Genesis's own run of the fresh oracle (:func:`verify`, at the video length of the suite's variant), and the
bounds are set around the measured value with the published case's own relative margins (:func:`bounds`): the
published bounds divided by the published scene's value measured the same way (:data:`PUBLISHED`), clipped to
the material's band (:data:`BANDS`, the union of its published scenes' bounds: what "flattens" and "compacts"
mean here). A draw whose run leaves a check that follows from the draw failing, whose body is not at rest by
the end, or whose measured ratio falls outside its material's band, is dropped.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, family_of
from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.core.io import read_yaml
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

DOMAIN_MARGIN = 0.1
"""Room (m) above the cube's top in the MPM domain, as the published 50 and 80 cm drops keep."""
BOUNCE_MAX = 0.15
"""The published plastic scenes' bounce bound: a rise of at most 0.15 of the fall."""
IMPACT_S = 0.25
"""Seconds from first contact until the published plastic bodies lie still (their smoke runs, 1 s)."""
DIGITS = 2
"""Decimals a measured ratio is kept to (1 % of the cube's height): a rerun on this machine rounds the same."""
BOUND_DIGITS = 3
"""Decimals of a derived bound."""
REST_TOLERANCE = 0.02
"""At rest: the height ratio varies by at most this over the last :data:`REST_SHARE` of the run."""
REST_SHARE = 0.2


@dataclass(frozen=True)
class Measured:
    """One published scene's measured ratios (``axis``: ``z`` height, ``xy`` spread) and its published bounds."""

    value: dict[str, float]
    published: dict[str, tuple[float, float]]


# The published scenes' ratios in Genesis 1.4.5 on CPU at physics@smoke (1 s), measured by this module's run
# (benchmarks/results/fresh-variants-physics-plastic.md), beside the bounds their case.yaml declares.
PUBLISHED: dict[str, Measured] = {
    "clay_drop": Measured({"z": 0.57, "xy": 2.16}, {"z": (0.1, 0.8), "xy": (1.2, 4.0)}),
    "clay_drop_low": Measured({"z": 0.7, "xy": 1.84}, {"z": (0.3, 0.95), "xy": (1.05, 3.0)}),
    "snow_drop": Measured({"z": 0.87}, {"z": (0.7, 0.97)}),
    "snow_drop_high": Measured({"z": 0.82}, {"z": (0.6, 0.97)}),
}
BANDS: dict[str, dict[str, tuple[float, float]]] = {
    "clay": {"z": (0.1, 0.95), "xy": (1.05, 4.0)},
    "snow": {"z": (0.6, 0.97)},
}
"""Per material, the union of its published scenes' bounds: a fresh ratio must fall inside, and its bounds are
clipped to it (clay flattens, below 0.95 of its height; snow compacts, below 0.97)."""


def material(family: str) -> str:
    """``clay`` or ``snow``: the material of a published plastic scene."""
    return family.split("_")[0]


def bounds(measured: float, family: str, axis: str) -> tuple[float, float]:
    """The bounds of a fresh ratio ``measured`` along ``axis``: the published case's bounds scaled by the
    measured ratio over the published one (the same relative margins), clipped to the material's band."""
    reference = PUBLISHED[family]
    low, high = reference.published[axis]
    scale = measured / reference.value[axis]
    band_low, band_high = BANDS[material(family)][axis]
    return max(round(low * scale, BOUND_DIGITS), band_low), min(round(high * scale, BOUND_DIGITS), band_high)


def _axes(family: str) -> tuple[str, ...]:
    return tuple(PUBLISHED[family].value)


def _reference(p: Params) -> Params:
    top = np.ceil(round((p["drop_height"] + p["size"] / 2 + DOMAIN_MARGIN) * 20, 6)) / 20
    measured = {k: p[k] for k in sorted(p) if k.startswith("measured_")}
    return {"g": G, "size": p["size"], "drop_height": p["drop_height"], "domain_top": round(float(top), 2), **measured}


def _body(p: Params) -> dict[str, Any]:
    return {"kind": "box", "solver": "mpm", "size": [p["size"]] * 3}


def _checks(family: str) -> Any:
    def checks(p: Params) -> list[dict[str, Any]]:
        body = _body(p)
        found = [
            {"check": "no_nan"},
            {"check": "fall_acceleration", "object": body, "g": p["g"], "rtol": 0.05},
            {"check": "no_penetration", "object": body, "atol": 0.02},
            {"check": "particles_kept", "object": body},
            {"check": "bounce_fraction", "object": body, "min": 0.0, "max": BOUNCE_MAX},
        ]
        for axis in _axes(family):
            key = f"measured_{axis}"
            low, high = bounds(p[key], family, axis) if key in p else PUBLISHED[family].published[axis]
            found.append({"check": "extent_ratio", "object": body, "axis": axis, "min": low, "max": high})
        return found

    return checks


def _edits(height: str, top: str, side_phrase: str, title: str | None) -> Any:
    """The edits of one published plastic drop: the cube's side in the text (``side_phrase`` names it, "side"
    or "cube"), its drop height, the oracle's box and domain top, and a title naming the height."""

    def edits(p: Params) -> tuple[Edits, Edits]:
        s, h = p["size"], p["drop_height"]
        text = [
            (f"(20 cm {side_phrase},", f"({cm(s)} cm {side_phrase},"),
            (f"centre {float(height):g} m above", f"centre {number(h)} m above"),
        ]
        if title:
            text.append((title, f"from {cm(h)} cm"))
        oracle = [
            (
                f"Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, {height}))",
                f"Box(size=({f(s)}, {f(s)}, {f(s)}), pos=(0.0, 0.0, {f(h)}))",
            ),
            (f"upper_bound=(0.5, 0.5, {top})", f"upper_bound=(0.5, 0.5, {f(p['domain_top'])})"),
        ]
        return text, oracle

    return edits


def _scene(p: Params) -> dict[str, Any]:
    return {
        "body1.size": [p["size"]] * 3,
        "body1.pos": [0.0, 0.0, p["drop_height"]],
        "MPMOptions.upper_bound": [0.5, 0.5, p["domain_top"]],
    }


def _plastic(family: str, size: Param, height: Param, edits: Any) -> Family:
    return Family(
        params={"size": size, "drop_height": height},
        materials={},
        edits=edits,
        reference=_reference,
        checks=_checks(family),
        scene=_scene,
        settle_s=lambda p: fall_time(p["drop_height"] - p["size"] / 2) + IMPACT_S,
    )


# Sides within 15 % of the published 20 cm (at least 5.4 cells of the 1/32 m grid), heights within 20 % of the
# published ones.
FAMILIES: dict[str, Family] = {
    "clay_drop": _plastic("clay_drop", Param(0.17, 0.23, 3), Param(0.42, 0.58, 2), _edits("0.5", "0.7", "side", None)),
    "clay_drop_low": _plastic(
        "clay_drop_low", Param(0.17, 0.23, 3), Param(0.3, 0.4, 2), _edits("0.35", "0.7", "side", None)
    ),
    "snow_drop": _plastic("snow_drop", Param(0.17, 0.23, 3), Param(0.42, 0.58, 2), _edits("0.5", "0.7", "cube", None)),
    "snow_drop_high": _plastic(
        "snow_drop_high", Param(0.17, 0.23, 3), Param(0.7, 0.9, 2), _edits("0.8", "1.0", "cube", "from 80 cm")
    ),
}


# --- the Genesis run that measures a fresh scene ----------------------------------------------------------------


def run_oracle(case: Case, workdir: Path) -> Any:
    """Run the case's oracle (at its suite variant's video contract) in Genesis under the physics runner, in
    ``workdir``, as the pipeline runs a solution; the recorded main scene, or a string saying why there is none."""
    from simcodebench.execution.harness_runs import python_request, run_harness_program
    from simcodebench.suites.physics import scorer
    from simcodebench.suites.physics.state import load_recording

    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "genesis_solution.py").write_text(scorer.oracle_source(case), encoding="utf-8")
    shutil.copyfile(scorer.RUNNER, workdir / case.suite.entrypoint)
    wall = float(case.resources.get("wall_s", 600))
    request = python_request(
        case.suite.environment, [case.suite.entrypoint], workdir, wall, int(case.resources.get("mem_mb", 8192))
    )
    result = run_harness_program(case.suite.environment, request)
    recording = load_recording(workdir)
    scene = recording.main_scene() if recording is not None else None
    if result.status != "ok" or scene is None:
        return f"the oracle's Genesis run ended {result.status} (rc {result.rc}): {result.message[:300]}"
    return scene


def measure(case: Case, scene: Any) -> tuple[dict[str, float], list[str]]:
    """The ratios a fresh case's bounds are set from, rounded to :data:`DIGITS` decimals (``measured_z``,
    ``measured_xy``), and what in the run rules the draw out: a check that follows from the draw failing, a body
    not at rest by the end, a ratio outside its material's band."""
    from simcodebench.suites.physics.checks import run_checks
    from simcodebench.suites.physics.checks_particles import extent_ratio

    family = family_of(case.id) or case.id
    checks = case.hidden.scoring["checks"]
    problems = [
        f"{r.name} fails in the oracle's run: {r.detail or r.value}"
        for spec, r in zip(checks, run_checks(scene, checks), strict=True)
        if spec["check"] != "extent_ratio" and not r.passed
    ]
    measured: dict[str, float] = {}
    for axis in _axes(family):
        spec = {"object": _body(case.hidden.reference["params"]), "axis": axis}
        value = extent_ratio(scene, spec).value
        if value is None:
            problems.append(f"no {axis} ratio in the run")
            continue
        measured[f"measured_{axis}"] = round(float(value), DIGITS)
        low, high = BANDS[material(family)][axis]
        if not low < value < high:
            problems.append(f"the {axis} ratio {value:.3f} is outside the {material(family)} band [{low}, {high}]")
    problems += _at_rest(scene, case.hidden.reference["params"])
    return measured, problems


def _at_rest(scene: Any, params: Params) -> list[str]:
    from simcodebench.suites.physics.check_common import moving_entity

    entity = moving_entity(scene, {"object": _body(params)}, "at_rest")
    if not hasattr(entity, "series"):
        return ["the cube is not in the run"]
    height = entity.series["hi"][:, 2] - entity.series["lo"][:, 2]
    tail = height[-max(2, int(round(REST_SHARE * len(height)))) :] / height[0]
    spread = float(np.max(tail) - np.min(tail))
    if spread > REST_TOLERANCE:
        return [
            f"the body is still moving at the end (height ratio varies by {spread:.3f} over the last {REST_SHARE:g})"
        ]
    return []


def rewrite(case: Case, measured: dict[str, float]) -> dict[str, Any]:
    """Write the measured ratios into the case's reference parameters and its extent checks' bounds
    (``case.yaml`` in the case folder); the new reference parameters."""
    from simcodebench.pipeline.generate import _dump_yaml

    family = FAMILIES[family_of(case.id) or case.id]
    path = case.folder / "case.yaml"
    data = read_yaml(path)
    params = family.reference({**data["hidden"]["reference"]["params"], **measured})
    data["hidden"]["reference"]["params"] = params
    data["hidden"]["scoring"]["checks"] = family.checks(params)
    path.write_text(_dump_yaml(data), encoding="utf-8")
    return params


def verify(case: Case, workdir: Path) -> FreshCheck:
    """The parameter-level verification of :mod:`.fresh_verify`, then Genesis's run of the fresh oracle: the
    measured ratios written into the case and its bounds set from them (module docstring), and the rewritten
    case verified again at the parameter level."""
    from simcodebench.core.cases import load_case
    from simcodebench.suites.physics import fresh_verify

    first = fresh_verify.verify(case, workdir)
    if not first.ok:
        return first
    scene = run_oracle(case, workdir / "genesis")
    if isinstance(scene, str):
        return FreshCheck(ok=False, detail={**first.detail, "reason": scene})
    measured, problems = measure(case, scene)
    detail = {**first.detail, **measured}
    if problems:
        return FreshCheck(ok=False, detail={**detail, "reason": "; ".join(problems)})
    rewrite(case, measured)
    again = fresh_verify.verify(load_case(case.suite, case.folder), workdir)
    checks = load_case(case.suite, case.folder).hidden.scoring["checks"]
    detail["bounds"] = {c["axis"]: [c["min"], c["max"]] for c in checks if c["check"] == "extent_ratio"}
    return FreshCheck(ok=again.ok, detail={**detail, **({} if again.ok else {"reason": again.detail["reason"]})})


def measured_family(case: Case) -> bool:
    """Whether ``case`` is a fresh plastic drop, verified by a Genesis run (:func:`verify`)."""
    return (family_of(case.id) or "") in FAMILIES
