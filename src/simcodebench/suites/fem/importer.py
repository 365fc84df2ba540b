"""``simcodebench import pdeagent-bench PATH``: the upstream JSONL records (v2 schema) as a suite of fem cases.

Each record becomes ``<out>/<id>/case.yaml`` split as App. J says. Visible: the family, the math type and a
``case_spec`` (pde type, parameters, forcing, t0 and t_end; domain; boundary and initial conditions; evaluation
grid; output field). Hidden: the manufactured solution, the mesh, element degree, time step and solver settings
(the oracle's calibration configuration) and the reference configuration, plus the upstream evaluation config
and agent knobs (hints such as "use SUPG") for the record. The suite folder gets the fem suite's protocol,
templates, guide and oracle, and ``import_report.json`` (the repairs below, counted).

Where the records cannot be used as they are, the importer repairs them and says so in ``hidden.scoring.issues``
and in ``import_report.json``: a manufactured case's forcing is derived again from its solution when the record's
``source_term`` disagrees (every 3D record drops the z derivatives); a biharmonic case gets ``bc.laplacian``
(Laplacian of the manufactured solution, or 0) since u alone does not determine it; Burgers records without a
time block get t in [0, 0.1]; a transient record without an initial condition gets u0 = 0 written out
(``heat_3d_source_only``); domains are written in one canonical form per template.

Each case also keeps the record's ``case_spec`` as the released harness gives it to the program
(``hidden.scoring.upstream.case_spec``, with the repairs above written into its fields), for the
``pdeagent-bench@released`` variant.

``upstream_tolerance`` reproduces the released code's thresholds: alpha_acc = ``accuracy_tolerance``, else
``tolerance`` (0.05 or 0.1 in 106 records), else 1.2, and alpha_time = ``time_tolerance``. Off by default: the
paper's alpha_acc = 10 and alpha_time = 3 apply.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from simcodebench.core.errors import InputError
from simcodebench.core.importing import validated, write_case, write_suite
from simcodebench.core.io import write_json
from simcodebench.core.project import cases_root
from simcodebench.suites.fem import dealii_records, manufactured
from simcodebench.suites.fem.released_spec import agent_view

SHARED_FILES = ("oracle_dolfinx.py",)  # the guide comes with the prompt templates (prompt.guide)
DESCRIPTION = (
    "The upstream PDEAgent-Bench records (benchmark_v2.jsonl), imported by `simcodebench import pdeagent-bench`; "
    "scored exactly as the fem suite."
)
LIBRARIES = ("dolfinx", dealii_records.LIBRARY)
HIDDEN_PARAMS = ("stabilization",)
BURGERS_TIME = {"t0": 0.0, "t_end": 0.1}
FLOW = ("stokes", "navier_stokes")
FAMILY_WORDS = {
    "poisson": "a Poisson problem",
    "helmholtz": "a Helmholtz problem",
    "biharmonic": "a biharmonic problem",
    "linear_elasticity": "a linear elasticity problem",
    "heat": "a transient heat equation",
    "convection_diffusion": "a convection-diffusion problem",
    "reaction_diffusion": "a reaction-diffusion problem",
    "stokes": "a Stokes flow problem",
    "navier_stokes": "a steady incompressible Navier-Stokes problem",
    "burgers": "a 2D viscous Burgers problem",
    "wave": "a wave equation",
}


def read_records(path: Path) -> list[dict[str, Any]]:
    """The JSONL records, or one :class:`InputError` line saying why they cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    except OSError as exc:
        raise InputError(path, "(file)", f"cannot be read ({exc.strerror})", "point at benchmark_v2.jsonl") from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            path, "(file)", f"is not JSON lines ({exc.msg}, line {exc.lineno})", "use the upstream file"
        ) from exc


def canonical_domain(domain: dict[str, Any]) -> dict[str, Any]:
    """The domain in the form the oracle and the mask read (mesh sizes dropped: they are solver settings)."""
    kind = domain["type"]
    g = dict(domain.get("geometry_params") or {})
    if kind == "l_shape" and "vertices" not in g:
        x0, x1, y0, y1 = domain.get("outer_bbox", [0, 1, 0, 1])
        cx, _, cy, _ = domain.get("cutout_bbox", [0.5, 1, 0.5, 1])
        g = {"vertices": [[x0, y0], [x1, y0], [x1, cy], [cx, cy], [cx, y1], [x0, y1]]}
    if kind == "dumbbell" and "left_circle" not in g:
        (lx, ly), (rx, ry), r, w = g["left_center"], g["right_center"], g["radius"], g["bar_width"]
        g = {
            "left_circle": {"c": [lx, ly], "r": r},
            "right_circle": {"c": [rx, ry], "r": r},
            "bridge": {"x_min": lx, "x_max": rx, "y_min": ly - w / 2, "y_max": ly + w / 2},
        }
    if kind == "periodic_square" and "extents" in g:
        g = {"bounds": g["extents"]}
    if kind in ("star", "gear"):
        g.setdefault("center", [0.0, 0.0])
    out: dict[str, Any] = {"type": kind}
    if g:
        out["geometry_params"] = g
    if domain.get("description"):
        out["description"] = domain["description"]
    return out


