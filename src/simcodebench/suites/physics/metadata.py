"""The case metadata the report breaks PhysCodeEval down by (the paper's Table 1): difficulty and domains.

Each scored attempt carries them as metrics (``case_hard`` 1 or 0, ``case_<domain>`` 1 for each of the case's
domains), read from the case's visible ``spec`` (``difficulty``: easy or hard; ``domains``: rigid, soft body,
fluid, mechanics).
"""

from __future__ import annotations

from simcodebench.core.cases import Case

DOMAINS = ("rigid", "soft", "fluid", "mechanics")
"""The paper's domains, in its column order (Rigid, Soft, Fluid, Mech)."""
ALIASES = {"rigid": "rigid", "soft": "soft", "soft body": "soft", "soft_body": "soft", "fluid": "fluid"}
ALIASES |= {"mechanics": "mechanics", "mech": "mechanics"}


def case_metadata(case: Case) -> dict[str, float]:
    """``case_hard`` and ``case_<domain>`` for each of :data:`DOMAINS` (1.0 or 0.0) from ``visible.spec``."""
    spec = case.visible.spec
    where = f"{case.folder / 'case.yaml'}: visible.spec"
    difficulty = spec.get("difficulty")
    if difficulty not in ("easy", "hard"):
        raise ValueError(f"{where}.difficulty is {difficulty!r}; fix: set it to easy or hard")
    domains = set()
    for name in spec.get("domains") or []:
        if str(name).lower() not in ALIASES:
            raise ValueError(f"{where}.domains has {name!r}; fix: use rigid, soft body, fluid or mechanics")
        domains.add(ALIASES[str(name).lower()])
    if not domains:
        raise ValueError(f"{where}.domains is empty; fix: name at least one of rigid, soft body, fluid, mechanics")
    return {"case_hard": float(difficulty == "hard"), **{f"case_{d}": float(d in domains) for d in DOMAINS}}
