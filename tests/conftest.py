"""Shared fixtures: the repository root, the provisioned `python`, `openfoam`, `dolfinx` and `dealii` solver
environments, upstream data."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from simcodebench.execution.environments import setup_environment

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def python_env():
    """The `python` solver environment (provisioned once; `make test` has already done it)."""
    return setup_environment("python")


@pytest.fixture(scope="session")
def openfoam_env():
    """The `openfoam` environment (Debian's OpenFOAM v1912, installed with apt-get as root), or a skip saying why
    it cannot be had here."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.execution.openfoam import require_bashrc

    try:
        env = setup_environment("openfoam")
        require_bashrc("openfoam")
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"OpenFOAM v1912 is not available: {exc}")
    return env


@pytest.fixture(scope="session")
def dolfinx_env():
    """The `dolfinx` environment (a Python >= 3.12 virtualenv with DOLFINx 0.11), or a skip saying why it cannot be
    provisioned here (no such interpreter, no package index)."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("dolfinx")
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"the dolfinx environment cannot be provisioned: {exc}")


@pytest.fixture(scope="session")
def fea_env():
    """The `fea` environment (scikit-fem and DOLFINx on Python >= 3.12), or a skip saying why it cannot be
    provisioned here."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("fea")
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"the fea environment cannot be provisioned: {exc}")


@pytest.fixture(scope="session")
def dealii_env():
    """The `dealii` environment (Debian's deal.II 9.4, CMake, nlohmann-json), or a skip saying why."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("dealii")
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"deal.II 9.4 is not available: {exc}")


@pytest.fixture(scope="session")
def upstream() -> Path:
    """`../shared/upstream`, or a skip when it is absent."""
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream data absent: {UPSTREAM}")
    return UPSTREAM
