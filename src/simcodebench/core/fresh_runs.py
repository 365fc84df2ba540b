"""Running a fresh case's oracle once, outside the pipeline, while its draw is verified."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ScriptRun:
    """How a script ran: ``ok`` (exit status 0 within the limit), its seconds and, when not ok, why."""

    ok: bool
    seconds: float
    reason: str = ""


def run_python(source: str, folder: Path, timeout: float, name: str = "solution.py") -> ScriptRun:
    """Write ``source`` to ``folder/name`` and run it there with the harness's interpreter (our own oracle, not
    generated code: no sandbox), stopping it after ``timeout`` seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(source, encoding="utf-8")
    start = time.perf_counter()
    try:
        result = subprocess.run([sys.executable, name], cwd=folder, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ScriptRun(False, time.perf_counter() - start, f"ran past its {timeout:g} s limit")
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        return ScriptRun(False, seconds, f"exit status {result.returncode}: {result.stderr.strip()[-300:]}")
    return ScriptRun(True, seconds)
