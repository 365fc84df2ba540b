"""The suite's library guide (``prompt.guide``: DOLFINx or deal.II) as removable pieces of the prompt.

The guide is an opening paragraph, a list of ``- Topic: ...`` items and a worked example (from the line that
starts with ``Example``). Ranked by relevance to the case, most relevant first:

0. the opening paragraph (versions, and what to import first);
1. every item, but one on solves the case's problem does not need;
2. the worked example (long, and the items say what it shows);
3. ``Linear solves`` for a nonlinear problem (Navier-Stokes, Burgers, a reaction other than linear), or
   ``Nonlinear solves`` for a linear one.

Where the model's window cannot hold the whole prompt the fitter drops rank 3 first, then the example, then the
items from the last up (:mod:`simcodebench.agents.fit_context`). Without a window the guide is whole.
"""

from __future__ import annotations

import re
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.plugin import ContextPiece

SLOT = "library_guide"
NONLINEAR_FAMILIES = ("navier_stokes", "burgers")
RANK_OPENING, RANK_ITEM, RANK_EXAMPLE, RANK_OTHER_SOLVES = range(4)


def guide_parts(guide: str) -> list[tuple[str, str]]:
    """The guide as (name, text) parts whose texts joined by newlines are the guide."""
    head, marker, example = guide.partition("\nExample")
    parts = []
    for index, chunk in enumerate(re.split(r"\n(?=- )", head)):
        name = "opening" if index == 0 else chunk[2:].split(":", 1)[0].strip()
        parts.append((name, chunk))
    if marker:
        parts.append(("example", marker.lstrip("\n") + example))
    return parts


def nonlinear(spec: dict[str, Any]) -> bool:
    """Whether the case's problem is nonlinear (its family, or a reaction other than ``linear``)."""
    family = spec.get("family")
    if family in NONLINEAR_FAMILIES:
        return True
    reaction = spec.get("case_spec", {}).get("pde", {}).get("params", {}).get("reaction")
    return family == "reaction_diffusion" and isinstance(reaction, dict) and reaction.get("type") != "linear"


def _rank(name: str, index: int, needs_nonlinear: bool) -> int:
    if index == 0:
        return RANK_OPENING
    if name == "example":
        return RANK_EXAMPLE
    if name.lower() == ("linear solves" if needs_nonlinear else "nonlinear solves"):
        return RANK_OTHER_SOLVES
    return RANK_ITEM


def guide_pieces(case: Case) -> list[ContextPiece]:
    """The suite's guide (``prompt.guide``) as pieces ranked for the case; none when the suite names no guide."""
    name = case.suite.data["prompt"].get("guide")
    if not name:
        return []
    text = (case.suite.folder / name).read_text(encoding="utf-8")
    needs_nonlinear = nonlinear(dict(case.visible.spec))
    return [
        ContextPiece(SLOT, f"guide: {part}", chunk, _rank(part, index, needs_nonlinear))
        for index, (part, chunk) in enumerate(guide_parts(text))
    ]
