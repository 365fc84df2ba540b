"""Shared fixtures: the repository root, the provisioned `python`, `openfoam`, `dolfinx`, `fea` and `dealii` solver
environments, upstream data. An environment that cannot be provisioned fails its tests unless
``SIMCODEBENCH_ALLOW_MISSING`` lists it (see ``missing.py``)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from missing import allowed_missing, require_or_skip
from shared_cache import end_session, start_session

from simcodebench.execution.environments import setup_environment
from simcodebench.execution.images import IMAGES_VARIABLE

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream"
SHARED_FOLDER = pytest.StashKey[Path | None]()
PROVISION_ERRORS = (OSError, subprocess.CalledProcessError)
"""What a failed set-up raises besides :class:`~simcodebench.core.errors.InfrastructureError`."""


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once when ``SIMCODEBENCH_ALLOW_MISSING`` names something it cannot allow; make the folder that the
    session's processes share (``shared_cache.py``)."""
    try:
        allowed_missing()
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from exc
    config.stash[SHARED_FOLDER] = start_session()
    # Images built in the checkout (make images) would turn `runtime: auto` into apptainer; the suite chooses its
    # runtimes itself (tests/apptainer_images.py gives the apptainer tests theirs).
    os.environ[IMAGES_VARIABLE] = str(Path(tempfile.gettempdir()) / "simcodebench-tests-no-images")


HEAVIEST_FIRST = (
    "test_pipeline_physics.py",
    "test_cfd_code_convection.py",
    "test_physics_runner.py",
    "test_cfd_code_convergence.py",
    "test_cfd_code_references.py",
    "test_slurm.py",
    "test_apptainer.py",
    "test_deleted_results.py",
    "test_fault_tolerance.py",
    "test_pipeline_fem.py",
    "test_pipeline_oracle_mutants.py",
    "test_pipeline_cfd_code.py",
    "test_batch_concurrency.py",
)
"""Modules of several minutes each (pytest ``--durations``), heaviest first: run before the rest, so that the
workers of ``pytest -n 2 --dist loadfile`` (``make test``) finish together instead of one waiting out the last
long module alone."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the :data:`HEAVIEST_FIRST` modules' tests first, in that order; the rest keep theirs."""
    rank = {name: place for place, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the shared folder where this process made it."""
    end_session(config.stash.get(SHARED_FOLDER, None))


@pytest.fixture(autouse=True)
def _no_remembered_windows() -> None:
    """Forget what servers said and refusals taught (windows, capacities, caps): a process remembers them by URL,
    and the scripted servers of two tests may get the same port."""
    from simcodebench.agents.backends import context, endpoint_cap
    from simcodebench.agents.backends.server_info import server_info

    server_info.cache_clear()
    context.forget()
    endpoint_cap.forget()


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
    """The `openfoam` environment (Debian's OpenFOAM v1912, installed with apt-get as root)."""
    from simcodebench.core.errors import InfrastructureError
    from simcodebench.execution.openfoam import require_bashrc

    try:
        env = setup_environment("openfoam")
        require_bashrc("openfoam")
    except (InfrastructureError, *PROVISION_ERRORS) as exc:
        require_or_skip("openfoam", f"OpenFOAM v1912 cannot be provisioned: {exc}")
    return env


@pytest.fixture(scope="session")
def dolfinx_env():
    """The `dolfinx` environment (a Python >= 3.12 virtualenv with DOLFINx 0.11)."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("dolfinx")
    except (InfrastructureError, *PROVISION_ERRORS) as exc:
        require_or_skip("dolfinx", f"the dolfinx environment cannot be provisioned: {exc}")


@pytest.fixture(scope="session")
def fea_env():
    """The `fea` environment (scikit-fem and DOLFINx on Python >= 3.12)."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("fea")
    except (InfrastructureError, *PROVISION_ERRORS) as exc:
        require_or_skip("fea", f"the fea environment cannot be provisioned: {exc}")


@pytest.fixture(scope="session")
def dealii_env():
    """The `dealii` environment (Debian's deal.II 9.4, CMake, nlohmann-json)."""
    from simcodebench.core.errors import InfrastructureError

    try:
        return setup_environment("dealii")
    except (InfrastructureError, *PROVISION_ERRORS) as exc:
        require_or_skip("dealii", f"deal.II 9.4 cannot be provisioned: {exc}")


@pytest.fixture(scope="session")
def upstream() -> Path:
    """`../shared/upstream`, or a skip when it is absent."""
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream data absent: {UPSTREAM}")
    return UPSTREAM
