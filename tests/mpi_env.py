"""A small MPI environment for the MPI tests: a virtualenv with MPICH and mpi4py wheels from PyPI.

It stands in for a solver environment that brings its own MPI (``bin/mpiexec`` beside ``bin/python``), like
the ``dolfinx`` one, at a fraction of the size. ``make test`` provisions it (``tests/provision.py``); the
tests only check :func:`missing` and fail with its reason (skip where ``SIMCODEBENCH_ALLOW_MISSING`` lists mpi).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from simcodebench.execution.environments import SolverEnvironment, envs_root

PACKAGES = ("mpi4py==4.1.2", "mpich==5.0.2")
NAME = "mpi-test"


def environment() -> SolverEnvironment:
    """Where the environment lives (``<envs root>/mpi-test``), provisioned or not."""
    return SolverEnvironment(NAME, envs_root() / NAME)


def missing() -> str | None:
    """None when the environment works (``mpi4py`` imports, ``mpiexec`` exists), else why not."""
    env = environment()
    if not (env.bin_dir / "mpiexec").exists():
        return f"no MPI test environment at {env.prefix}; run 'make test' (or python tests/provision.py)"
    check = subprocess.run([str(env.python), "-c", "import mpi4py"], capture_output=True, text=True)
    return None if check.returncode == 0 else f"mpi4py does not import in {env.prefix}: {check.stderr[-300:]}"


def provision() -> str | None:
    """Create the environment when it does not work yet; None when ready, else why not."""
    if missing() is None:
        return None
    env = environment()
    steps = (
        [sys.executable, "-m", "venv", "--clear", str(env.prefix)],
        [str(env.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES],
    )
    for command in steps:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            return f"'{' '.join(command)}' failed: {done.stderr.strip()[-500:]}"
    return missing()


def write_program(path: Path) -> Path:
    """An mpi4py program at ``path``: every rank writes ``rank<r>.txt`` holding its rank, the world size and
    the sum of ``rank + 1`` over the world (a collective, so the ranks really talk)."""
    path.write_text(
        "from mpi4py import MPI\n"
        "comm = MPI.COMM_WORLD\n"
        "total = comm.allreduce(comm.rank + 1)\n"
        "open(f'rank{comm.rank}.txt', 'w').write(f'{comm.rank} {comm.size} {total}')\n"
    )
    return path
