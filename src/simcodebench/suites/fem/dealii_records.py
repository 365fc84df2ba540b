"""PDEAgent-Bench's deal.II records (``supported_libraries`` holds ``dealii``: 313 of 645) as cases of the
deal.II track (``cases/fem-dealii``).

A record's case document is the DOLFINx one (:func:`.importer.convert`: the same ``case_spec``, references and
repairs) with the deal.II track's parts: the problem names deal.II, the contract is ``solution_grid.bin`` and
``meta.json``, the oracle is the suite's ``oracle_dealii.cc`` configured by the record's discretisation, and no
per-case mutant (the DOLFINx ones edit the Python oracle; the suite's own mutants apply).
"""

from __future__ import annotations

from typing import Any

LIBRARY = "dealii"
TEMPLATE_SUITE = "fem-dealii"
SHARED_FILES = ("oracle_dealii.cc",)
DESCRIPTION = (
    "The upstream PDEAgent-Bench records that name deal.II (benchmark_v2.jsonl, supported_libraries), imported by "
    "`simcodebench import pdeagent-bench --library dealii`; scored exactly as the fem-dealii suite."
)
ORACLE_FAMILIES = ("poisson", "helmholtz", "heat", "convection_diffusion", "reaction_diffusion")
"""The families ``oracle_dealii.cc`` solves (reaction-diffusion with a linear reaction only); the oracle stops
with a message naming the family for the others, so their calibration fails and the pipeline drops them."""


def is_dealii_record(record: dict[str, Any]) -> bool:
    """Whether upstream lists deal.II among the record's libraries."""
    return LIBRARY in record.get("supported_libraries", [])


def oracle_covers(record: dict[str, Any]) -> bool:
    """Whether ``oracle_dealii.cc`` solves the record's problem (its family; a linear reaction)."""
    pde = record["oracle_config"]["pde"]
    reaction = (pde.get("pde_params") or {}).get("reaction") or {"type": "linear"}
    return pde["type"] in ORACLE_FAMILIES and reaction.get("type") == "linear"


def dealii_contract(dim: int) -> dict[str, Any]:
    """The deal.II track's output contract (App. J): the grid as raw float64 and ``meta.json``."""
    shape = ["nz", "ny", "nx"] if dim == 3 else ["ny", "nx"]
    return {
        "files": [
            {
                "name": "solution_grid.bin",
                "format": "bin",
                "description": "the field on the grid, row-major float64",
                "fields": {"u": {"shape": shape}},
            },
            {"name": "meta.json", "format": "json", "description": "nx, ny and solver_info"},
        ]
    }


def as_dealii_case(case: dict[str, Any]) -> dict[str, Any]:
    """A converted record's case document (DOLFINx track) turned into the deal.II track's."""
    visible = dict(case["visible"])
    spec = dict(visible["spec"])
    dim = 3 if "nz" in spec["case_spec"]["eval_grid"] else 2
    spec["target_library"] = "deal.II"
    # the DOLFINx track's output format (npz) would contradict the contract: raw float64 in solution_grid.bin
    spec["case_spec"] = {**spec["case_spec"], "output": {**spec["case_spec"]["output"], "format": "bin"}}
    visible.update(
        problem=visible["problem"].replace("using DOLFINx", "using deal.II"),
        contract=dealii_contract(dim),
        spec=spec,
    )
    hidden = {key: value for key, value in case["hidden"].items() if key != "mutants"}
    hidden["oracle"] = f"../{SHARED_FILES[0]}"
    return {**case, "visible": visible, "hidden": hidden}