def _boundary(block: Any) -> Any:
    """A boundary block with upstream's ``on: all`` written ``on: boundary``."""
    if isinstance(block, list):
        return [_boundary(item) for item in block]
    if isinstance(block, dict) and block.get("on") == "all":
        return {**block, "on": "boundary"}
    return block


def visible_params(pde: dict[str, Any]) -> dict[str, Any]:
    """The PDE's parameters (coefficients included), without solver hints."""
    params = {k: v for k, v in (pde.get("pde_params") or {}).items() if k not in HIDDEN_PARAMS}
    for name, coefficient in (pde.get("coefficients") or {}).items():
        params[name] = coefficient.get("value", coefficient.get("expr"))
    return params


def _agrees(mine: Any, theirs: Any) -> bool:
    """Whether two scalar or vector expressions agree at a few random points."""
    mine_list = mine if isinstance(mine, list) else [mine]
    theirs_list = theirs if isinstance(theirs, list) else [theirs]
    if len(mine_list) != len(theirs_list):
        return False
    return all(
        np.allclose(_values(a), _values(b), rtol=1e-8, atol=1e-8) for a, b in zip(mine_list, theirs_list, strict=True)
    )


NUMPY_NAMES = {name: getattr(np, name) for name in ("sin", "cos", "tan", "exp", "sqrt", "sinh", "cosh", "tanh", "pi")}
NUMPY_NAMES |= {"log": np.log, "atan": np.arctan, "atan2": np.arctan2, "Abs": np.abs, "E": np.e}
POINTS = dict(zip("xyzt", np.random.default_rng(0).uniform(0.1, 0.9, size=(4, 5)), strict=True))


def _values(expression: Any) -> np.ndarray:
    """An expression string at a few fixed points (numpy evaluation; sympy for what numpy cannot read)."""
    text = str(expression).replace("^", "**")
    try:
        value = eval(text, {"__builtins__": {}}, {**NUMPY_NAMES, **POINTS})  # noqa: S307 - upstream math strings
    except (NameError, SyntaxError, TypeError):
        function = sp.lambdify((*manufactured.SPACE, manufactured.T), manufactured.parse(text), "numpy")
        value = function(*POINTS.values())
    return np.broadcast_to(np.asarray(value, dtype=float), (5,))


def oracle_config(oc: dict[str, Any], time: dict[str, Any]) -> dict[str, Any]:
    """The oracle's calibration configuration of a record (``mesh``, ``fem``, the time step)."""
    mesh, fem = oc["mesh"], oc["fem"]
    cfg: dict[str, Any] = {
        "resolution": int(mesh["resolution"]),
        "degree": int(fem.get("degree", fem.get("degree_u", 1))),
    }
    char_length = mesh.get("char_length") or oc["domain"].get("char_length")
    if char_length:
        cfg["char_length"] = float(char_length)
    if fem.get("degree_p"):
        cfg["degree_p"] = int(fem["degree_p"])
    if mesh.get("cell_type") in ("quadrilateral", "hexahedron"):
        cfg["cell_type"] = mesh["cell_type"]
    for key in ("dt", "scheme"):
        if time.get(key):
            cfg[key] = time[key]
    return cfg


