"""MPI launch: a case asking for N ranks (``resources.tasks``) runs as ``<launcher> -n N <command>``.

Outside a SLURM allocation the launcher is always the solver environment's own ``mpiexec`` (its bin
directory first, then PATH), so the ranks use the MPI the environment's libraries were built against.
Inside one (``SLURM_JOB_ID`` set) it is the ``mpi`` resource of the job (config key ``mpi``): ``mpiexec``
(resolved as above; MPICH and Open MPI detect the allocation) or ``srun`` (or ``srun --mpi=pmix`` and the
like), with the allocation's ``SLURM_*`` variables passed to the launcher so it places ranks inside it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from simcodebench.core.errors import InfrastructureError

DEFAULT_LAUNCHER = "mpiexec"


def in_slurm_allocation() -> bool:
    """Whether this process runs inside a SLURM job."""
    return "SLURM_JOB_ID" in os.environ


def find_mpiexec(bin_dir: Path) -> str:
    """``bin_dir/mpiexec`` when the environment has one, else ``mpiexec`` on PATH."""
    own = bin_dir / "mpiexec"
    if own.exists():
        return str(own)
    found = shutil.which("mpiexec")
    if found is None:
        raise InfrastructureError(
            f"the case asks for several MPI ranks but there is no mpiexec in {bin_dir} or on PATH; "
            "install an MPI into the solver environment"
        )
    return found


def launcher(tasks: int, bin_dir: Path, mpi: str | None = None) -> list[str]:
    """The argv prefix that starts ``tasks`` ranks (empty for one task)."""
    if tasks <= 1:
        return []
    words = shlex.split(mpi or DEFAULT_LAUNCHER) if in_slurm_allocation() else [DEFAULT_LAUNCHER]
    if words[0] == DEFAULT_LAUNCHER:
        words[0] = find_mpiexec(bin_dir)
    else:  # srun and the like: the cluster's own, from this process's PATH (the child's PATH is minimal)
        words[0] = shutil.which(words[0]) or words[0]
    return [*words, "-n", str(tasks)]


def host_launcher(tasks: int, mpi: str | None = None) -> list[str]:
    """The launcher that starts ``tasks`` ranks of a container from the host (empty for one task): the job's
    ``mpi`` resource inside a SLURM allocation (e.g. ``srun --mpi=pmi2``), else ``mpiexec`` on the host's PATH."""
    if tasks <= 1:
        return []
    words = shlex.split(mpi or DEFAULT_LAUNCHER) if in_slurm_allocation() else [DEFAULT_LAUNCHER]
    words[0] = shutil.which(words[0]) or words[0]
    return [*words, "-n", str(tasks)]


def launcher_environment(tasks: int) -> dict[str, str]:
    """Variables the launcher needs from the parent: the allocation's ``SLURM_*`` (never a secret)."""
    if tasks <= 1 or not in_slurm_allocation():
        return {}
    return {name: value for name, value in os.environ.items() if name.startswith("SLURM_")}
