"""What the fresh physics families share: the materials, a family's description, number formats, closed forms.

A :class:`Family` says how to draw a new instance of one published scene and everything that follows from the
draw: the edits of its text and oracle, its reference parameters (the drawn numbers and the closed-form values
derived from them), its checks, the scene its oracle must build and how long its motion takes. Every one of
these is a function of the reference parameters alone, so the verification (:mod:`.fresh_verify`) can recompute
each from a written case and compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simcodebench.core.fresh_edits import Edits, Param, number

G = 9.81

MATERIALS = {  # name in the text: density (kg/m^3)
    "steel": 7850.0,
    "aluminium": 2700.0,
    "granite": 2650.0,
    "oak": 700.0,
    "pine": 500.0,
    "polyethylene": 950.0,
    "rubber": 1100.0,
    "nylon": 1150.0,
}

Params = dict[str, Any]


def _no_problems(p: Params) -> list[str]:
    return []


@dataclass(frozen=True)
class Family:
    """A published scene and how to draw a new one.

    ``params``: the numeric parameters and their ranges (drawn first, then the materials, then ``choices``);
    ``materials``: per material slot (``material``, or ``heavy`` and ``light`` for two bodies) the names to pick
    from, each slot's density recorded as ``density`` (slot ``material``) or ``<slot>_density``; ``edits``: the
    text's and the oracle's substitutions; ``reference``: the case's reference parameters (the draw plus the
    closed-form values derived from it; the function must give the same mapping back when applied to its own
    result); ``checks``, ``scene`` (the flat values :meth:`.scene_probe.ProbedScene.flat` must show),
    ``settle_s`` (seconds until the motion the checks judge is over) and ``problems`` (why a draw cannot be run
    as stated, e.g. a block that would not slide), all from the reference parameters.
    """

    params: dict[str, Param]
    materials: dict[str, tuple[str, ...]]
    edits: Callable[[Params], tuple[Edits, Edits]]
    reference: Callable[[Params], Params]
    checks: Callable[[Params], list[dict[str, Any]]]
    scene: Callable[[Params], dict[str, Any]]
    settle_s: Callable[[Params], float]
    problems: Callable[[Params], list[str]] = field(default=_no_problems)
    choices: dict[str, tuple[str, dict[str, float]]] = field(default_factory=dict)
    """Other named choices: slot -> (the key its number is recorded under, {name: number}); e.g. the world a
    ball falls on and its gravity, ``{"world": ("g", {"Mars": 3.71, ...})}``."""


def density_key(slot: str) -> str:
    """Where a material slot's density is recorded: ``density`` for ``material``, else ``<slot>_density``."""
    return "density" if slot == "material" else f"{slot}_density"


def cm(metres: float) -> str:
    """Metres as centimetres in a text (0.12 -> "12")."""
    return number(round(100.0 * metres, 6))


def f(value: float) -> str:
    """A float as the oracles write them (one decimal at least: 0.3, 1.0, 7850.0)."""
    return repr(float(value))


def a_an(word: str) -> str:
    """``word`` with its indefinite article, capitalised (A steel ball, An oak cube)."""
    return f"{'An' if word[0] in 'aeiou' else 'A'} {word}"


def fall_time(height: float, g: float = G) -> float:
    """Seconds to fall ``height`` from rest."""
    return math.sqrt(2.0 * height / g)


def sliding_distance(v0: float, mu: float, g: float = G) -> float:
    """Distance a body launched at ``v0`` slides against Coulomb friction ``mu`` before it stops."""
    return v0**2 / (2.0 * mu * g)


def sphere_mass(radius: float, density: float) -> float:
    """Mass (kg) of a solid sphere."""
    return density * 4.0 / 3.0 * math.pi * radius**3
