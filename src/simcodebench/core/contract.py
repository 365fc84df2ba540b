"""Read a run's outputs as the case's output contract describes them, and check their shapes."""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.measurement import Measurement


class ContractViolation(Exception):
    """The outputs break the contract; ``outcome`` is ``missing``, ``format`` or ``nonfinite``."""

    def __init__(self, outcome: str, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message

    def as_evaluation(self) -> Measurement:
        """The violation as an :class:`Measurement`."""
        return Measurement(outcome=self.outcome, message=self.message)  # type: ignore[arg-type]


def _load_file(spec: dict[str, Any], path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ContractViolation("missing", f"{spec['name']} was not written")
    try:
        if spec["format"] == "npz":
            with np.load(path, allow_pickle=False) as data:
                return {key: np.asarray(data[key]) for key in data.files}
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ContractViolation("format", f"{spec['name']} cannot be read as {spec['format']}: {exc}") from exc
    if not isinstance(data, dict):
        raise ContractViolation("format", f"{spec['name']} must hold a JSON object")
    return data


def _as_array(file: str, name: str, value: Any) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ContractViolation("format", f"{file}: '{name}' is not numeric") from exc
    return array


def _check_shape(file: str, name: str, array: np.ndarray, shape: list[Any], sizes: dict[str, int]) -> None:
    if array.ndim != len(shape):
        raise ContractViolation("format", f"{file}: '{name}' has {array.ndim} dimensions, expected {len(shape)}")
    for axis, (want, got) in enumerate(zip(shape, array.shape, strict=True)):
        if isinstance(want, int):
            if got != want:
                raise ContractViolation("format", f"{file}: '{name}' has length {got} on axis {axis}, expected {want}")
        elif sizes.setdefault(want, got) != got:
            raise ContractViolation(
                "format",
                f"{file}: '{name}' has length {got} on axis {axis}, but {want} = {sizes[want]} elsewhere",
            )
        elif got < 2:
            raise ContractViolation("format", f"{file}: '{name}' needs at least 2 points on axis {axis}")


def load_outputs(contract: dict[str, Any], run_dir: Path) -> dict[str, dict[str, np.ndarray]]:
    """Load every contract file from ``run_dir`` as ``{file: {field: float array}}``.

    Raises :class:`ContractViolation` for a missing file (``missing``), an unreadable file, a missing field
    or a wrong shape (``format``), and a non-finite value in any field (``nonfinite``), in that order.
    """
    loaded: dict[str, dict[str, np.ndarray]] = {}
    for spec in contract["files"]:
        raw = _load_file(spec, run_dir / spec["name"])
        arrays: dict[str, np.ndarray] = {}
        sizes: dict[str, int] = {}
        for name, field_spec in (spec.get("fields") or {}).items():
            if name not in raw:
                raise ContractViolation("format", f"{spec['name']}: field '{name}' is missing")
            arrays[name] = _as_array(spec["name"], name, raw[name])
            if "shape" in field_spec:
                _check_shape(spec["name"], name, arrays[name], field_spec["shape"], sizes)
        loaded[spec["name"]] = arrays
    for file, arrays in loaded.items():
        for name, array in arrays.items():
            if not np.all(np.isfinite(array)):
                bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
                raise ContractViolation("nonfinite", f"{file}: '{name}' has {bad} non-finite value(s)")
    return loaded


def finite_or_none(value: float) -> float | None:
    """``value`` as a float, or ``None`` when it is not finite (JSON has no NaN)."""
    return float(value) if math.isfinite(value) else None
