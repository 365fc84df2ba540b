"""The version of a case: one hash of every file that decides what a sample of it is asked and how it is judged.

Two runs compared side by side must have judged the same problem; a case edited between them (its prompt, its
oracle, its thresholds, its suite's protocol) is a different version. The hash covers, by relative name and
content: the suite folder's own files (``suite.yaml``, prompt templates, oracles that cases share; not its
``README.md``), every file of the case's folder, and the case's oracle where it lies outside the folder. The
absolute location of the checkout does not enter it, so two checkouts of the same commit agree.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.io import sha256_file

SKIPPED_NAMES = frozenset({"README.md", "__pycache__", ".DS_Store"})
"""Files and folders that never enter a case's version."""


def _files(root: Path) -> list[Path]:
    """The files under ``root`` (itself when a file), sorted, without the skipped names and hidden files."""
    if root.is_file():
        return [root]
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not any(part in SKIPPED_NAMES or part.startswith(".") for part in p.relative_to(root).parts)
    )


@cache
def _version(suite: str, suite_folder: Path, case_folder: Path, oracle: Path) -> str:
    digest = hashlib.sha256(f"suite:{suite}\n".encode())
    shared = [p for p in sorted(suite_folder.iterdir()) if p.is_file() and p.name not in SKIPPED_NAMES]
    roots = [(suite_folder, shared), (case_folder, _files(case_folder))]
    if not oracle.resolve().is_relative_to(case_folder.resolve()) and oracle.parent != suite_folder:
        roots.append((oracle.parent, _files(oracle)))
    for base, files in roots:
        for path in files:
            digest.update(f"{path.relative_to(base).as_posix()}:{sha256_file(path)}\n".encode())
    return digest.hexdigest()[:16]


def case_version(case: Case) -> str:
    """The case's version: 16 hex digits of SHA-256 over its files (see the module's docstring)."""
    oracle = Path(os.path.normpath(case.folder / case.hidden.oracle))
    return _version(case.suite.name, case.suite.folder, case.folder, oracle)


def judged_version(case: Case, reference_meta: dict[str, Any]) -> str:
    """The case's version as a sample was judged: :func:`case_version`, with the hashes of the released reference
    files mixed in where the reference was read from the config's ``references`` folder (``meta.released``), so
    that runs scored against different reference data are different versions (the folder's location does not
    enter it)."""
    version = case_version(case)
    released = reference_meta.get("released")
    if not released:
        return version
    digest = hashlib.sha256(f"case:{version}\n".encode())
    for name, sha in sorted(released["files"].items()):
        digest.update(f"released/{name}:{sha}\n".encode())
    return digest.hexdigest()[:16]
