"""Solver environments provisioned on this machine (``simcodebench env setup NAME``).

Virtualenv environments install pinned PyPI packages into ``.envs/<name>`` with the harness's interpreter, or
with a discovered newer one where the wheels need it (``MIN_PYTHON``); what pip resolved is frozen into
``.envs/<name>/requirements.lock``. Debian environments (``APT_ENVIRONMENTS``) are system packages: they are
checked, installed with apt-get when running as root, and their versions recorded in ``.envs/<name>/versions.txt``.
The same versions are pinned in ``workflow/envs/<name>.yaml`` (conda) and ``containers/<name>.def``
(Apptainer); ``tests/test_envs_agree.py`` checks they agree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import atomic_write_text, canonical_json, sha256_text
from simcodebench.core.project import project_root
from simcodebench.execution.interpreters import find_python, interpreter_version

PYTHON_PACKAGES = (
    "numpy==2.4.6",
    "scipy==1.17.1",
    "matplotlib==3.11.2",
    "pandas==2.3.3",
    "scikit-learn==1.9.1",
)
"""The `python` environment: Re^4's and CFDCodeBench's programmers' stack. pandas and scikit-learn are there because
Re^4's released keyhole programs (all of them, from three models) read the data set with pandas and fit the
exponents with scikit-learn. pandas stays on the 2.x line those programs were written for (2025): pandas 3 removed
``read_csv(delim_whitespace=...)``, which one of them uses."""
DOLFINX_PACKAGES = (
    "dolfinx-solver-real==0.11.0.post0",
    "gmsh==4.15.2",
    "sympy==1.14.0",
    "numpy==2.5.5",
    "scipy==1.18.1",
)
FEA_PACKAGES = (
    "dolfinx-solver-real==0.11.0.post0",
    "gmsh==4.15.2",
    "sympy==1.14.0",
    "numpy==2.5.5",
    "scipy==1.18.1",
    "scikit-fem==12.0.2",
)
"""FEABench re-posed for open solvers (suite ``fea``): scikit-fem and DOLFINx side by side."""
DEALII_PACKAGES = ("libdeal.ii-dev", "cmake", "nlohmann-json3-dev", "g++", "make")
OPENFOAM_PACKAGES = ("openfoam",)
"""Debian's OpenFOAM v1912 (openfoam.com); its bashrc is found by :mod:`.openfoam`."""
GENESIS_PACKAGES = ("torch==2.13.0", "genesis-world==1.4.5", "av==18.1.0")
"""Genesis on PyTorch (torch first: here it resolves to the local CPU wheel; see the README for CPU or CUDA
indexes elsewhere) and PyAV, which the physics scorer uses to read the videos."""

ENVIRONMENTS: dict[str, tuple[str, ...]] = {
    "python": PYTHON_PACKAGES,
    "dolfinx": DOLFINX_PACKAGES,
    "dealii": DEALII_PACKAGES,
    "openfoam": OPENFOAM_PACKAGES,
    "fea": FEA_PACKAGES,
    "genesis": GENESIS_PACKAGES,
}
MIN_PYTHON: dict[str, tuple[int, int]] = {"dolfinx": (3, 12), "fea": (3, 12)}
"""Environments whose wheels need a newer interpreter than the harness's (found by :mod:`.interpreters`)."""
APT_ENVIRONMENTS = frozenset({"dealii", "openfoam"})
"""Environments made of Debian packages (``ENVIRONMENTS`` lists the package names) rather than a virtualenv."""
SMOKE_TESTS: dict[str, str] = {
    "dolfinx": "from mpi4py import MPI; import dolfinx, gmsh, sympy",
    "fea": "from mpi4py import MPI; import dolfinx, gmsh, scipy, skfem, sympy; skfem.MeshTri().refined(1)",
    "genesis": "import av, torch, genesis; assert torch.__version__.startswith('2.13.0'), torch.__version__",
}
KERNEL_CACHE = "kernel-cache"
"""An environment's compiled-kernel cache (an ``XDG_CACHE_HOME``), warmed once here and copied into each run."""
CACHE_WARMUPS: dict[str, str] = {
    "genesis": (
        "import genesis as gs; gs.init(backend=gs.cpu, logging_level='warning'); "
        "s = gs.Scene(show_viewer=False); s.add_entity(gs.morphs.Plane()); "
        "s.add_entity(gs.morphs.Sphere(radius=0.1, pos=(0, 0, 1))); "
        "c = s.add_camera(res=(64, 32), pos=(2, 2, 1), lookat=(0, 0, 0.3), GUI=False); s.build(); "
        "[(s.step(), c.render()) for _ in range(3)]"
    ),
}
"""Code run once after provisioning with ``XDG_CACHE_HOME`` at ``<prefix>/KERNEL_CACHE``: Genesis compiles the
kernels of a rigid scene and its camera (minutes cold), which every run then finds in its copy of the cache."""


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


