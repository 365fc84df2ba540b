"""Solver environments provisioned on this machine (``simcodebench env setup NAME``).

The same versions are pinned in ``workflow/envs/<name>.yaml`` (conda) and ``containers/<name>.def``
(Apptainer); ``tests/test_envs.py`` checks they agree.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import InfrastructureError
from .io import atomic_write_text, canonical_json, sha256_text
from .project import project_root

PYTHON_PACKAGES = ("numpy==2.4.6", "scipy==1.17.1", "matplotlib==3.11.2")

ENVIRONMENTS: dict[str, tuple[str, ...]] = {"python": PYTHON_PACKAGES}


@dataclass(frozen=True)
class SolverEnvironment:
    """A provisioned environment: where it lives and the interpreter that runs solutions in it."""

    name: str
    prefix: Path

    @property
    def python(self) -> Path:
        """The environment's Python interpreter."""
        return self.prefix / "bin" / "python"

    @property
    def bin_dir(self) -> Path:
        """Directory put first on the sandbox's PATH."""
        return self.prefix / "bin"


def envs_root() -> Path:
    """Where local environments live: ``$SIMCODEBENCH_ENVS`` or ``<repo>/.envs``."""
    return Path(os.environ.get("SIMCODEBENCH_ENVS", project_root() / ".envs"))


def _stamp(name: str) -> str:
    return sha256_text(canonical_json({"name": name, "packages": ENVIRONMENTS[name], "python": sys.version_info[:2]}))


def get_environment(name: str) -> SolverEnvironment:
    """The provisioned environment ``name``; raise :class:`InfrastructureError` when it is not set up."""
    if name not in ENVIRONMENTS:
        raise InfrastructureError(f"solver environment '{name}' cannot be provisioned locally by this version")
    env = SolverEnvironment(name, envs_root() / name)
    if not env.python.exists():
        raise InfrastructureError(
            f"solver environment '{name}' is not provisioned at {env.prefix}; run: simcodebench env setup {name}"
        )
    return env


def setup_environment(name: str, force: bool = False) -> SolverEnvironment:
    """Create (or reuse, when its stamp matches) the virtualenv of environment ``name``."""
    if name not in ENVIRONMENTS:
        raise InfrastructureError(f"no local recipe for environment '{name}'; known: {sorted(ENVIRONMENTS)}")
    env = SolverEnvironment(name, envs_root() / name)
    stamp_file = env.prefix / ".simcodebench-stamp"
    if not force and stamp_file.is_file() and stamp_file.read_text() == _stamp(name):
        return env
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(env.prefix)], check=True)
    subprocess.run(
        [
            str(env.python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *ENVIRONMENTS[name],
        ],
        check=True,
    )
    if name == "python":  # build matplotlib's font cache once, so no run pays for it
        subprocess.run(
            [str(env.python), "-c", "import matplotlib.pyplot"],
            check=True,
            env={**os.environ, "MPLCONFIGDIR": str(env.prefix / "mplconfig"), "MPLBACKEND": "Agg"},
        )
    atomic_write_text(stamp_file, _stamp(name))
    return env
