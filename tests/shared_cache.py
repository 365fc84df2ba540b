"""Results that several tests need and that take minutes (the cfd-code references), made once per test session
even when pytest-xdist runs the tests in several processes: the session's processes share one folder, and an
entry is made under an exclusive lock by the first process that needs it while the others wait for it."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

SHARED_ENV = "SIMCODEBENCH_TEST_SHARED"
"""The folder the session's processes share; the controlling process makes it, its workers inherit it."""

T = TypeVar("T")


def start_session() -> Path | None:
    """Make the shared folder when no process above has made one; return it then (to remove at the end)."""
    if os.environ.get(SHARED_ENV):
        return None
    folder = Path(tempfile.mkdtemp(prefix="simcodebench-tests-"))
    os.environ[SHARED_ENV] = str(folder)
    return folder


def end_session(folder: Path | None) -> None:
    """Remove the shared folder this process made."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SHARED_ENV, None)


def made_once(name: str, make: Callable[[], T]) -> T:
    """``make()``'s result, made by one process of the session and read back (pickled) by the others."""
    shared = os.environ.get(SHARED_ENV)
    if not shared:
        return make()
    path = Path(shared) / f"{name}.pickle"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            return pickle.loads(path.read_bytes())
        value = make()
        partial = path.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(value))
        partial.replace(path)
        return value
