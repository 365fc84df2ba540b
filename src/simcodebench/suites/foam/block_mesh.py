"""The plain ``blockMeshDict`` of the foam cases: read and rewrite its vertices and its hex blocks' cell counts.

The cases' meshes are 2-D: each vertex list holds the x-y points of the back plane, then the same points, in the
same order, at the front plane (another z). A fresh geometry moves the points of both planes together
(:func:`set_plane`) and gives each block new cell counts in x and y (:func:`set_cells`), keeping one cell in z.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from simcodebench.core.fresh_edits import number

_NUMBER = r"[-+0-9.eE]+"
_VERTEX = re.compile(rf"\(\s*({_NUMBER})\s+({_NUMBER})\s+({_NUMBER})\s*\)")
_HEX = re.compile(r"(hex\s*\([\d\s]+\)\s*)\((\d+)\s+(\d+)\s+(\d+)\)")
_SCALE = re.compile(rf"^\s*(?:scale|convertToMeters)\s+({_NUMBER});", re.M)


def _list_span(text: str, keyword: str) -> tuple[int, int]:
    """Where the list ``keyword ( ... );`` of the dictionary stands: from its opening to its closing line."""
    found = re.search(rf"^{keyword}\s*\n\s*\(", text, re.M)
    if found is None:
        raise ValueError(f"blockMeshDict: no list '{keyword}'")
    end = re.compile(r"^\);", re.M).search(text, found.end())
    if end is None:
        raise ValueError(f"blockMeshDict: the list '{keyword}' is not closed")
    return found.end(), end.start()


def scale(text: str) -> float:
    """The factor the vertices are multiplied by (``scale`` or ``convertToMeters``)."""
    found = _SCALE.search(text)
    if found is None:
        raise ValueError("blockMeshDict: no 'scale' or 'convertToMeters'")
    return float(found.group(1))


def vertices(text: str) -> np.ndarray:
    """The vertices as written (not scaled), one row (x, y, z) each."""
    start, end = _list_span(text, "vertices")
    return np.array(_VERTEX.findall(text[start:end]), dtype=float).reshape(-1, 3)


def cells(text: str) -> list[tuple[int, int, int]]:
    """Each hex block's cell counts (nx, ny, nz), in the order of ``blocks``."""
    start, end = _list_span(text, "blocks")
    return [(int(x), int(y), int(z)) for _, x, y, z in _HEX.findall(text[start:end])]


def set_plane(text: str, plane: Sequence[tuple[float, float]]) -> str:
    """The dictionary with the x-y points of both planes set to ``plane`` (written unscaled, z kept).

    Raises ValueError when the vertex list is not two planes of ``len(plane)`` matching points.
    """
    start, end = _list_span(text, "vertices")
    found = _VERTEX.findall(text[start:end])
    old = np.array(found, dtype=float).reshape(-1, 3)
    half = len(plane)
    if len(old) != 2 * half or not np.allclose(old[:half, :2], old[half:, :2]):
        raise ValueError(f"blockMeshDict: expected two planes of {half} matching vertices, found {len(old)} vertices")
    rows = [f"    ({number(x)} {number(y)} {z})" for (x, y), (_, _, z) in zip([*plane, *plane], found, strict=True)]
    return text[:start] + "\n" + "\n".join(rows) + "\n" + text[end:]


def set_cells(text: str, counts: Sequence[tuple[int, int]]) -> str:
    """The dictionary with the hex blocks' cell counts in x and y set to ``counts`` (in block order; nz kept)."""
    start, end = _list_span(text, "blocks")
    blocks = text[start:end]
    if len(_HEX.findall(blocks)) != len(counts):
        raise ValueError(f"blockMeshDict: expected {len(counts)} hex blocks, found {len(_HEX.findall(blocks))}")
    new = iter(counts)

    def edit(match: re.Match[str]) -> str:
        nx, ny = next(new)
        return f"{match.group(1)}({nx} {ny} {match.group(4)})"

    return text[:start] + _HEX.sub(edit, blocks) + text[end:]
