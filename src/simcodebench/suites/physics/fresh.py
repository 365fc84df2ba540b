"""Fresh variants of the physics scenes: new numbers for the published scenes whose checks follow from them.

Families, one module each: flat-ground rigid bodies (:mod:`.fresh_rigid`), drops (:mod:`.fresh_drops`), inclines
(:mod:`.fresh_slopes`), projectiles and head-on collisions (:mod:`.fresh_flight`), collisions with friction or an
offset (:mod:`.fresh_contacts`), tipping blocks (:mod:`.fresh_tipping`), elastic drops (:mod:`.fresh_particles`),
a ball sinking in a pool (:mod:`.fresh_pool`), water in tanks (:mod:`.fresh_liquids`), the domino chain and the
ball on the jelly slab scaled by geometric similarity (:mod:`.fresh_scaled`), the floating ball by Archimedes in
the water Genesis settles into (:mod:`.fresh_float`) and the plastic drops (:mod:`.fresh_plastic`). Each draws
new numbers, writes them into the published case's text and oracle, and computes the physics checks from them, by
the closed forms of the published case or by its bounds scaled with the drawn geometry; the plastic drops'
flattening is predicted from the published scenes' Genesis runs, and a Genesis run of the fresh oracle checks it.

Verification is at the level of the parameters (:mod:`.fresh_verify`), plus a Genesis run of each plastic drop
that must bear its prediction out (:func:`.fresh_plastic.genesis_gate`); the acceptance runs
(benchmarks/fresh_variants_cfd_re4_physics.py) run the cases' oracles in Genesis.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.fresh import FreshDraw
from simcodebench.core.fresh_edits import Edits, draw, ranges, substitute, substitute_strings
from simcodebench.core.io import read_yaml
from simcodebench.suites.physics import (
    fresh_contacts,
    fresh_drops,
    fresh_flight,
    fresh_float,
    fresh_liquids,
    fresh_particles,
    fresh_plastic,
    fresh_pool,
    fresh_rigid,
    fresh_scaled,
    fresh_slopes,
    fresh_tipping,
)
from simcodebench.suites.physics.fresh_common import MATERIALS, Family, density_key

FAMILIES: dict[str, Family] = {
    **fresh_rigid.FAMILIES,
    **fresh_drops.FAMILIES,
    **fresh_slopes.FAMILIES,
    **fresh_flight.FAMILIES,
    **fresh_tipping.FAMILIES,
    **fresh_contacts.FAMILIES,
    **fresh_particles.FAMILIES,
    **fresh_plastic.FAMILIES,
    **fresh_pool.FAMILIES,
    **fresh_liquids.FAMILIES,
    **fresh_scaled.FAMILIES,
    **fresh_float.FAMILIES,
}

__all__ = ["FAMILIES", "MATERIALS", "fresh_draw"]


def _follow(args: dict[str, Any], edits: Edits, oracle: str, name: str) -> dict[str, Any]:
    """A mutant's ``replace_source`` arguments with the oracle's edits applied to the text it replaces and to its
    replacement (so a wrong keyword is added to the fresh line, not to the published one)."""
    if "old" not in args:
        return args
    old = substitute(args["old"], edits, f"hidden.mutants.{name}", require=False)
    if old not in oracle:
        raise ValueError(f"hidden.mutants.{name}: '{old}' is not in the fresh oracle; update the family's edits")
    return {**args, "old": old, "new": _follow_insertion(args["old"], args["new"], old, edits, name)}


def _follow_insertion(published: str, new: str, fresh: str, edits: Edits, name: str) -> str:
    """The replacement of a mutant's edit for the fresh text: where the published edit inserts a text into its
    old one (``Rigid(`` + ``friction_coef=0.5, `` + ``rho=...``; ``-1.62`` + ``e37`` + ``)``), the same insertion
    into the fresh old text, after the same beginning or before the same end; otherwise the replacement with the
    oracle's edits applied."""
    start = len(os.path.commonprefix([published, new]))
    inserted = new[start : start + len(new) - len(published)]
    if new == published[:start] + inserted + published[start:]:
        before, after = published[:start], published[start:]
        if fresh.startswith(before):  # Rigid( + friction_coef=0.5,  + rho=...
            return before + inserted + fresh[len(before) :]
        if fresh.endswith(after):  # gravity=(0.0, 0.0, -1.35 + e37 + )
            return fresh[: len(fresh) - len(after)] + inserted + after
    return substitute(new, edits, f"hidden.mutants.{name}", require=False)


def fresh_draw(family: Case, rng: np.random.Generator) -> FreshDraw | None:
    """A new instance of the published scene ``family``; None where the scene has no generator."""
    spec = FAMILIES.get(family.id)
    if spec is None:
        return None
    drawn: dict[str, Any] = draw(rng, spec.params)
    for slot, names in spec.materials.items():
        material = str(rng.choice(names))
        drawn.update({slot: material, density_key(slot): MATERIALS[material]})
    for slot, (key, named) in spec.choices.items():
        name = str(rng.choice(sorted(named)))
        drawn.update({slot: name, key: named[name]})
    params = spec.reference(drawn)
    edits, oracle_edits = spec.edits(params)
    raw = read_yaml(family.folder / "case.yaml")
    mutants = raw["hidden"].pop("mutants", None)
    raw["hidden"].pop("alternative", None)  # the second solution keeps the published numbers
    case = substitute_strings(raw, edits, str(family.folder / "case.yaml"))
    case["hidden"]["reference"]["params"] = params
    # each check its own mapping (a shared one would be written as a YAML anchor and alias)
    case["hidden"]["scoring"]["checks"] = [copy.deepcopy(check) for check in spec.checks(params)]
    oracle_path = family.folder / raw["hidden"]["oracle"]
    oracle = substitute(oracle_path.read_text(encoding="utf-8"), oracle_edits, str(oracle_path))
    if mutants:  # a case's own mutant edits quote its oracle: their old text follows the oracle's edits
        case["hidden"]["mutants"] = {name: _follow(args, oracle_edits, oracle, name) for name, args in mutants.items()}
    densities = (min(MATERIALS.values()), max(MATERIALS.values()))
    scoring_ranges = ranges(spec.params) | {density_key(slot): densities for slot in spec.materials}
    scoring_ranges |= {key: (min(named.values()), max(named.values())) for key, named in spec.choices.values()}
    return FreshDraw(case=case, files={raw["hidden"]["oracle"]: oracle}, params=drawn, ranges=scoring_ranges)
