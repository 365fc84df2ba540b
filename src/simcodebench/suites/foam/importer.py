"""``simcodebench import foambench PATH``: FoamBench's upstream cases as a suite of ordinary cases.

The upstream files (``FoamBench_basic.json``, ``FoamBench_advanced.json``, Kaggle ``nithinsekhar/foambench``) are
``{"<case>/<i>": {"usr_requirement": prompt, "<relative path>": text, ...}}``: the requirement in words and the
expert's case files (``GT_Files`` upstream). Each entry becomes case ``<case>-<i>`` whose problem is the
requirement and whose oracle folder holds the files; the suite gets the protocol of ``cases/foam`` with the
environment ``openfoam10`` (the files are written for Foundation OpenFOAM 10) and no mutants (they need per-case
arguments). Each case's resources (wall, memory, cores) and its reference run's longer wall limit follow its
family's measured runs and its size (:mod:`.limits`). One file per split is one suite: import the basic and the
advanced file into two folders.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.multifile import checked_path
from simcodebench.core.errors import InputError
from simcodebench.core.importing import read_json_input, validated, write_case, write_suite
from simcodebench.core.project import cases_root
from simcodebench.suites.foam.limits import family_runs, limits_for

TEMPLATE_SUITE = "foam"
REQUIREMENT = "usr_requirement"
ENVIRONMENT = "openfoam10"
SPEC = {"openfoam": "10 (openfoam.org, the OpenFOAM Foundation release)", "run_functions": True}
_ID = re.compile(r"[^A-Za-z0-9_.-]+")


def case_id(key: str) -> str:
    """``Cavity/3`` -> ``Cavity-3`` (characters a case id may not hold become ``-``)."""
    return _ID.sub("-", key).strip("-.")


def _entry(path: Path, key: str, entry: Any) -> tuple[str, dict[str, str]]:
    if not isinstance(entry, dict):
        raise InputError(path, key, "is not an object", "give each case as {usr_requirement, <path>: text}")
    requirement = entry.get(REQUIREMENT)
    if not isinstance(requirement, str) or not requirement.strip():
        raise InputError(path, f"{key}.{REQUIREMENT}", "is missing or empty", "give the requirement text")
    files = {}
    for name, text in entry.items():
        if name == REQUIREMENT:
            continue
        if not isinstance(text, str):
            raise InputError(path, f"{key}.{name}", "is not a string", "give each file's text as a string")
        try:
            files[checked_path(name, "the file name")] = text
        except ExtractionError as exc:
            raise InputError(path, f"{key}.{name}", str(exc), "use a path relative to the case folder") from exc
    if not files:
        raise InputError(path, key, "has no case files", "give the case's files beside usr_requirement")
    return requirement, files


def import_foambench(path: Path, out: Path) -> int:
    """Write the cases of the upstream file ``path`` as the suite folder ``out``; return the case count."""
    data = read_json_input(path)
    if not isinstance(data, dict) or not data:
        raise InputError(path, "(top level)", "is not a non-empty object", 'use {"<case>/<i>": {...}} as upstream')
    entries = {key: _entry(path, key, entry) for key, entry in data.items()}
    ids: dict[str, str] = {}
    for key in entries:
        cid = case_id(key)
        if not cid or cid in ids:
            raise InputError(
                path, key, f"gives the case id '{cid}', empty or already used by '{ids.get(cid)}'", "rename"
            )
        ids[cid] = key
    families = family_runs()
    write_suite(
        cases_root() / TEMPLATE_SUITE,
        out,
        description=f"FoamBench's upstream cases, imported from {Path(path).name} by simcodebench import foambench",
        environment=ENVIRONMENT,
        mutants=[],
    )
    for cid, key in ids.items():
        requirement, files = entries[key]
        family = key.split("/")[0]
        limits = limits_for(family, files, families)
        case = {
            "id": cid,
            "title": f"FoamBench {key}",
            "tags": ["foam", "upstream", family],
            "visible": {
                "problem": requirement,
                "spec": {"family": family, **SPEC},
                "resources": limits.resources(),
            },
            "hidden": {
                "reference": {"generator": "openfoam_run", "params": {"wall_s": limits.reference_wall_s}},
                "oracle": "oracle",
                "scoring": {"kind": "field_nmse", "limits_from": {"family": limits.family, "by": limits.matched_by}},
            },
        }
        write_case(out / cid, case, {f"oracle/{name}": text for name, text in files.items()})
    return validated(out)
