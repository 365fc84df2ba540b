"""CFDCodeBench's released reference arrays as the reference of ``cfd-code@legacy`` (the config's
``references: {cfd-code@legacy: FOLDER}``), so that replayed generations are scored against what upstream scored
them against.

The released folder (upstream ``results/solution/``) holds ``<var>_<problem>.npy`` per saved variable; a case
names the arrays it reads and their shapes in ``hidden.scoring.upstream.arrays``. They are stored as they are
(the upstream layout, ``meta.layout: upstream``) and compared file by file in legacy mode, by index resampling,
without our case options, as upstream did.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.errors import InputError
from simcodebench.core.references import Reference

LAYOUT = "upstream"
"""``meta.layout`` of a reference read from released arrays: the fields are already in the upstream layout."""


def released_arrays(case: Case) -> dict[str, tuple[int, ...]]:
    """The released arrays of the case, by variable, with their shapes (``hidden.scoring.upstream.arrays``)."""
    arrays = (case.hidden.scoring.get("upstream") or {}).get("arrays") or {}
    return {name: tuple(int(n) for n in shape) for name, shape in arrays.items()}


def array_file(folder: Path, case: Case, name: str) -> Path:
    """``<var>_<case>.npy`` in ``folder``, as upstream names its solution arrays."""
    return folder / f"{name}_{case.id}.npy"


def check_folder(case: Case, folder: Path, field: str) -> list[Path]:
    """The case's released array files in ``folder``, each checked to exist and to have its declared shape (from
    the file's header); an :class:`InputError` naming the file, ``field`` and the fix otherwise."""
    if (case.suite.data.get("scoring") or {}).get("mode") != "legacy":
        raise InputError(
            folder,
            field,
            f"{case.suite.name} compares in physical coordinates, and released arrays have no grid",
            f"name {case.suite.base}@legacy in references (and in suites) instead",
        )
    arrays = released_arrays(case)
    if not arrays:
        raise InputError(
            case.folder / "case.yaml",
            "hidden.scoring.upstream.arrays",
            "is missing, so no released array can be read for this case",
            "list the released arrays and their shapes, e.g. {u: [101]}",
        )
    files = []
    for name, shape in arrays.items():
        path = array_file(folder, case, name)
        fix = f"point {field} at upstream's results/solution folder, which holds {path.name} of shape {list(shape)}"
        if not path.is_file():
            raise InputError(path, field, f"is missing ({case.id} needs it)", fix)
        try:
            found = np.load(path, mmap_mode="r", allow_pickle=False).shape
        except (OSError, ValueError) as exc:
            raise InputError(path, field, f"is not a NumPy array file ({exc})", fix) from exc
        if found != shape:
            raise InputError(path, field, f"has shape {list(found)}, not {list(shape)}", fix)
        files.append(path)
    return files


def read(case: Case, files: list[Path]) -> Reference:
    """The reference made of the released ``files`` (checked by :func:`check_folder`): each array under its
    variable's name, its real part (the pipe-flow eigenvectors are complex; a script's arrays are compared by
    their real part too)."""
    fields = {path.stem[: -len(case.id) - 1]: np.real(np.load(path, allow_pickle=False)) for path in files}
    return Reference(fields=fields, meta={"method": "released CFDCodeBench arrays", "layout": LAYOUT})
