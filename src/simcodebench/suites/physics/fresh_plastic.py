"""Fresh families of plastic bodies dropped onto the ground (MPM): clay cubes (von Mises) and packed snow.

Drawn: the cube's side and its drop height (the material, the MPM grid and the substeps stay the published
ones). The checks that follow from the draw are the elastic drops' (free fall at g, the body's size, the MPM
domain's top 10 cm above it, no bounce above 0.15 of the fall, all particles kept). The checks that make these
scenes what they are, the plastic flattening of clay and the compaction of snow (the final height over the
initial one, and clay's spread), have no closed form. They were measured in Genesis for the published scenes
(:data:`PUBLISHED`, two drop heights per material); a fresh draw's ratio is predicted from those by the monotone
relation they show, linear in the drop height through the material's two published points (:func:`predicted`),
and its bounds are the published case's bounds scaled by the predicted ratio over the published one (the same
relative margins), clipped to the material's band (:data:`BANDS`; :func:`bounds`). The verification then runs
the fresh oracle in Genesis (:func:`genesis_gate`, at the video length of the suite's variant): the draw is kept only
when the run passes every check, the body lies still at the end, and each measured ratio is within
:data:`TOLERANCE` of its prediction. The case itself holds no measured number: Genesis's MPM sampler places the
particles at random (SPlisHSPlasH's volume sampling, a new sample per run), which moves a snow block's final
height by a few per cent from run to run, so a measured ratio written into the case would make the same seed
write other bytes; the prediction does not move, and the run only decides whether the draw is kept.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshCheck, family_of
from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

LOG = logging.getLogger(__name__)

DOMAIN_MARGIN = 0.1
"""Room (m) above the cube's top in the MPM domain, as the published 50 and 80 cm drops keep."""
BOUNCE_MAX = 0.15
"""The published plastic scenes' bounce bound: a rise of at most 0.15 of the fall."""
IMPACT_S = 0.25
"""Seconds from first contact until the published plastic bodies lie still (their smoke runs, 1 s)."""
DIGITS = 2
"""Decimals of a predicted ratio (1 % of the cube's height)."""
BOUND_DIGITS = 3
"""Decimals of a derived bound."""
REST_TOLERANCE = 0.02
"""At rest: the height ratio varies by at most this over the last :data:`REST_SHARE` of the run."""
REST_SHARE = 0.2


TOLERANCE = 0.15
"""A fresh run's ratio may differ from its prediction by this share of it: about four times the largest
deviation from the mean (3.5 %) of one fresh snow block's ratio over six runs, which the random particle
sampling moves between 0.82 and 0.87 (benchmarks/results/fresh-variants-physics-plastic.md)."""


@dataclass(frozen=True)
class Measured:
    """One published scene: its drop height, its measured ratios (``axis``: ``z`` height, ``xy`` spread) and its
    published bounds."""

    drop_height: float
    value: dict[str, float]
    published: dict[str, tuple[float, float]]


# The published scenes' ratios in Genesis 1.4.5 on CPU at physics@smoke (1 s), measured by this module's run
# (benchmarks/results/fresh-variants-physics-plastic.md), beside the bounds their case.yaml declares.
PUBLISHED: dict[str, Measured] = {
    "clay_drop": Measured(0.5, {"z": 0.57, "xy": 2.16}, {"z": (0.1, 0.8), "xy": (1.2, 4.0)}),
    "clay_drop_low": Measured(0.35, {"z": 0.7, "xy": 1.84}, {"z": (0.3, 0.95), "xy": (1.05, 3.0)}),
    "snow_drop": Measured(0.5, {"z": 0.87}, {"z": (0.7, 0.97)}),
    "snow_drop_high": Measured(0.8, {"z": 0.82}, {"z": (0.6, 0.97)}),
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


def predicted(family: str, axis: str, drop_height: float) -> float:
    """The ratio along ``axis`` of a fresh drop from ``drop_height`` (centre, m), to 0.01: linear in the drop
    height through the ratios of the material's two published scenes (extrapolated past them)."""
    (h0, r0), (h1, r1) = sorted(
        (m.drop_height, m.value[axis]) for name, m in PUBLISHED.items() if material(name) == material(family)
    )
    return round(r0 + (r1 - r0) * (drop_height - h0) / (h1 - h0), DIGITS)


def bounds(ratio: float, family: str, axis: str) -> tuple[float, float]:
    """The bounds of a fresh scene whose ratio along ``axis`` is ``ratio``: the published case's bounds scaled by
    that ratio over the published one (the same relative margins), clipped to the material's band."""
    reference = PUBLISHED[family]
    low, high = reference.published[axis]
    scale = ratio / reference.value[axis]
    band_low, band_high = BANDS[material(family)][axis]
    return max(round(low * scale, BOUND_DIGITS), band_low), min(round(high * scale, BOUND_DIGITS), band_high)


def _axes(family: str) -> tuple[str, ...]:
    return tuple(PUBLISHED[family].value)


def _reference(family: str) -> Any:
    def reference(p: Params) -> Params:
        top = np.ceil(round((p["drop_height"] + p["size"] / 2 + DOMAIN_MARGIN) * 20, 6)) / 20
        ratios = {f"predicted_{axis}": predicted(family, axis, p["drop_height"]) for axis in _axes(family)}
        return {
            "g": G,
            "size": p["size"],
            "drop_height": p["drop_height"],
            "domain_top": round(float(top), 2),
            **ratios,
        }

    return reference


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
            low, high = bounds(p[f"predicted_{axis}"], family, axis)
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
        reference=_reference(family),
        checks=_checks(family),
        scene=_scene,
        settle_s=lambda p: fall_time(p["drop_height"] - p["size"] / 2) + IMPACT_S,
    )


