"""Scorer of the cfd-query suite (CFDQuery): the answer key is the reference, the extracted option the answer.

Reference generator ``answer_key`` (``params.correct_option``: 1-4). Scoring kind ``answer_key``: the
option extracted from the reply (``answer.txt``, written by the ``option`` extraction) gives error 0 when it is
the correct one and 1 otherwise; metrics ``correct`` (1/0, its mean is the accuracy) and ``option``.
"""

from __future__ import annotations

from pathlib import Path

from simcodebench.core.cases import Case
from simcodebench.core.measurement import Measurement
from simcodebench.core.references import Reference


def generate_reference(case: Case) -> Reference:
    """The answer key of the question."""
    if case.hidden.reference["generator"] != "answer_key":
        raise KeyError(f"{case.key}: no cfd-query reference generator '{case.hidden.reference['generator']}'")
    answer = int(case.hidden.reference["params"]["correct_option"])
    if answer not in (1, 2, 3, 4):
        raise ValueError(f"{case.key}: hidden.reference.params.correct_option must be 1-4, not {answer}")
    return Reference(scalars={"correct_option": answer}, meta={"method": "answer key of the question"})


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Compare the extracted option with the answer key."""
    path = Path(run_dir) / case.suite.data["extraction"]["filename"]
    if not path.is_file():
        return Measurement(outcome="missing", message=f"{path.name} (the extracted option) is missing")
    try:
        option = int(path.read_text(encoding="utf-8").strip())
    except ValueError:
        return Measurement(outcome="format", message=f"{path.name} does not hold an option number")
    correct = option == int(reference.scalars["correct_option"])
    return Measurement(
        outcome="ok", error=0.0 if correct else 1.0, metrics={"correct": float(correct), "option": float(option)}
    )
