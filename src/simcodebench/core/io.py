"""Small file helpers: atomic writes so a crash never leaves a half-written file that looks finished."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml


def atomic_write_text(path: Path, text: str, mode: int | None = None, exclusive: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename; with ``exclusive``, through a hard link
    instead, so that a file already at ``path`` (one written at the same moment too) raises
    :class:`FileExistsError` and is left as it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        if exclusive:
            os.link(tmp, path)
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, data: Any, mode: int | None = None, exclusive: bool = False) -> None:
    """Atomically write ``data`` as indented JSON (NaN written as ``NaN``); ``exclusive`` as in
    :func:`atomic_write_text`."""
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False, default=str) + "\n", mode, exclusive)


def read_json(path: Path) -> Any:
    """Read a JSON file."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it (ten times faster: every Snakemake process of a run reads every
selected case), else the pure-Python one."""


def read_yaml(path: Path) -> Any:
    """Read a YAML file (safe loading: plain data only)."""
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=YAML_LOADER)


def sha256_text(text: str) -> str:
    """Hex SHA-256 of a string."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no whitespace, for hashing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
