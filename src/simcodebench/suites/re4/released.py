"""The keyhole case on Re^4's released data set (``simcodebench import re4-keyhole FOLDER``).

``cases/re4/keyhole`` runs on our synthetic ``dataset_keyhole.csv`` (:mod:`.keyhole`). The released 90-row file
(Re4_Sci_Agent repository, MIT) is not ours to commit, so the user points at the folder that holds it and this
writes a case of its own, ``cases/re4/keyhole_released`` by default (git-ignored): the keyhole case's text,
contract, reference and oracle, with ``dataset_keyhole.csv`` a link to the user's file (a run gets a copy), so
its results stay apart from the synthetic case's. Nothing is written unless the folder holds the file with
Re^4's header.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from simcodebench.core.cases import load_case, load_suite
from simcodebench.core.errors import InputError
from simcodebench.core.importing import write_yaml
from simcodebench.core.io import read_yaml
from simcodebench.core.project import cases_root
from simcodebench.suites.re4.keyhole import HEADER

DATA = "dataset_keyhole.csv"
DEFAULT_ID = "keyhole_released"
FIX = "give the folder that holds Re^4's released dataset_keyhole.csv (Re4_Sci_Agent repository), unchanged"


def released_data(folder: Path) -> Path:
    """``folder/dataset_keyhole.csv``, checked: the file exists and starts with Re^4's header (a byte-order mark
    allowed, as the released file has one)."""
    if not folder.is_dir():
        raise InputError(folder, "(folder)", "is not a folder", FIX)
    data = folder / DATA
    if not data.is_file():
        raise InputError(folder, DATA, "is missing from the folder", FIX)
    with open(data, encoding="utf-8-sig") as handle:
        header = handle.readline().strip()
    if header != HEADER:
        raise InputError(data, "(header)", f"is {header[:80]!r}, not Re^4's {HEADER!r}", FIX)
    return data


def import_released_keyhole(folder: Path, out: Path) -> Path:
    """Write the keyhole case on the released data of ``folder`` into ``out`` (a case folder inside the re4
    suite's folder, its name the case id), replacing what was there; return ``out``."""
    data = released_data(Path(folder)).resolve()
    out = Path(out)
    template = cases_root() / "re4" / "keyhole"
    if not (out.parent / "suite.yaml").is_file() or load_suite(out.parent).data.get("plugin") != "re4":
        raise InputError(
            out, "--out", "is not a folder inside a re4 suite's folder", f"use {template.parent / DEFAULT_ID}"
        )
    case = read_yaml(template / "case.yaml")
    case["id"] = out.name
    case["title"] = f"{case['title']} on Re^4's released data"
    case["tags"] = [*case.get("tags", []), "released-data"]
    staging = out.with_name(f".{out.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        write_yaml(staging / "case.yaml", case)
        for solution in (case["hidden"]["oracle"], case["hidden"].get("alternative")):  # the second one too
            if solution:
                shutil.copy2(template / solution, staging / solution)
        (staging / DATA).symlink_to(data)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    load_case(load_suite(out.parent), out)  # validates like any case
    return out
