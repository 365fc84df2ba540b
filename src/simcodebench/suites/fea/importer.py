"""``simcodebench import feabench benchmark.zip --out DIR``: FEABench's Gold problems as upstream posed them.

The upstream archive (``google/feabench``, ``benchmark/comsol_<id>.json``) holds per problem
``model_specifications``, ``selection_information``, ``plan``, ``target_description``, ``target_value``,
``target_units`` and the COMSOL ``ground_truth_code``. Each problem becomes case ``comsol_<id>`` whose problem
text is the paper's ModelSpecs input, specification then selection information, verbatim (for users who want
the paper's exact inputs); the plan is ``spec.plan`` (``<suite>@plan``). The target is hidden (reference
generator ``published``) and scored with the paper's 10% band; the oracle is the answer key (``oracle.py``
writes the published value), so the suite calibrates nothing and its coarse-mesh mutant is left out. The
COMSOL code and the model tree are never written anywhere. Our re-posed cases with open-solver references are
``cases/fea``; this suite is the upstream text as it is.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InputError
from simcodebench.core.importing import validated, write_case, write_suite
from simcodebench.core.io import read_yaml
from simcodebench.core.project import cases_root
from simcodebench.suites.fea.units import UnitsError, parse_units

TEMPLATE_SUITE = "fea"
REQUIRED = ("model_specifications", "selection_information", "target_description", "target_value", "target_units")
EXTRA_TEMPLATES = ("example_answer.py", "apidoc.md", "user_plan.md.j2", "user_apidoc.md.j2")
PAPER_BAND = 0.10
ORACLE = """\
# The answer key of an imported FEABench problem: it writes the published target, it solves nothing.
import json

json.dump({{"value": {value!r}, "units": {units!r}}}, open("result.json", "w"))
"""


def readable_units(raw: str, path: Path, where: str) -> str:
    """``raw`` (e.g. ``Ohms (Ω)``) as a units string pint reads: a symbol in parentheses, else the text before
    them, else the text itself (pint would read ``Ohms (Ω)`` as a product, ohm squared)."""
    inside = re.findall(r"\(([^)]*)\)", raw)
    candidates = [*inside, re.sub(r"\([^)]*\)", "", raw).strip()] if inside else [raw]
    for candidate in candidates:
        try:
            parse_units(candidate)
        except UnitsError:
            continue
        return candidate.strip() or "dimensionless"
    raise InputError(path, f"{where}.target_units", f"'{raw}' is not readable units", "give units pint can parse")


def read_problems(path: Path) -> dict[str, dict[str, Any]]:
    """Problem id -> record, from the upstream zip (or a folder of ``comsol_*.json``)."""
    records: dict[str, dict[str, Any]] = {}
    try:
        if Path(path).is_dir():
            texts = {p.stem: p.read_text(encoding="utf-8") for p in sorted(Path(path).glob("comsol_*.json"))}
        else:
            with zipfile.ZipFile(path) as archive:
                texts = {
                    Path(n).stem: archive.read(n).decode("utf-8")
                    for n in archive.namelist()
                    if re.search(r"(^|/)comsol_[^/]*\.json$", n)
                }
    except (OSError, zipfile.BadZipFile) as exc:
        raise InputError(path, "(file)", f"cannot be read ({exc})", "point at the upstream benchmark.zip") from exc
    if not texts:
        raise InputError(path, "(file)", "holds no comsol_*.json problem", "point at the upstream benchmark.zip")
    for name, text in texts.items():
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(path, name, f"is not JSON ({exc.msg})", "use the upstream archive") from exc
        missing = [key for key in REQUIRED if not isinstance(record.get(key), str | int | float)]
        if missing:
            raise InputError(path, f"{name}.{missing[0]}", "is missing", "use the upstream archive")
        records[name] = record
    return records


def import_feabench(path: Path, out: Path) -> int:
    """Write the problems of the upstream archive ``path`` as the suite folder ``out``; return the case count."""
    problems = read_problems(path)
    template = cases_root() / TEMPLATE_SUITE
    suite = read_yaml(template / "suite.yaml")
    write_suite(
        template,
        out,
        description=f"FEABench's Gold problems as upstream posed them, imported from {Path(path).name} by "
        "simcodebench import feabench: the published target, scored with the paper's 10% band",
        thresholds={"accuracy": {"policy": "fixed", "value": PAPER_BAND}, "time": None},
        calibration={"oracle": False},
        mutants=[m for m in suite["mutants"] if m["op"] != "coarsest_level"],
    )
    for name in EXTRA_TEMPLATES:
        shutil.copy2(template / name, out / name)
    for case_id, record in sorted(problems.items()):
        units = readable_units(str(record["target_units"]), path, case_id)
        try:
            value = float(record["target_value"])
        except ValueError as exc:
            raise InputError(path, f"{case_id}.target_value", "is not a number", "use the upstream archive") from exc
        problem = f"{record['model_specifications'].strip()}\n\n{str(record['selection_information']).strip()}\n"
        case = {
            "id": case_id,
            "title": f"FEABench {case_id} (upstream text)",
            "tags": ["fea", "feabench", "upstream"],
            "visible": {
                "problem": problem,
                "spec": {
                    "target": {"quantity": str(record["target_description"]).strip(), "units": units},
                    "plan": str(record.get("plan") or "").strip() or "(no plan given upstream)",
                },
                "contract": json.loads(json.dumps(CONTRACT)),
            },
            "hidden": {
                "reference": {"generator": "published", "params": {"value": value, "units": units}},
                "oracle": "oracle.py",
                "scoring": {"kind": "scalar", "published_target": value, "published_units": units},
            },
        }
        write_case(out / case_id, case, {"oracle.py": ORACLE.format(value=value, units=units)})
    return validated(out)


CONTRACT = {
    "files": [
        {
            "name": "result.json",
            "format": "json",
            "description": "the target value and its units",
            "fields": {
                "value": {"description": "the computed target quantity, a number"},
                "units": {"description": "the units of value, as text (e.g. K)"},
            },
        }
    ]
}
