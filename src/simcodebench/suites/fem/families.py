"""The PDE family of a fem case as metrics of its scored attempts, so the report's per-family tables (the paper's
Tables 1 and 2) need nothing but the scores: ``family_<name>`` 1.0 for the paper's family ``visible.spec.family``
names, and ``dealii`` 1.0 when ``visible.spec.target_library`` is deal.II (0.0 for DOLFINx)."""

from __future__ import annotations

from simcodebench.core.cases import Case

FAMILIES = {
    "biharmonic": "Bih",
    "convection_diffusion": "CD",
    "heat": "Heat",
    "helmholtz": "Helm",
    "linear_elasticity": "LE",
    "stokes": "Stokes",
    "poisson": "Pois",
    "reaction_diffusion": "RD",
    "navier_stokes": "NS",
    "burgers": "Burg",
    "wave": "Wave",
}
"""PDEAgent-Bench's families, in the column order and under the short names of its Tables 1 and 2."""


def family_metrics(case: Case) -> dict[str, float]:
    """``dealii`` (1.0 or 0.0) and, when the case's visible spec names one of the paper's families,
    ``family_<family>`` (1.0); a case of another family (or none) counts only in the tables' All column."""
    spec = case.visible.spec
    found = {"dealii": float(spec.get("target_library") == "deal.II")}
    family = spec.get("family")
    return found | ({f"family_{family}": 1.0} if family in FAMILIES else {})
