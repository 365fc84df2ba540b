"""The multi-file reply format: a whole case directory in one LLM reply.

Every file is one fenced block whose opening fence names the file with ``path=``::

    ```foam path=system/controlDict
    FoamFile { ... }
    application icoFoam;
    ```

    ```sh path=Allrun
    #!/bin/sh
    blockMesh > log.blockMesh 2>&1
    ```

The word before ``path=`` (a language) is optional; the path is relative to the case directory, uses ``/`` and
may not leave the directory. Text outside the blocks is ignored. A reply is rejected, with a reason naming the
block, when it has no block, when a block names no path, when two blocks name the same path, when a path is
absolute, holds ``..``, or is reserved by the harness, and when a path is both a file and a folder.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from simcodebench.agents.extract import ExtractionError, fenced_blocks
from simcodebench.core.io import sha256_file

PATH_KEY = re.compile(r"""(?:^|\s)path=(?P<quote>["']?)(?P<path>[^\s"']*)(?P=quote)(?:\s|$)""")
RESERVED = frozenset({"manifest.json", "run.json", "stdout.txt", "stderr.txt"})
"""Top-level names the harness writes beside the case files."""


def checked_path(raw: str, where: str) -> str:
    """``raw`` as a normalised relative POSIX path, or an :class:`ExtractionError` saying why it is unusable."""
    if not raw:
        raise ExtractionError(f"{where} has an empty path=")
    if "\\" in raw or "\0" in raw:
        raise ExtractionError(f"{where}: path '{raw}' must use '/' and no special characters")
    path = PurePosixPath(raw)
    if path.is_absolute() or ".." in path.parts:
        raise ExtractionError(f"{where}: path '{raw}' escapes the case directory (it must be relative, without '..')")
    parts = [p for p in path.parts if p != "."]
    if not parts:
        raise ExtractionError(f"{where}: path '{raw}' names the case directory itself, not a file")
    normal = "/".join(parts)
    if normal in RESERVED:
        raise ExtractionError(f"{where}: path '{raw}' is reserved by the harness; use another file name")
    return normal


def parse_files(text: str | None) -> dict[str, str]:
    """The files of a multi-file reply as ``{relative path: content}``, in reply order.

    Raises :class:`ExtractionError` (a model failure, F-Extract) with the reason when the reply breaks the format.
    """
    if not text or not text.strip():
        raise ExtractionError("the reply is empty")
    blocks = fenced_blocks(text)
    if not blocks:
        raise ExtractionError("the reply has no fenced file blocks (expected ```<language> path=<relative path>)")
    files: dict[str, str] = {}
    origin: dict[str, int] = {}
    for number, block in enumerate(blocks, start=1):
        where = f"block {number} (```{block.info})"
        match = PATH_KEY.search(block.info)
        if match is None:
            raise ExtractionError(f"{where} names no file: every block needs path=<relative path> in its opening fence")
        path = checked_path(match.group("path"), where)
        if path in files:
            raise ExtractionError(f"{where}: path '{path}' is given twice (blocks {origin[path]} and {number})")
        files[path] = block.body
        origin[path] = number
    folders = {str(parent) for path in files for parent in PurePosixPath(path).parents if str(parent) != "."}
    clash = sorted(folders & set(files))
    if clash:
        raise ExtractionError(f"path '{clash[0]}' is both a file and a folder of other files")
    return files


def _fence(body: str) -> str:
    """A backtick fence longer than any backtick run that starts a line of ``body``."""
    runs = [len(m.group(0)) for m in re.finditer(r"^[ \t]*(`{3,})", body, re.MULTILINE)]
    return "`" * max(3, *(n + 1 for n in runs)) if runs else "```"


def render_files(files: dict[str, str], language: str) -> str:
    """The reply that gives ``files`` in the multi-file format (scripts starting with ``#!`` tagged ``sh``)."""
    blocks = []
    for path, body in files.items():
        fence = _fence(body)
        tag = "sh" if body.startswith("#!") else language
        blocks.append(f"{fence}{tag} path={path}\n{body.rstrip()}\n{fence}\n")
    return "\n".join(blocks)


def read_tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` as ``{relative path: text}``, sorted by path."""
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def write_tree(files: dict[str, str], folder: Path) -> list[dict[str, str]]:
    """Write ``files`` under ``folder`` (scripts starting with ``#!`` made executable); return manifest entries."""
    entries = []
    for path, body in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
        if body.startswith("#!"):
            target.chmod(0o755)
        entries.append({"name": path, "sha256": sha256_file(target)})
    return entries
