"""What a runtime is asked to run and what it reports (``run.json``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

RunStatus = Literal["ok", "error", "timeout", "killed", "infra"]

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "BLIS_NUM_THREADS",
)


@dataclass(frozen=True)
class RunRequest:
    """One execution: the command, its working directory and the limits it runs under."""

    command: list[str]
    run_dir: Path
    wall_s: float
    mem_mb: int
    cpus: int = 1
    gpus: int = 0
    path_prefix: tuple[Path, ...] = ()
    extra_env: dict[str, str] = field(default_factory=dict)
    output_cap_bytes: int = 10 * 1024 * 1024
    outer_launcher: tuple[str, ...] = ()
    """An MPI launcher a runtime puts outside its container (Apptainer: ``mpiexec -n N apptainer exec ...``)."""


@dataclass
class RunResult:
    """The record of one execution, saved as ``run.json``."""

    status: RunStatus
    rc: int | None
    wall_s: float
    peak_rss_mb: float | None
    runtime: str
    message: str = ""
    signal: str | None = None
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    output_truncated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return asdict(self)


def sandbox_environment(request: RunRequest) -> dict[str, str]:
    """The child's whole environment, built from nothing: no variable of the parent (so no secret) leaks in."""
    home = str(request.run_dir)
    path = ":".join([*(str(p) for p in request.path_prefix), "/usr/local/bin", "/usr/bin", "/bin"])
    env = {
        "PATH": path,
        "HOME": home,
        "TMPDIR": str(request.run_dir / ".tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "XDG_CACHE_HOME": str(request.run_dir / ".cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    env.update({name: str(request.cpus) for name in THREAD_VARIABLES})
    env.update(request.extra_env)
    return env
