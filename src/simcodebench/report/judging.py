"""How each run judged each case, and where runs judged the same case differently.

A verdict depends on the case's files (its version, :mod:`simcodebench.core.versions`) and on its calibration:
the accuracy threshold, and the time threshold, which is the oracle's time on the machine that calibrated it.
Runs made apart (two days, a workstation and a cluster) may differ in any of these; a comparison names each
difference, and sets the time gate aside where the time thresholds or their machines differ.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

JUDGING_COLUMNS = ["run", "suite", "case", "tau_acc", "tau_time", "calibrated_on", "case_version"]


def _one(values: pd.Series) -> Any:
    """The value the rows share (None when there is none or several)."""
    unique = values.dropna().unique()
    return unique[0] if len(unique) == 1 else None


def _float(value: Any) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def judging(run: str, finals: pd.DataFrame, calibrations: dict[tuple[str, str], dict[str, Any]]) -> pd.DataFrame:
    """One row per (suite, case) of a run: its thresholds, the machine that calibrated them and the case's
    version. The calibration file is read first; where it is absent (a run copied without it), the thresholds
    its scores carry, and an unknown machine."""
    rows = []
    for (suite, case), rows_of_case in finals.groupby(["suite", "case"]):
        record = calibrations.get((suite, case)) or {}
        thresholds = record.get("thresholds") or {}
        machine = ((record.get("provenance") or {}).get("machine") or {}).get("id")
        versions = sorted(rows_of_case["case_version"].dropna().unique())
        if not versions and record.get("case_version"):
            versions = [record["case_version"]]
        rows.append(
            {
                "run": run,
                "suite": suite,
                "case": case,
                "tau_acc": _float(
                    thresholds["accuracy"] if "accuracy" in thresholds else _one(rows_of_case["tau_acc"])
                ),
                "tau_time": _float(thresholds["time"] if "time" in thresholds else _one(rows_of_case["tau_time"])),
                "calibrated_on": machine,
                "case_version": ",".join(versions) or None,
            }
        )
    return pd.DataFrame(rows, columns=JUDGING_COLUMNS)


def _differ(values: list[Any]) -> bool:
    """Whether the runs' values differ (floats compared to 9 significant digits; None is a value of its own)."""
    norm = {f"{v:.9g}" if isinstance(v, float) else v for v in values}
    return len(norm) > 1


def _show(values: pd.Series, runs: pd.Series, fmt: str = "{}") -> str:
    return ", ".join(f"{run}: {'none' if v is None else fmt.format(v)}" for run, v in zip(runs, values, strict=True))


def differences(table: pd.DataFrame) -> pd.DataFrame:
    """Where runs judged a (suite, case) differently: one row per (suite, case, what) with ``what`` one of
    ``case version``, ``time gate`` (threshold or calibrating machine), ``accuracy threshold``, and a
    ``detail`` naming each run's value. Cases only one run holds have nothing to differ in."""
    rows = []
    for (suite, case), at in table.groupby(["suite", "case"], sort=True):
        if at["run"].nunique() < 2:
            continue
        at = at.astype(object).where(at.notna(), None)
        versions = [v for v in at["case_version"] if v is not None]
        if _differ(versions):
            rows.append((suite, case, "case version", _show(at["case_version"], at["run"])))
        timed = at["tau_time"].notna().any()
        if timed and (_differ(list(at["tau_time"])) or _differ(list(at["calibrated_on"]))):
            tau = _show(at["tau_time"], at["run"], "{:.3g} s")
            rows.append((suite, case, "time gate", f"{tau}; calibrated on {_show(at['calibrated_on'], at['run'])}"))
        if _differ(list(at["tau_acc"])):
            rows.append((suite, case, "accuracy threshold", _show(at["tau_acc"], at["run"], "{:.3g}")))
    return pd.DataFrame(rows, columns=["suite", "case", "what", "detail"])
