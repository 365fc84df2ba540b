"""Re^4's own metric, "execution success", for the ``re4@paper`` variant: the script ran to the end within the
wall limit and exited 0 (the run gate), and printed or saved no NaN or infinity (this module).

What is inspected (cases/re4/README.md, "re4@paper"):

- ``stdout.txt`` and ``stderr.txt``: the tokens ``nan``, ``NaN`` and ``inf`` (with an optional sign), as Python,
  numpy and pandas print a non-finite number. A token is a whole word: not inside a longer word or name
  (``nano``, ``info``, ``isnan``, ``L_inf``), not an attribute (``np.nan``, ``np.inf``), not a call
  (``nan(``), and not the tail of a hyphenated word (``L-inf``, ``L-infinity``).
- every file the script wrote in its working directory (not its own source, not the case's input files, not
  the harness's hidden folders such as ``.cache``): ``.npy`` and ``.npz`` arrays by value (any non-finite
  float or complex entry), ``.csv``, ``.txt``, ``.dat``, ``.json`` and ``.out`` text by the same tokens (plus
  ``Infinity`` in ``.json``, as ``json.dump`` writes it). Other files (figures) are not read.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcodebench.core.cases import Case

_EDGE_BEFORE = r"(?<![\w.])(?<![A-Za-z]-)"
_EDGE_AFTER = r"(?![\w(])"
NONFINITE_TOKEN = re.compile(rf"{_EDGE_BEFORE}[+-]?(?:nan|NaN|inf){_EDGE_AFTER}")
JSON_NONFINITE_TOKEN = re.compile(rf"{_EDGE_BEFORE}[+-]?(?:nan|NaN|inf|Infinity){_EDGE_AFTER}")
STREAMS = ("stdout.txt", "stderr.txt")
ARRAY_SUFFIXES = (".npy", ".npz")
TEXT_SUFFIXES = (".csv", ".txt", ".dat", ".json", ".out")
MAX_TEXT_BYTES = 64 * 1024 * 1024
"""Text files are read up to this many bytes (a script may write far more; the head is what is judged)."""


@dataclass(frozen=True)
class Finding:
    """Where a non-finite value was found, and the excerpt that shows it."""

    where: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.where}: {self.excerpt!r}"


def first_token(text: str, pattern: re.Pattern[str] = NONFINITE_TOKEN) -> str | None:
    """The line (cut to 120 characters) holding the first non-finite token of ``text``, or None."""
    match = pattern.search(text)
    if match is None:
        return None
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return text[start : end if end >= 0 else len(text)].strip()[:120]


def _array_finding(path: Path) -> str | None:
    try:
        if path.suffix == ".npy":
            arrays = {"": np.load(path, allow_pickle=False)}
        else:
            with np.load(path, allow_pickle=False) as archive:
                arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None  # unreadable or pickled: no array of numbers to judge
    for name, array in arrays.items():
        if array.dtype.kind in "fc" and not np.all(np.isfinite(array)):
            bad = int(array.size - np.count_nonzero(np.isfinite(array)))
            return f"{name or 'array'} has {bad} non-finite value(s)"
    return None


def _text_finding(path: Path) -> str | None:
    with open(path, "rb") as handle:
        text = handle.read(MAX_TEXT_BYTES).decode("utf-8", errors="replace")
    return first_token(text, JSON_NONFINITE_TOKEN if path.suffix == ".json" else NONFINITE_TOKEN)


def written_files(case: Case, run_dir: Path) -> list[Path]:
    """The files the script wrote under ``run_dir``: all but its streams, its source, the case's inputs and
    hidden folders (the harness's ``.cache`` and ``.tmp``)."""
    harness = {*STREAMS, case.suite.entrypoint, *(Path(name).name for name in case.visible.inputs)}
    return sorted(
        path
        for path in run_dir.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(run_dir).parts)
        and str(path.relative_to(run_dir)) not in harness
    )


def nonfinite_findings(case: Case, run_dir: Path) -> list[Finding]:
    """Every place the run printed or saved a NaN or infinity (the streams first, then the files)."""
    findings = []
    for name in STREAMS:
        path = run_dir / name
        if path.is_file() and (line := first_token(path.read_text(errors="replace"))) is not None:
            findings.append(Finding(name, line))
    for path in written_files(case, run_dir):
        suffix = path.suffix.lower()
        found = (
            _array_finding(path)
            if suffix in ARRAY_SUFFIXES
            else _text_finding(path)
            if suffix in TEXT_SUFFIXES
            else None
        )
        if found is not None:
            findings.append(Finding(str(path.relative_to(run_dir)), found))
    return findings
