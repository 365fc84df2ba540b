"""The size of an OpenFOAM case read from its files, without running it: the cells its ``blockMeshDict`` makes,
the time steps its ``controlDict`` asks for, its application and the MPI ranks its ``Allrun`` starts.

Each reader returns None where the files do not say it plainly (a count or time given by a ``$variable`` or
``#calc``, a mesh made by another tool): the caller then falls back to a default.
"""

from __future__ import annotations

import re

BLOCK_MESH = ("system/blockMeshDict", "constant/polyMesh/blockMeshDict")
CONTROL = "system/controlDict"
DECOMPOSE = "system/decomposeParDict"
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_HEX = re.compile(r"\bhex\s*\(([^()]*)\)\s*(?:[A-Za-z_]\w*\s*)?\(([^()]*)\)")
_PARALLEL = re.compile(r"\bmpirun\b|\brunParallel\b|-parallel\b")


def _text(files: dict[str, str], name: str) -> str | None:
    text = files.get(name)
    return None if text is None else _COMMENTS.sub(" ", text)


def _entry(text: str, key: str) -> str | None:
    found = re.search(rf"^\s*{key}\s+([^;]+);", text, re.M)
    return found.group(1).strip() if found else None


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def block_cells(files: dict[str, str]) -> int | None:
    """Cells of the case's ``blockMeshDict``: the sum over its ``hex`` blocks of nx * ny * nz."""
    text = next((t for t in (_text(files, name) for name in BLOCK_MESH) if t is not None), None)
    if text is None:
        return None
    cells = 0
    for _, counts in _HEX.findall(text):
        numbers = counts.split()
        if len(numbers) != 3 or not all(n.isdigit() for n in numbers):
            return None
        cells += int(numbers[0]) * int(numbers[1]) * int(numbers[2])
    return cells or None


def time_steps(files: dict[str, str]) -> float | None:
    """Time steps of the run: (endTime - startTime) / deltaT of ``controlDict`` (a steady solver's iterations)."""
    text = _text(files, CONTROL)
    if text is None:
        return None
    end, start, step = (_number(_entry(text, key)) for key in ("endTime", "startTime", "deltaT"))
    if end is None or step is None or step <= 0:
        return None
    steps = (end - (start or 0.0)) / step
    return steps if steps > 0 else None


def application(files: dict[str, str]) -> str | None:
    """The solver ``controlDict`` names."""
    text = _text(files, CONTROL)
    return _entry(text, "application") if text is not None else None


def mpi_ranks(files: dict[str, str]) -> int:
    """The ranks a parallel ``Allrun`` starts (``numberOfSubdomains`` of ``decomposeParDict``), else 1."""
    allrun, decompose = files.get("Allrun", ""), _text(files, DECOMPOSE)
    if decompose is None or not _PARALLEL.search(re.sub(r"#[^\n]*", " ", allrun)):
        return 1
    ranks = _number(_entry(decompose, "numberOfSubdomains"))
    return int(ranks) if ranks and ranks >= 1 else 1