def finer_configs(oc: dict[str, Any], base: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """L1 and L2 of a no-exact record: L2 from ``reference_config``, L1 halfway (geometric mean).

    A transient record whose ``reference_config`` gives no time step gets half the record's for L2, as upstream's
    oracle takes it (its reference solve in every transient family defaults to half the step); a reference at
    the same step would leave the time discretisation's error out of e_base."""
    ref = oc["reference_config"]
    fem = ref.get("fem", {})
    level2 = dict(base)
    level2["resolution"] = int(ref.get("mesh", {}).get("resolution", base["resolution"]))
    level2["degree"] = int(fem.get("degree", fem.get("degree_u", base["degree"])))
    if fem.get("degree_p"):
        level2["degree_p"] = int(fem["degree_p"])
    if (ref.get("time") or {}).get("dt"):
        level2["dt"] = ref["time"]["dt"]
    elif "dt" in base:
        level2["dt"] = base["dt"] / 2
    scale = base["resolution"] / level2["resolution"]
    if "char_length" in base:
        level2["char_length"] = base["char_length"] * scale
    level1 = dict(level2)
    level1["resolution"] = round((base["resolution"] * level2["resolution"]) ** 0.5)
    if "char_length" in base:
        level1["char_length"] = base["char_length"] * scale**0.5
    if "dt" in base and "dt" in level2:
        level1["dt"] = (base["dt"] * level2["dt"]) ** 0.5
    return level1, level2


def upstream_thresholds(evaluation: dict[str, Any]) -> dict[str, Any]:
    """The released code's alphas: ``accuracy_tolerance``, else ``tolerance``, else 1.2; ``time_tolerance``."""
    alpha = evaluation.get("accuracy_tolerance", evaluation.get("tolerance", 1.2))
    return {"accuracy": {"alpha": float(alpha)}, "time": {"alpha": float(evaluation.get("time_tolerance", 3))}}


def convert(record: dict[str, Any], upstream_tolerance: bool = False) -> dict[str, Any]:
    """One record as a case document (``case.yaml``)."""
    oc = record["oracle_config"]
    pde = oc["pde"]
    family = pde["type"]
    grid = oc["output"]["grid"]
    dim = 3 if "nz" in grid else 2
    issues: list[str] = []
    time = dict(pde.get("time") or {})
    if family == "burgers" and not time:
        time = {
            "t0": 0.0,
            "t_end": pde.get("t_final", BURGERS_TIME["t_end"]),
            **({"dt": pde["dt"]} if "dt" in pde else {}),
        }
        if "t_final" not in pde:
            issues.append("no time block: t in [0, 0.1] assumed")
    params = visible_params(pde)
    solution = pde.get("manufactured_solution")
    forcing = pde.get("source_term", "0")
    bc = {key: _boundary(value) for key, value in oc["bc"].items()}
    ic = {k: v for k, v in (("u0", pde.get("initial_condition")), ("v0", pde.get("initial_velocity"))) if v is not None}
    if solution:
        try:
            derived = manufactured.derive(
                family, params, solution, dim, t0=float(time.get("t0", 0.0)), transient=bool(time), simplify=False
            )
        except ValueError as exc:
            issues.append(f"kept the record's source_term: {exc}")
        else:
            if not _agrees(derived["forcing"], forcing):
                issues.append("source_term disagrees with the PDE applied to the manufactured solution: re-derived")
                forcing = derived["forcing"]
            if family == "biharmonic":
                bc["laplacian"] = {"on": "boundary", "value": derived["laplacian"]}
            for key in ("u0", "v0"):
                if key in derived and key not in ic:
                    ic[key] = derived[key]
    elif family == "biharmonic":
        bc["laplacian"] = {"on": "boundary", "value": "0"}
    if time and "u0" not in ic:
        ic["u0"] = "0"
        issues.append("no initial condition: u0 = 0 written (the solution starts from rest)")
    if family == "biharmonic":
        issues.append("bc.laplacian added (u alone does not determine a biharmonic problem)")
    pde_visible: dict[str, Any] = {
        "type": family,
        "params": params,
        "forcing": {"type": "expression", "value": forcing},
    }
    if time:
        pde_visible["time"] = {"t0": time.get("t0", 0.0), "t_end": time["t_end"]}
    case_spec: dict[str, Any] = {"pde": pde_visible, "domain": canonical_domain(oc["domain"]), "bc": bc}
    if ic:
        case_spec["ic"] = ic
    case_spec["eval_grid"] = {
        "type": "cartesian",
        **{k: grid[k] for k in ("nx", "ny", "nz") if k in grid},
        "bbox": grid["bbox"],
    }
    case_spec["output"] = {"format": "npz", "field": oc["output"]["field"]}
    base = oracle_config(oc, time)
    if solution:
        if "periodic" in bc:
            base["periodic_values"] = solution["u"]
        reference: dict[str, Any] = {"generator": "manufactured", "params": {"oracle": base, "solution": solution}}
    else:
        level1, level2 = finer_configs(oc, base)
        reference = {"generator": "refined", "params": {"oracle": base, "intermediate": level1, "reference": level2}}
    evaluation = record.get("evaluation_config") or oc.get("evaluation_config") or {}
    released = released_view(record, forcing, bc, ic)
    hidden: dict[str, Any] = {
        "reference": reference,
        "oracle": "../oracle_dolfinx.py",
        "scoring": {
            "kind": "grid",
            "upstream": {
                "evaluation_config": evaluation,
                "agent_knobs": record.get("agent_knobs", oc.get("agent_knobs", [])),
                "case_spec": released,
            },
            "issues": issues,
        },
    }
    if upstream_tolerance:
        hidden["thresholds"] = upstream_thresholds(evaluation)
    if family in FLOW:
        hidden["mutants"] = {
            "coarse-mesh": {"new": 'cfg = {**DEFAULTS, **ORACLE_CONFIG, "resolution": 3, "char_length": 0.15}'}
        }
    domain_words = case_spec["domain"]["type"].replace("_", " ")
    libraries = record.get("supported_libraries", [])
    return {
        "id": record["id"],
        "title": f"{FAMILY_WORDS[family][2:].capitalize()} on a {domain_words} domain (upstream {record['id']})",
        "tags": [family, case_spec["domain"]["type"], f"{dim}d", "manufactured" if solution else "refined", *libraries],
        "visible": {
            "problem": (
                f"Solve {FAMILY_WORDS[family]} on a {domain_words} domain with the boundary conditions given in the "
                "case specification using DOLFINx. Return the numerical solution on the prescribed evaluation grid."
            ),
            "contract": contract(dim),
            "spec": {
                "family": family,
                "math_type": record["pde_classification"]["math_type"],
                "target_library": "DOLFINx",
                "case_spec": case_spec,
            },
            "resources": {"wall_s": float(evaluation.get("timeout_sec", 300))},
        },
        "hidden": hidden,
    }


def released_view(record: dict[str, Any], forcing: Any, bc: dict[str, Any], ic: dict[str, Any]) -> dict[str, Any]:
    """The record's released ``case_spec`` with the importer's repairs in it: the forcing, ``bc.laplacian`` and an
    initial condition where the record had none, so that the program solves the problem the reference is of."""
    view = agent_view(record)
    pde = view["pde"]
    if "source_term" in pde or forcing != "0":
        pde["source_term"] = forcing
    if "laplacian" in bc:
        view["bc"] = {**view["bc"], "laplacian": bc["laplacian"]}
    if "u0" in ic and "initial_condition" not in pde:
        pde["initial_condition"] = ic["u0"]
    return view


def contract(dim: int) -> dict[str, Any]:
    """The App. J output contract (what the harness runner writes)."""
    shape = ["nz", "ny", "nx"] if dim == 3 else ["ny", "nx"]
    return {
        "files": [
            {
                "name": "solution.npz",
                "format": "npz",
                "description": "written by the harness from the u that solve(case_spec) returns",
                "fields": {"u": {"shape": shape}},
            },
            {
                "name": "meta.json",
                "format": "json",
                "description": "written by the harness: wall time, status, solver_info",
            },
        ]
    }


def import_pdeagent_bench(path: Path, out: Path, upstream_tolerance: bool = False, library: str = "dolfinx") -> int:
    """Write the records of ``path`` as the suite folder ``out``; return the number of valid cases.

    ``library`` ``dolfinx`` (the default): all 645 records as DOLFINx cases, with the ``fem`` suite's protocol;
    ``dealii``: the 313 records upstream lists for deal.II as cases of the deal.II track (``fem-dealii``'s protocol
    and oracle; :mod:`.dealii_records`)."""
    if library not in LIBRARIES:
        raise InputError(path, "--library", f"is '{library}'", f"use one of {', '.join(LIBRARIES)}")
    records = read_records(path)
    dealii = library == dealii_records.LIBRARY
    if dealii:
        records = [record for record in records if dealii_records.is_dealii_record(record)]
    if not records:
        raise InputError(path, "supported_libraries", f"names {library} in no record", "use the upstream file")
    template = cases_root() / (dealii_records.TEMPLATE_SUITE if dealii else "fem")
    write_suite(template, out, description=dealii_records.DESCRIPTION if dealii else DESCRIPTION)
    for name in dealii_records.SHARED_FILES if dealii else SHARED_FILES:
        shutil.copy2(template / name, out / name)
    issues: Counter[str] = Counter()
    for record in records:
        case = convert(record, upstream_tolerance)
        issues.update(case["hidden"]["scoring"]["issues"])
        write_case(out / case["id"], dealii_records.as_dealii_case(case) if dealii else case, {})
    report = {"source": str(path), "library": library, "records": len(records), "issues": dict(issues)}
    write_json(out / "import_report.json", report)
    return validated(out)
