"""Cases whose reference or calibration failed: recorded, reported apart, and never a reason to lose the summary.

A reference job that raises (a record dropped by the paper's refinement filter, an oracle that cannot run the
case) writes a *failed* reference in place of its outputs: ``reference.json`` with ``failed: {stage, reason}``
and an empty ``reference.h5``. The calibration job of that case copies the failure into its ``calibration.json``
without running anything, and a calibration that raises records its own failure the same way. Every sample of
the case is then scored ``F-Case`` (status ``case-failed``, the reason as its message) without looking at the
run, later attempts are skipped, and the summary reports these samples in their own section, apart from the
model's failures and from F-Infra; every other case is summarised as usual. A rerun retries the case when its
files change (the oracle included); to retry it otherwise, delete ``results/references/<suite>/<case>/`` and
``results/calibration/<suite>/<case>.json``. An ``InfrastructureError`` (the sandbox or the solver environment
broke, not the case) is never recorded here: that job fails and a later run retries it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import h5py

from simcodebench.core.failure_classes import BUDGET as BUDGET_CLASS
from simcodebench.core.io import read_json, write_json

if TYPE_CHECKING:
    import pandas as pd

CASE_FAILED = "F-Case"
"""Failure class of a sample whose case has no reference or calibration: reported apart, never counted."""
STATUS = "case-failed"

log = logging.getLogger("simcodebench")


def failure(stage: str, exc: BaseException) -> dict[str, str]:
    """The ``failed`` entry for an exception raised while making the case's ``stage`` (reference, calibration)."""
    return {"stage": stage, "reason": f"{type(exc).__name__}: {exc}"}


def failure_of(record_path: Path) -> dict[str, str] | None:
    """The ``failed`` entry of a reference or calibration JSON file, or None when it was made."""
    return read_json(record_path).get("failed")


def write_failed_reference(out_json: Path, out_h5: Path, failed: dict[str, str]) -> None:
    """Write the failed reference pair (an empty HDF5 file, then the JSON) and log the reason as the last line."""
    out_h5.parent.mkdir(parents=True, exist_ok=True)
    with h5py.File(out_h5, "w"):
        pass
    write_json(out_json, {"scalars": {}, "fields": [], "meta": {}, "failed": failed})
    log.error("%s failed, the case is reported as %s: %s", failed["stage"], CASE_FAILED, failed["reason"])


def write_failed_calibration(out: Path, failed: dict[str, str]) -> None:
    """Write a calibration file that records the failure and log the reason as the last line."""
    write_json(out, {"failed": failed})
    log.error("%s failed, the case is reported as %s: %s", failed["stage"], CASE_FAILED, failed["reason"])


def failed_score(ident: dict[str, Any], generation: dict[str, Any], failed: dict[str, str]) -> dict[str, Any]:
    """The score of an attempt at a case without a reference or calibration."""
    return {
        **ident,
        "status": STATUS,
        "failure_class": CASE_FAILED,
        "passed": False,
        "message": f"the case's {failed['stage']} failed: {failed['reason']}",
        "gates": [],
        "generation": generation,
    }


def split(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows that count (neither ``F-Case`` nor ``F-Budget``, an attempt its agent's budget left unasked)
    and the rows of failed cases (``F-Case``)."""
    failed = frame["failure_class"].eq(CASE_FAILED)
    return frame[~failed & frame["failure_class"].ne(BUDGET_CLASS)], frame[failed]


def markdown(failed: pd.DataFrame) -> str:
    """The summary's section on failed cases: one row per case with its samples and the reason."""
    finals = failed[failed["final"]]
    if finals.empty:
        return ""
    rows = [
        f"| {suite} | {case} | {len(group)} | {group['message'].iloc[0].replace('|', '/')[:300]} |"
        for (suite, case), group in finals.groupby(["suite", "case"])
    ]
    head = "| suite | case | samples | reason |\n|---|---|---|---|"
    return (
        "\n## Cases not scored: their reference or calibration failed (F-Case)\n\n"
        "These samples count neither as the model's failures nor as F-Infra; every other case is summarised "
        "above. Each case's job log (`results/logs/reference|calibration/<suite>/<case>.log`) ends with the "
        f"reason.\n\n{head}\n" + "\n".join(rows) + "\n"
    )
