"""Fresh families of elastic bodies dropped onto the ground (MPM): jelly cubes and rubber balls. Drawn: the
body's size and its drop height; the material (Young's modulus, Poisson's ratio, density) stays the published
one, since the solver's substeps were chosen for its sound speed. Checks from the draw: free fall at g, the
body's size, the MPM domain's top above it; dimensionless bounds kept: a bounce no higher than the fall (no
energy gained) and at least 0.3 of it (the published materials' measured minimum), the height kept within 15 %."""

from __future__ import annotations

import math
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number
from simcodebench.suites.physics.fresh_common import Family, G, Params, cm, f, fall_time

# --- elastic bodies dropped onto the ground (MPM) ------------------------------------------------------------

DOMAIN_MARGIN = 0.1
"""Room (m) above the body's top in the MPM domain, as the published oracles keep (3 cells of 1/32 m)."""


def _half(p: Params) -> float:
    return p["radius"] if "radius" in p else p["size"] / 2


def _elastic_reference(p: Params) -> Params:
    body = {"radius": p["radius"]} if "radius" in p else {"size": p["size"]}
    top = math.ceil(round((p["drop_height"] + _half(p) + DOMAIN_MARGIN) * 20, 6)) / 20
    return {"g": G, **body, "drop_height": p["drop_height"], "domain_top": round(top, 2)}


def _elastic_object(p: Params) -> dict[str, Any]:
    if "radius" in p:
        return {"kind": "sphere", "solver": "mpm", "radius": p["radius"]}
    return {"kind": "box", "solver": "mpm", "size": [p["size"]] * 3}


def _elastic_checks(p: Params) -> list[dict[str, Any]]:
    body = _elastic_object
    return [
        {"check": "no_nan"},
        {"check": "fall_acceleration", "object": body(p), "g": p["g"], "rtol": 0.05},
        {"check": "no_penetration", "object": body(p), "atol": 0.02},
        {"check": "particles_kept", "object": body(p)},
        {"check": "bounce_fraction", "object": body(p), "min": 0.3, "max": 1.0},
        {"check": "extent_ratio", "object": body(p), "axis": "z", "min": 0.85, "max": 1.15},
    ]


def _elastic_edits(height: str, top: str, size_text: str, title: str | None) -> Any:
    """The edits of one published elastic drop: its drop height, domain top, size in the text and the oracle
    (a cube's side or a ball's radius), and a title that names the height."""

    def edits(p: Params) -> tuple[Edits, Edits]:
        h, half = p["drop_height"], _half(p)
        if "radius" in p:
            sized = (f"(radius {size_text} cm,", f"(radius {cm(p['radius'])} cm,")
            morph = (
                f"Sphere(radius={float(size_text) / 100!r}, pos=(0.0, 0.0, {height}))",
                f"Sphere(radius={f(p['radius'])}, pos=(0.0, 0.0, {f(h)}))",
            )
        else:
            s = float(size_text) / 100
            sized = (f"({size_text} cm side,", f"({cm(p['size'])} cm side,")
            morph = (
                f"Box(size=({s!r}, {s!r}, {s!r}), pos=(0.0, 0.0, {height}))",
                f"Box(size=({f(2 * half)}, {f(2 * half)}, {f(2 * half)}), pos=(0.0, 0.0, {f(h)}))",
            )
        text = [sized, (f"centre {float(height):g} m above", f"centre {number(h)} m above")]
        if title:
            text.append((title, f"from {cm(h)} cm"))
        oracle = [morph, (f"upper_bound=(0.3, 0.3, {top})", f"upper_bound=(0.3, 0.3, {f(p['domain_top'])})")]
        return text, oracle

    return edits


def _elastic_scene(p: Params) -> dict[str, Any]:
    size = {"body1.radius": p["radius"]} if "radius" in p else {"body1.size": [p["size"]] * 3}
    return {
        **size,
        "body1.pos": [0.0, 0.0, p["drop_height"]],
        "MPMOptions.upper_bound": [0.3, 0.3, p["domain_top"]],
    }


def _elastic(size: Param, height: Param, edits: Any, radius: bool = False) -> Family:
    # the bounce check needs the fall and the rebound's rise (no longer than the fall) in the run, and the impact
    return Family(
        params={"radius" if radius else "size": size, "drop_height": height},
        materials={},
        edits=edits,
        reference=_elastic_reference,
        checks=_elastic_checks,
        scene=_elastic_scene,
        settle_s=lambda p: 2.0 * fall_time(p["drop_height"] - _half(p)) + 0.05,
    )


# Sizes no smaller than the published bodies' least (15 cm across: 4.8 cells of the 1/32 m grid, some 460
# particles): a fresh 12 cm stiff cube (235 particles) tumbled in its second bounce in the acceptance run and
# failed the shape check (height 1.30 of its own, benchmarks/results/fresh-variants-physics.md). Cubes stay
# within 20 % of their published size and drop height; a ball's extent does not change as it turns.
FAMILIES: dict[str, Family] = {
    "jelly_drop": _elastic(Param(0.18, 0.22, 3), Param(0.45, 0.55, 2), _elastic_edits("0.5", "0.7", "20", None)),
    "jelly_drop_soft": _elastic(Param(0.18, 0.22, 3), Param(0.45, 0.55, 2), _elastic_edits("0.5", "0.7", "20", None)),
    "jelly_drop_stiff": _elastic(
        Param(0.15, 0.18, 3), Param(0.55, 0.65, 2), _elastic_edits("0.6", "0.8", "15", "from 60 cm")
    ),
    "rubber_ball_drop": _elastic(
        Param(0.08, 0.11, 3), Param(0.4, 0.55, 2), _elastic_edits("0.5", "0.7", "10", None), radius=True
    ),
    "rubber_ball_high": _elastic(
        Param(0.075, 0.09, 3), Param(0.6, 0.72, 2), _elastic_edits("0.7", "0.9", "8", "from 70 cm"), radius=True
    ),
}