# Clay: sides within 15 % of the published 20 cm (at least 5.4 cells of the 1/32 m grid), heights within 20 % of the
# published ones. Snow stays inside its published envelope (sides up to 20 cm, drops up to 80 cm): snow hardens as it
# compacts, which stiffens it past what the published substeps resolve, and a fresh 22.3 cm block dropped from 0.87 m
# blew up in the workflow's run (height 2.76 times its own) after three clean verification runs
# (benchmarks/results/fresh-variants-physics-plastic.md).
FAMILIES: dict[str, Family] = {
    "clay_drop": _plastic("clay_drop", Param(0.17, 0.23, 3), Param(0.42, 0.58, 2), _edits("0.5", "0.7", "side", None)),
    "clay_drop_low": _plastic(
        "clay_drop_low", Param(0.17, 0.23, 3), Param(0.3, 0.4, 2), _edits("0.35", "0.7", "side", None)
    ),
    "snow_drop": _plastic("snow_drop", Param(0.17, 0.2, 3), Param(0.42, 0.58, 2), _edits("0.5", "0.7", "cube", None)),
    "snow_drop_high": _plastic(
        "snow_drop_high", Param(0.17, 0.2, 3), Param(0.7, 0.8, 2), _edits("0.8", "1.0", "cube", "from 80 cm")
    ),
}


# --- the Genesis run that measures a fresh scene ----------------------------------------------------------------


def measure(case: Case, scene: Any) -> tuple[dict[str, float], list[str]]:
    """The run's ratios (``z``, ``xy``) as the extent checks compute them, and what in the run rules the draw out:
    a declared check failing, a ratio outside its material's band or off its prediction by more than
    :data:`TOLERANCE`, a body not at rest by the end."""
    from simcodebench.suites.physics.checks import run_checks
    from simcodebench.suites.physics.checks_particles import extent_ratio

    family = family_of(case.id) or case.id
    params, checks = case.hidden.reference["params"], case.hidden.scoring["checks"]
    problems = [
        f"{r.name} fails in the oracle's run: {r.detail or r.value}" for r in run_checks(scene, checks) if not r.passed
    ]
    measured: dict[str, float] = {}
    for axis in _axes(family):
        value = extent_ratio(scene, {"object": _body(params), "axis": axis}).value
        if value is None:
            problems.append(f"no {axis} ratio in the run")
            continue
        measured[axis] = float(value)
        low, high = BANDS[material(family)][axis]
        if not low < value < high:
            problems.append(f"the {axis} ratio {value:.3f} is outside the {material(family)} band [{low}, {high}]")
        expected = params[f"predicted_{axis}"]
        if abs(value - expected) > TOLERANCE * expected:
            problems.append(f"the {axis} ratio {value:.3f} is off its prediction {expected} by more than {TOLERANCE:g}")
    problems += _at_rest(scene, params)
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


def genesis_gate(case: Case, workdir: Path, parameter_level: FreshCheck) -> FreshCheck:
    """The verdict on a fresh plastic drop: its parameter-level verification (``parameter_level``, from
    :func:`.fresh_verify.verify`), then Genesis's run of the fresh oracle, which must bear the predicted ratios out
    (:func:`measure`). The measured ratios go to the log, not into the verdict's detail: they move from run to run
    (module docstring), and the generation report must not."""
    if not parameter_level.ok:
        return parameter_level
    scene = scorer.run_oracle(case, workdir / "genesis")
    if isinstance(scene, str):
        return FreshCheck(ok=False, detail={**parameter_level.detail, "reason": scene})
    measured, problems = measure(case, scene)
    LOG.info("%s: Genesis ratios %s; %s", case.id, {k: round(v, 4) for k, v in measured.items()}, problems or "kept")
    if problems:
        return FreshCheck(ok=False, detail={**parameter_level.detail, "reason": "; ".join(problems)})
    gate = f"every check passes, ratios within {TOLERANCE:g} of the prediction"
    return FreshCheck(ok=True, detail={**parameter_level.detail, "genesis_run": gate})


def measured_family(case: Case) -> bool:
    """Whether ``case`` is a fresh plastic drop, verified by a Genesis run as well (:func:`genesis_gate`)."""
    return (family_of(case.id) or "") in FAMILIES