def compiled_form_cache(environment: str) -> Path:
    """The compiled-form cache (an ``XDG_CACHE_HOME``) that the harness's own, untimed runs in ``environment``
    share: oracle runs and reference solves, never a model's run. ``.envs/<environment>-oracle-cache``."""
    return envs_root() / f"{environment}-oracle-cache"


def _stamp(name: str, python: tuple[int, int] | None) -> str:
    return sha256_text(canonical_json({"name": name, "packages": ENVIRONMENTS[name], "python": python}))


def _ready(env: SolverEnvironment) -> bool:
    if env.name in APT_ENVIRONMENTS:
        return (env.prefix / ".simcodebench-stamp").is_file()
    return env.python.exists()


def get_environment(name: str) -> SolverEnvironment:
    """The provisioned environment ``name``; raise :class:`InfrastructureError` when it is not set up."""
    if name not in ENVIRONMENTS:
        raise InfrastructureError(f"solver environment '{name}' cannot be provisioned locally by this version")
    env = SolverEnvironment(name, envs_root() / name)
    if not _ready(env):
        raise InfrastructureError(
            f"solver environment '{name}' is not provisioned at {env.prefix}; run: simcodebench env setup {name}"
        )
    return env


def setup_environment(name: str, force: bool = False) -> SolverEnvironment:
    """Provision environment ``name``: create (or reuse, when its stamp matches) its virtualenv, or check and
    install its Debian packages."""
    if name not in ENVIRONMENTS:
        raise InfrastructureError(f"no local recipe for environment '{name}'; known: {sorted(ENVIRONMENTS)}")
    env = SolverEnvironment(name, envs_root() / name)
    if name in APT_ENVIRONMENTS:
        return _setup_apt(env)
    stamp_file = env.prefix / ".simcodebench-stamp"
    current = stamp_file.is_file() and env.python.exists()
    if not force and current and stamp_file.read_text() == _stamp(name, interpreter_version(str(env.python))):
        return env
    interpreter = find_python(MIN_PYTHON[name], f"environment '{name}'") if name in MIN_PYTHON else sys.executable
    subprocess.run([interpreter, "-m", "venv", "--clear", str(env.prefix)], check=True)
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
    if name in SMOKE_TESTS:
        subprocess.run([str(env.python), "-c", SMOKE_TESTS[name]], check=True, cwd=env.prefix)
    if name in CACHE_WARMUPS:
        cache_env = {**os.environ, "XDG_CACHE_HOME": str(env.prefix / KERNEL_CACHE)}
        subprocess.run([str(env.python), "-c", CACHE_WARMUPS[name]], check=True, cwd=env.prefix, env=cache_env)
    frozen = subprocess.run(
        [str(env.python), "-m", "pip", "freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    atomic_write_text(env.prefix / "requirements.lock", frozen)
    atomic_write_text(stamp_file, _stamp(name, interpreter_version(str(env.python))))
    return env


def _installed_versions(packages: tuple[str, ...]) -> dict[str, str | None]:
    """Debian package name -> installed version (None when absent)."""
    versions: dict[str, str | None] = {}
    for package in packages:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${db:Status-Abbrev}${Version}", package], capture_output=True, text=True
        )
        versions[package] = result.stdout[3:] if result.returncode == 0 and result.stdout.startswith("ii") else None
    return versions


def _setup_apt(env: SolverEnvironment) -> SolverEnvironment:
    """Check (and, as root, install) the Debian packages of ``env``; record their versions."""
    packages = ENVIRONMENTS[env.name]
    if shutil.which("dpkg-query") is None:
        raise InfrastructureError(
            f"environment '{env.name}' is made of Debian packages and this machine has no dpkg; "
            f"use the container (containers/{env.name}.def) or install: {' '.join(packages)}"
        )
    missing = [p for p, v in _installed_versions(packages).items() if v is None]
    if missing:
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise InfrastructureError(
                f"environment '{env.name}' lacks the Debian packages {missing}; run: "
                f"sudo apt-get install --no-install-recommends {' '.join(missing)}"
            )
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=apt_env)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=apt_env
        )
    versions = _installed_versions(packages)
    (env.prefix / "bin").mkdir(parents=True, exist_ok=True)  # what the sandbox puts on PATH (programs are in /usr)
    atomic_write_text(env.prefix / "versions.txt", "".join(f"{p}={v}\n" for p, v in versions.items()))
    atomic_write_text(env.prefix / ".simcodebench-stamp", _stamp(env.name, None))
    return env
