"""Where the project's files are: the repository root, schemas, cases and results."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


@cache
def project_root() -> Path:
    """Return the repository root.

    ``SIMCODEBENCH_ROOT`` wins; otherwise the nearest parent of the working directory that holds
    ``workflow/schemas``; otherwise the checkout this package was installed from (editable install).
    """
    env = os.environ.get("SIMCODEBENCH_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if (candidate / "workflow" / "schemas").is_dir():
            return candidate
    return Path(__file__).resolve().parents[3]


def schema_path(name: str) -> Path:
    """Path of a JSON Schema (YAML) under ``workflow/schemas``."""
    return project_root() / "workflow" / "schemas" / f"{name}.schema.yaml"


def cases_root() -> Path:
    """Directory holding one folder per suite."""
    return project_root() / "cases"
