"""The image the apptainer tests run in: ``containers/python.def`` itself, built once per version of that file on
this machine and kept in ``$XDG_CACHE_HOME/simcodebench/test-images/<hash>/python.sif`` (a later session, or a
fresh clone on the same machine, reuses it: the build bootstraps Debian and installs the pinned wheels, minutes).
Pytest's workers wait for one build (a lock file). Where apptainer is absent the tests skip, naming it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from simcodebench.execution.image_builds import build_image, needs_fakeroot
from simcodebench.execution.images import definition_path

APPTAINER_MISSING = "apptainer is not installed here (the apptainer runtime's tests need it)"


def provision() -> str | None:
    """Give root the subordinate ids that its ``--fakeroot`` builds need where its capabilities are reduced
    (``image_builds``); None when done or nothing is needed (no apptainer: its tests skip), else why not."""
    if shutil.which("apptainer") is None or not needs_fakeroot() or os.geteuid() != 0:
        return None
    if any(line.startswith("root:") for line in Path("/etc/subuid").read_text().splitlines()):
        return None
    ids = "1000000-1065535"
    command = ["usermod", "--add-subuids", ids, "--add-subgids", ids, "root"]
    done = subprocess.run(command, capture_output=True, text=True)
    return None if done.returncode == 0 else f"usermod could not give root subordinate ids: {done.stderr.strip()}"


def require_apptainer() -> str:
    """``apptainer`` on PATH, or skip the test naming it."""
    executable = shutil.which("apptainer")
    if executable is None:
        pytest.skip(APPTAINER_MISSING)
    return executable


def images_folder(environment: str = "python") -> Path:
    """The folder holding ``<environment>.sif`` built from the checkout's definition (built here if missing)."""
    require_apptainer()
    definition = definition_path(environment)
    digest = hashlib.sha256(definition.read_bytes()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcodebench" / "test-images"
    folder = cache / digest
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / f"{environment}.sif").is_file():
            build_image(environment, folder)
    return folder
