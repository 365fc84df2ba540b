"""Helpers of the fresh-variant tests: a fresh draw written as a case of a temporary copy of its suite."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from simcodebench.core.cases import Case, load_case, load_suite
from simcodebench.core.project import cases_root


def write_case(
    tmp: Path, suite: str, case_id: str, mapping: dict[str, Any], files: dict[str, Any], family: Case | None = None
) -> Case:
    """``mapping`` and ``files`` as case ``case_id`` of a copy of ``suite``'s protocol (``suite.yaml`` and its
    templates) under ``tmp``, loaded and validated as the pipeline loads a case; with ``family``, its folder's
    files first (as ``simcodebench generate`` writes a case)."""
    folder = tmp / f"{suite}-fresh"
    if not folder.is_dir():
        folder.mkdir(parents=True)
        for path in (cases_root() / suite).iterdir():
            if path.is_file():
                shutil.copy(path, folder / path.name)
        protocol = yaml.safe_load((folder / "suite.yaml").read_text())
        (folder / "suite.yaml").write_text(yaml.safe_dump({**protocol, "name": folder.name}, sort_keys=False))
    case_dir = folder / case_id
    if family is not None:
        shutil.copytree(family.folder, case_dir, ignore=shutil.ignore_patterns("case.yaml", "__pycache__"))
    case_dir.mkdir(exist_ok=True)
    (case_dir / "case.yaml").write_text(yaml.safe_dump({**mapping, "id": case_id}, sort_keys=False, allow_unicode=True))
    for name, content in files.items():
        target = case_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return load_case(load_suite(folder), case_dir)
