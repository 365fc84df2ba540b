"""The ``case_spec`` of PDEAgent-Bench's released harness, which ``@released`` variants hand to the program.

The released harness gives ``solve(case_spec)`` the record's own view: ``id``, ``pde_classification``, ``pde``
(the record's ``oracle_config.pde``, the manufactured solution left out: ``pde_params``, ``coefficients``,
``source_term``, ``time`` with the suggested ``dt`` and ``scheme``, ``initial_condition``...), ``domain``, ``bc``,
``output`` (``field`` and ``grid``: ``nx``, ``ny``, ``nz``, ``bbox``), ``agent_knobs`` and
``evaluation_config``. An imported record keeps that view in ``hidden.scoring.upstream.case_spec`` (written by
the importer, with its repairs); one of our own cases has it made from its ``case_spec``, without knobs (it has
none) and with our oracle's time step and scheme (Crank-Nicolson, Newmark for the wave equation, unless the case
sets one) as the suggested ones, as the released records show their oracle's.
"""

from __future__ import annotations

from typing import Any

from simcodebench.core.cases import Case

HIDDEN_PDE_KEYS = ("manufactured_solution", "manufactured_u", "exact_solution")
"""What the released harness removes from ``pde`` (and from the knobs) before the program sees it."""
COEFFICIENTS = ("kappa",)
"""Parameters the released layout lists under ``pde.coefficients`` rather than ``pde.pde_params``."""


def is_released(case: Case) -> bool:
    """Whether the case runs under a released variant (``scoring: {mode: released}`` in its suite)."""
    return (case.suite.data.get("scoring") or {}).get("mode") == "released"


def agent_view(record: dict[str, Any]) -> dict[str, Any]:
    """A record's ``case_spec`` as the released harness builds it for the program."""
    oc = record["oracle_config"]
    knobs = [k for k in record.get("agent_knobs", []) if k.get("name") not in HIDDEN_PDE_KEYS]
    return {
        "id": record.get("id", ""),
        "pde_classification": record.get("pde_classification", {}),
        "pde": {k: v for k, v in oc.get("pde", {}).items() if k not in HIDDEN_PDE_KEYS},
        "domain": oc.get("domain", {"type": "unit_square"}),
        "bc": oc.get("bc", {}),
        "output": oc.get("output", {}),
        "agent_knobs": knobs,
        "evaluation_config": record.get("evaluation_config", {}),
    }


def _coefficient(value: Any) -> dict[str, Any]:
    """A coefficient in the released form: ``constant`` with a value, or ``expr`` with an expression."""
    if isinstance(value, int | float):
        return {"type": "constant", "value": float(value)}
    return {"type": "expr", "expr": str(value)}


def from_native(case: Case) -> dict[str, Any]:
    """The released ``case_spec`` of one of our own cases, made from its visible ``case_spec``."""
    native, spec = case.visible.spec["case_spec"], case.visible.spec
    pde_in = native["pde"]
    params = dict(pde_in.get("params") or {})
    pde: dict[str, Any] = {"type": pde_in["type"]}
    coefficients = {name: _coefficient(params.pop(name)) for name in COEFFICIENTS if name in params}
    if coefficients:
        pde["coefficients"] = coefficients
    if params:
        pde["pde_params"] = params
    pde["source_term"] = (pde_in.get("forcing") or {}).get("value", "0")
    if pde_in.get("time"):
        oracle = case.hidden.reference["params"].get("oracle", {})
        scheme = oracle.get("scheme", "newmark_beta" if pde_in["type"] == "wave" else "crank_nicolson")
        pde["time"] = {**pde_in["time"], **({"dt": oracle["dt"]} if "dt" in oracle else {}), "scheme": scheme}
    ic = native.get("ic") or {}
    if "u0" in ic:
        pde["initial_condition"] = ic["u0"]
    if "v0" in ic:
        pde["initial_velocity"] = ic["v0"]
    grid = {k: v for k, v in native["eval_grid"].items() if k != "type"}
    return {
        "id": case.id,
        "pde_classification": {"equation_type": spec["family"], "math_type": list(spec.get("math_type", []))},
        "pde": pde,
        "domain": native["domain"],
        "bc": native["bc"],
        "output": {"format": "npz", "field": native["output"]["field"], "grid": grid},
        "agent_knobs": [],
        "evaluation_config": {"timeout_sec": case.resources["wall_s"]},
    }


def released_case_spec(case: Case) -> dict[str, Any]:
    """The ``case_spec`` the released harness would give the program: the imported record's own view, else ours
    in the released layout."""
    upstream = (case.hidden.scoring.get("upstream") or {}).get("case_spec")
    return upstream if upstream is not None else from_native(case)
