"""Read an OpenFOAM case's results with foamlib: its time directories, internal fields and cell centres.

Fields may be ASCII or binary, compressed (``.gz``) or not, ``uniform`` or ``nonuniform``; a uniform field is
expanded to one value per cell. Cell centres are the ``C`` field that the harness writes with
``postProcess -func writeCellCentres -latestTime`` after the run (the mesh is static, so any time's ``C`` serves).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from foamlib import FoamFieldFile

COMPARED = ("U", "p", "T", "rho")
"""The fields FoamBench compares, where both cases have them."""
CENTRES = "C"


class FieldReadError(ValueError):
    """A field or the cell centres cannot be read as OpenFOAM data of the expected size."""


def _time_value(name: str) -> float | None:
    try:
        value = float(name)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def time_dirs(case_dir: Path) -> dict[float, Path]:
    """The case's time directories (``0``, ``0.5``, ``1e-05``, ...) by time value."""
    found = {}
    for path in Path(case_dir).iterdir():
        value = _time_value(path.name)
        if value is not None and path.is_dir():
            found[value] = path
    return dict(sorted(found.items()))


def field_path(time_dir: Path, name: str) -> Path | None:
    """The file of field ``name`` in ``time_dir`` (``name`` or ``name.gz``), or None."""
    for candidate in (time_dir / name, time_dir / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def read_internal(path: Path, cells: int | None = None) -> np.ndarray:
    """The internal field of ``path`` as ``(cells,)`` or ``(cells, 3)`` floats (a uniform one needs ``cells``)."""
    try:
        field = FoamFieldFile(path)
        value, vector = field.internal_field, "Vector" in str(field.class_)
    except Exception as exc:  # foamlib raises parser-specific errors; all mean "not a readable field"
        raise FieldReadError(f"{path.name}: cannot read its internalField ({exc})") from exc
    array = np.asarray(value, dtype=float)
    if array.ndim == 0 or (vector and array.ndim == 1):  # uniform
        if cells is None:
            raise FieldReadError(f"{path.name}: a uniform field needs the number of cells")
        array = np.broadcast_to(array, (cells, *array.shape)).copy()
    if cells is not None and array.shape[0] != cells:
        raise FieldReadError(f"{path.name}: {array.shape[0]} values for {cells} cells")
    if array.ndim not in (1, 2) or (array.ndim == 2 and array.shape[1] != 3):
        raise FieldReadError(f"{path.name}: unsupported field shape {array.shape}")
    return array


def cell_centres(case_dir: Path) -> np.ndarray:
    """The cell centres ``(cells, 3)``: ``C`` of the latest time directory that has one."""
    for time_dir in reversed(time_dirs(case_dir).values()):
        path = field_path(time_dir, CENTRES)
        if path is not None:
            centres = read_internal(path)
            if centres.ndim != 2:
                raise FieldReadError(f"{path}: cell centres must be vectors")
            return centres
    raise FieldReadError("no time directory holds the cell centres C (postProcess -func writeCellCentres failed)")


def read_fields(time_dir: Path, cells: int, names: tuple[str, ...] = COMPARED) -> dict[str, np.ndarray]:
    """The fields among ``names`` present in ``time_dir``, one value (or vector) per cell."""
    fields = {}
    for name in names:
        path = field_path(time_dir, name)
        if path is not None:
            fields[name] = read_internal(path, cells)
    return fields
