"""Where a result came from: package version, git commit, machine fingerprint, environment versions."""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from simcodebench import __version__
from simcodebench.core.io import canonical_json, sha256_text
from simcodebench.core.project import project_root
from simcodebench.execution.environments import environment_specs


def utc_now() -> str:
    """The current time, ISO 8601 in UTC."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@cache
def git_commit() -> str | None:
    """The checkout's commit (with ``-dirty`` when it has local changes), or None outside git."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=project_root(),
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=project_root(),
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit}-dirty" if dirty else commit


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


@cache
def machine_fingerprint() -> dict[str, Any]:
    """What identifies the machine that measured a time: CPU, cores, memory, OS, Python."""
    try:
        meminfo = Path("/proc/meminfo").read_text(encoding="utf-8").splitlines()
        mem_kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal"))
    except (OSError, StopIteration):
        mem_kb = 0
    info = {
        "hostname": platform.node(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "mem_gib": round(mem_kb / 1024**2, 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }
    info["id"] = sha256_text(canonical_json({k: v for k, v in info.items() if k != "hostname"}))[:16]
    return info


def _packages(environment: str | None) -> tuple[str, ...]:
    """The pinned packages of ``environment`` (none for an environment no suite brings, or none at all)."""
    spec = environment_specs().get(environment or "")
    return spec.packages if spec else ()


def provenance(
    environment: str | None = None, runtime: str | None = None, image: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The provenance block every record carries; ``image``: the Apptainer image that ran it
    (:func:`simcodebench.execution.images.image_provenance`: path, SHA-256, version hash)."""
    record = {
        "simcodebench": __version__,
        "git_commit": git_commit(),
        "machine": machine_fingerprint(),
        "environment": {"name": environment, "packages": list(_packages(environment))},
        "runtime": runtime,
        "created": utc_now(),
    }
    if image is not None:
        record["image"] = image
    return record
