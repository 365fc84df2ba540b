"""Reference data: scalars and metadata as JSON, fields as HDF5 (one file pair per case)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from simcodebench.core.io import read_json, write_json


@dataclass
class Reference:
    """A case's reference: named scalars, named arrays, and how they were made."""

    scalars: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, np.ndarray] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


def save_reference(reference: Reference, json_path: Path, h5_path: Path) -> None:
    """Write the HDF5 fields first, then the JSON (whose presence marks the pair complete)."""
    h5_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = h5_path.with_name(f".{h5_path.name}.tmp")
    with h5py.File(tmp, "w") as handle:
        for name, values in reference.fields.items():
            array = np.asarray(values, dtype=float)
            handle.create_dataset(name, data=array, compression="gzip" if array.ndim else None)
    tmp.replace(h5_path)
    write_json(json_path, {"scalars": reference.scalars, "fields": sorted(reference.fields), "meta": reference.meta})


def load_reference(json_path: Path, h5_path: Path) -> Reference:
    """Read a reference written by :func:`save_reference`."""
    data = read_json(json_path)
    with h5py.File(h5_path, "r") as handle:
        fields = {name: handle[name][()] for name in handle}
    return Reference(scalars=data["scalars"], fields=fields, meta=data.get("meta", {}))
