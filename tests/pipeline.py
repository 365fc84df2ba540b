"""Helpers to run the real Snakemake workflow in a temporary working directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def make_workdir(
    tmp_path: Path, config: dict[str, Any], wall_s: float = 30.0, floor_s: float = 3.0, repeats: int = 3
) -> Path:
    """A working directory with a quick copy of the cases (short limits) and ``config/config.yaml``."""
    work = tmp_path / "work"
    cases = work / "cases"
    shutil.copytree(REPO / "cases", cases)
    suite_file = cases / "re4" / "suite.yaml"
    suite = yaml.safe_load(suite_file.read_text())
    suite["defaults"]["resources"]["wall_s"] = wall_s
    suite["thresholds"]["time"] = {"alpha": 3.0, "floor_s": floor_s}
    suite["calibration"]["repeats"] = repeats
    suite_file.write_text(yaml.safe_dump(suite))
    (work / "config").mkdir()
    full = {"cases_dir": str(cases), "runtime": "auto", **config}
    (work / "config" / "config.yaml").write_text(yaml.safe_dump(full))
    return work


def snakemake(
    work: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 900, check: bool = True
) -> subprocess.CompletedProcess:
    """Run the repository's Snakefile in ``work``."""
    command = [
        SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(work),
        "--cores",
        "2",
        "--rerun-incomplete",
        "--force-use-threads",
        *args,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    if check and result.returncode != 0:
        raise AssertionError(
            f"snakemake failed ({result.returncode}):\n{result.stdout[-4000:]}\n{result.stderr[-6000:]}"
        )
    return result


def scores(work: Path) -> pd.DataFrame:
    """The run's ``scores.csv``."""
    return pd.read_csv(work / "results" / "summary" / "scores.csv")
