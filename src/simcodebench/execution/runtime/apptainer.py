"""The ``apptainer`` runtime: each run in the solver environment's image (:mod:`simcodebench.execution.images`).

``apptainer exec --containall --cleanenv --net --network none``: no host file system but the run directory
(bound at /work, the working directory), no host environment variable, no network but loopback, private PID
and IPC namespaces; ``--nv`` only for GPU runs. The command inside is the request's, run by the image's own
interpreter (``python`` on the image's PATH), under ``prlimit`` like every runtime, with the caches of JIT
compilers (FFCx, PyOP2/TSFC, Numba, Triton, Inductor, Matplotlib) inside /work.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.images import runnable_image
from simcodebench.execution.runtime.base import RunRequest, RunResult, sandbox_environment
from simcodebench.execution.runtime.local import execute as execute_local
from simcodebench.execution.runtime.local import limited_command

MAX_TASKS = 1024
"""RLIMIT_NPROC inside the container, as bubblewrap's (the kernel does not apply it to uid 0)."""

WORK = Path("/work")
"""Where the run directory appears inside the container."""

JIT_CACHES = {
    "XDG_CACHE_HOME": ".cache",  # FFCx / DOLFINx (fenics), fontconfig, pip
    "MPLCONFIGDIR": ".cache/matplotlib",
    "NUMBA_CACHE_DIR": ".cache/numba",
    "PYOP2_CACHE_DIR": ".cache/pyop2",
    "FIREDRAKE_TSFC_KERNEL_CACHE_DIR": ".cache/tsfc",
    "TRITON_CACHE_DIR": ".cache/triton",
    "TORCHINDUCTOR_CACHE_DIR": ".cache/torchinductor",
}
"""Cache directories of just-in-time compilers, relative to the run directory."""

CONTAINER_ONLY = ("PATH", "HOME")
"""Left to the image (its PATH reaches its interpreter) and to Apptainer (its contained home)."""


def apptainer_available() -> bool:
    """Whether ``apptainer`` is on PATH."""
    return shutil.which("apptainer") is not None


def container_environment(request: RunRequest, gpu: bool = False) -> dict[str, str]:
    """The variables set inside the container: the sandbox environment seen from /work, the JIT caches and,
    for a GPU run, the devices the host (SLURM) assigned."""
    inside = sandbox_environment(replace(request, run_dir=WORK, path_prefix=()))
    inside.update({name: str(WORK / sub) for name, sub in JIT_CACHES.items()})
    if gpu and "CUDA_VISIBLE_DEVICES" in os.environ:
        inside["CUDA_VISIBLE_DEVICES"] = os.environ["CUDA_VISIBLE_DEVICES"]
    return {name: value for name, value in inside.items() if name not in CONTAINER_ONLY}


def apptainer_command(
    request: RunRequest, image: str, gpu: bool, extra_binds: Sequence[str] = (), executable: str = "apptainer"
) -> list[str]:
    """The ``apptainer exec`` command line that runs ``request.command`` inside ``image``.

    ``extra_binds`` are further ``--bind`` specifications (``src[:dest[:opts]]``), e.g. a read-only data set.
    An MPI run is started by the host's launcher outside the image (``request.outer_launcher``, e.g.
    ``srun -n 4 apptainer exec ...``), so that ranks can span nodes; the image brings a compatible MPI.
    """
    argv = [executable, "exec", "--containall", "--cleanenv", "--net", "--network", "none"]
    argv += ["--bind", f"{request.run_dir.resolve()}:{WORK}", "--pwd", str(WORK)]
    for bind in extra_binds:
        argv += ["--bind", bind]
    if gpu:
        argv.append("--nv")
    for name, value in sorted(container_environment(request, gpu).items()):
        argv += ["--env", f"{name}={value}"]
    return [*request.outer_launcher, *argv, image, *limited_command(request, nproc=MAX_TASKS)]


def host_environment() -> dict[str, str]:
    """What the ``apptainer`` process itself needs from the host: its image cache (never passed inside)."""
    cache = os.environ.get("APPTAINER_CACHEDIR") or str(Path.home() / ".apptainer" / "cache")
    return {"APPTAINER_CACHEDIR": cache}


def execute(request: RunRequest, image: str) -> RunResult:
    """Run ``request`` in ``image`` with the limits and records of the local runtime."""
    executable = shutil.which("apptainer")
    if executable is None:
        raise InfrastructureError("apptainer: not on PATH (module load apptainer, or use runtime: auto)")
    runnable = runnable_image(image)  # a sandbox folder where this user cannot mount the .sif
    command = apptainer_command(request, runnable, gpu=request.gpus > 0, executable=executable)
    outer = replace(request, extra_env={**request.extra_env, **host_environment()})
    return execute_local(outer, runtime="apptainer", command=command)
