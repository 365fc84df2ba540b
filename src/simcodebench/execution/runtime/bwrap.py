"""The ``bwrap`` runtime: each run inside a bubblewrap sandbox.

The sandbox has its own user, PID, network, IPC, UTS and cgroup namespaces (the network holds only ``lo``, so
neither the outside nor the host's loopback services are reachable), no capabilities, a private /proc, /dev and
/tmp, the system directories and a minimal /etc read-only, the solver environment read-only together with the
installation its interpreter links to, and the run directory as the only writable path. Nothing else of the
host exists inside: not the repository, the references, the calibrations, other runs or the host's $HOME.
The program is the first process of its PID namespace (``--as-pid-1``, so bubblewrap reaps it and its peak
memory reaches ``wait4``): when it exits, or bubblewrap or its parent is killed, the namespace goes and
everything in it dies, daemons that called setsid included; signals from inside cannot kill it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import replace
from functools import cache
from pathlib import Path

from simcodebench.core.errors import InfrastructureError
from simcodebench.core.project import project_root
from simcodebench.execution.runtime.base import RunRequest, RunResult
from simcodebench.execution.runtime.local import execute as execute_local
from simcodebench.execution.runtime.local import limited_command

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Bound read-only (or recreated as the same symlink, on merged-/usr systems) where present."""

ETC_ENTRIES = (
    "alternatives",
    "fonts",
    "group",
    "hosts",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "openfoam",
    "openmpi",
    "passwd",
)
"""The part of /etc that programs need (dynamic linking, user and host lookup, MPI and OpenFOAM settings)."""

SYS_ENTRIES = ("/sys/devices/system/cpu", "/sys/devices/system/node")
"""CPU topology, read by hwloc (MPI, PETSc) and BLAS libraries."""

MAX_TASKS = 1024
"""RLIMIT_NPROC inside the sandbox: processes and threads together (the kernel does not apply it to uid 0)."""


def bwrap_executable() -> str | None:
    """``bwrap`` on PATH, or None."""
    return shutil.which("bwrap")


@cache
def bwrap_available() -> bool:
    """Whether bubblewrap works here: it may be installed yet refused namespaces (some containers). Tried once."""
    executable = bwrap_executable()
    if executable is None:
        return False
    probe = [executable, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"]
    probe += ["--proc", "/proc", "--dev", "/dev", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _prefix(directory: Path) -> Path:
    """The installation prefix that holds ``directory``: the parent of a ``bin`` directory, else itself."""
    return directory.parent if directory.name == "bin" else directory


def _venv_home(prefix: Path) -> Path | None:
    """The base interpreter's directory named by a virtualenv's ``pyvenv.cfg`` (``home = ...``)."""
    config = prefix / "pyvenv.cfg"
    if not config.is_file():
        return None
    for line in config.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            return Path(value.strip()).resolve()
    return None


def _linked_prefixes(prefix: Path) -> list[Path]:
    """Installations ``prefix`` links to: a venv's base interpreter, the targets of its ``bin`` symlinks."""
    linked = []
    home = _venv_home(prefix)
    if home is not None:
        linked.append(_prefix(home))
    bin_dir = prefix / "bin"
    if bin_dir.is_dir():
        real_prefix = prefix.resolve()
        for entry in bin_dir.iterdir():
            if entry.is_symlink():
                target = entry.resolve()
                if not target.is_relative_to(real_prefix):
                    linked.append(_prefix(target.parent))
    return linked


def _is_system(path: Path) -> bool:
    return any(path.is_relative_to(d) or path.resolve().is_relative_to(d) for d in SYSTEM_DIRS)


def environment_paths(request: RunRequest) -> list[Path]:
    """The solver-environment paths the sandbox binds read-only: each prefix on the request's PATH and of its
    executable, and the installations they link to (a virtualenv's base interpreter, say under pyenv)."""
    prefixes = [_prefix(Path(d)) for d in request.path_prefix]
    executable = Path(request.command[0])
    if executable.is_absolute():
        prefixes.append(_prefix(executable.parent))
    candidates = [*prefixes, *(p for prefix in prefixes for p in _linked_prefixes(prefix))]
    outermost: list[Path] = []
    for path in sorted({p for p in candidates if p.exists() and not _is_system(p)}, key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(kept) for kept in outermost):
            outermost.append(path)
    guarded = (request.run_dir.resolve(), project_root().resolve(), Path.home().resolve())
    for path in outermost:
        if any(g.is_relative_to(path.resolve()) for g in guarded):
            raise InfrastructureError(
                f"bwrap: binding environment path {path} would expose the run's surroundings, the repository or $HOME"
            )
    return outermost


def _host_paths(entries: tuple[str, ...]) -> list[str]:
    return [entry for entry in entries if os.path.exists(entry)]


def bwrap_command(request: RunRequest, executable: str = "bwrap") -> list[str]:
    """The bubblewrap command line that runs ``request`` (its run directory must be absolute)."""
    run_dir = str(request.run_dir)
    argv = [executable, "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for name in SYSTEM_DIRS:
        if os.path.islink(name):
            argv += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            argv += ["--ro-bind", name, name]
    read_only = [*_host_paths(tuple(f"/etc/{e}" for e in ETC_ENTRIES)), *_host_paths(SYS_ENTRIES)]
    read_only += [str(p) for p in environment_paths(request)]
    for path in read_only:
        argv += ["--ro-bind", path, path]
    argv += ["--dir", "/sys/class/net"]  # no host interface inside: an empty list, as MPI transports expect
    argv += ["--bind", run_dir, run_dir, "--remount-ro", "/", "--chdir", run_dir, "--"]
    return argv + limited_command(request, nproc=MAX_TASKS)


def execute(request: RunRequest) -> RunResult:
    """Run ``request`` in a bubblewrap sandbox, with the limits and records of the local runtime."""
    executable = bwrap_executable()
    if executable is None:
        raise InfrastructureError("bwrap: bubblewrap is not installed (apt-get install bubblewrap)")
    request = replace(request, run_dir=request.run_dir.resolve())
    result = execute_local(request, runtime="bwrap", command=bwrap_command(request, executable))
    return _signal_status(result)


def _signal_status(result: RunResult) -> RunResult:
    """bubblewrap reports a program killed by signal N as exit status 128 + N: record it as killed."""
    if result.status != "error" or result.rc is None or result.rc <= 128:
        return result
    try:
        name = signal.Signals(result.rc - 128).name
    except ValueError:
        return result
    result.status, result.signal = "killed", name
    result.message = f"killed by {name} (exit status {result.rc} through bwrap)"
    return result
