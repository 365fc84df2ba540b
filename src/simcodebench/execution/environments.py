"""Solver environments provisioned on this machine (``simcodebench env setup NAME``).

The recipes are :class:`~simcodebench.core.plugin.EnvironmentSpec`: ``python`` here, the others from the suite
plugins that run in them. Virtualenv environments install pinned PyPI packages into ``.envs/<name>`` with the
harness's interpreter, or with a discovered newer one where the wheels need it (``min_python``); what pip resolved
is frozen into ``.envs/<name>/requirements.lock``. Debian environments (kind ``apt``) are system packages: they are
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
from simcodebench.core.plugin import EnvironmentSpec
from simcodebench.core.project import project_root
from simcodebench.core.registry import plugins
from simcodebench.execution.interpreters import find_python, interpreter_version

PYTHON = EnvironmentSpec(
    "python", ("numpy==2.4.6", "scipy==1.17.1", "matplotlib==3.11.2", "pandas==2.3.3", "scikit-learn==1.9.1")
)
"""The environment plain Python programs run in (Re^4's and CFDCodeBench's programmers' stack; suites bring the
others). pandas and scikit-learn are there because Re^4's released keyhole programs (all of them, from three
models) read the data set with pandas and fit the exponents with scikit-learn. pandas stays on the 2.x line those
programs were written for (2025): pandas 3 removed ``read_csv(delim_whitespace=...)``, which one of them uses."""

KERNEL_CACHE = "kernel-cache"
"""An environment's compiled-kernel cache (an ``XDG_CACHE_HOME``), warmed once (``EnvironmentSpec.warmup``) and
copied into each run."""


def environment_specs() -> dict[str, EnvironmentSpec]:
    """Every environment this installation can provision: ``python`` and those the suite plugins bring."""
    specs = {PYTHON.name: PYTHON}
    for plugin in plugins().values():
        for spec in plugin.environments():
            if specs.get(spec.name, spec) != spec:
                raise InfrastructureError(f"suite plugin '{plugin.name}' redefines environment '{spec.name}'")
            specs[spec.name] = spec
    return specs


def environment_spec(name: str) -> EnvironmentSpec:
    """The recipe of environment ``name``; raise :class:`InfrastructureError` when no suite brings it."""
    specs = environment_specs()
    if name not in specs:
        raise InfrastructureError(f"no local recipe for environment '{name}'; known: {sorted(specs)}")
    return specs[name]


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


def _stamp(spec: EnvironmentSpec, python: tuple[int, int] | None) -> str:
    return sha256_text(canonical_json({"name": spec.name, "packages": spec.packages, "python": python}))


def _ready(env: SolverEnvironment) -> bool:
    if environment_spec(env.name).kind == "apt":
        return (env.prefix / ".simcodebench-stamp").is_file()
    return env.python.exists()


def get_environment(name: str) -> SolverEnvironment:
    """The provisioned environment ``name``; raise :class:`InfrastructureError` when it is not set up."""
    if name not in environment_specs():
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
    spec = environment_spec(name)
    env = SolverEnvironment(name, envs_root() / name)
    if spec.kind == "apt":
        return _setup_apt(env, spec)
    stamp_file = env.prefix / ".simcodebench-stamp"
    current = stamp_file.is_file() and env.python.exists()
    if not force and current and stamp_file.read_text() == _stamp(spec, interpreter_version(str(env.python))):
        return env
    interpreter = find_python(spec.min_python, f"environment '{name}'") if spec.min_python else sys.executable
    subprocess.run([interpreter, "-m", "venv", "--clear", str(env.prefix)], check=True)
    subprocess.run(
        [
            str(env.python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *spec.packages,
        ],
        check=True,
    )
    if name == "python":  # build matplotlib's font cache once, so no run pays for it
        subprocess.run(
            [str(env.python), "-c", "import matplotlib.pyplot"],
            check=True,
            env={**os.environ, "MPLCONFIGDIR": str(env.prefix / "mplconfig"), "MPLBACKEND": "Agg"},
        )
    if spec.smoke_test:
        subprocess.run([str(env.python), "-c", spec.smoke_test], check=True, cwd=env.prefix)
    if spec.warmup:
        cache_env = {**os.environ, "XDG_CACHE_HOME": str(env.prefix / KERNEL_CACHE)}
        subprocess.run([str(env.python), "-c", spec.warmup], check=True, cwd=env.prefix, env=cache_env)
    frozen = subprocess.run(
        [str(env.python), "-m", "pip", "freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    atomic_write_text(env.prefix / "requirements.lock", frozen)
    atomic_write_text(stamp_file, _stamp(spec, interpreter_version(str(env.python))))
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


def _setup_apt(env: SolverEnvironment, spec: EnvironmentSpec) -> SolverEnvironment:
    """Check (and, as root, install) the Debian packages of ``env``; record their versions."""
    packages = spec.packages
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
    atomic_write_text(env.prefix / ".simcodebench-stamp", _stamp(spec, None))
    return env
