"""Shared helpers of the benchmark scripts: a scratch working directory running the repository's Snakefile."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from simcodebench.execution.provenance import machine_fingerprint

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def workdir(root: Path, config: dict[str, Any]) -> Path:
    """``root`` with ``config/config.yaml`` written (cases from the repository)."""
    (root / "config").mkdir(parents=True, exist_ok=True)
    (root / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    return root


def snakemake(work: Path, *args: str) -> subprocess.CompletedProcess:
    """Run the repository's Snakefile in ``work``; raise with the log tail on failure."""
    command = [
        SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(work),
        "--force-use-threads",
        *args,
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"snakemake failed:\n{result.stderr[-4000:]}")
    return result


def machine() -> str:
    """One line naming the machine and the date, for an entry of benchmarks/results/."""
    info = machine_fingerprint()
    return f"{info['cpu']}, {info['cores']} cores, {info['mem_gib']} GiB, Python {info['python']}, {date.today()}"
