"""Find a Python interpreter of at least a given version on this machine (for environments such as ``dolfinx``
whose wheels need a newer Python than the harness runs on).

Candidates, in order: the variable ``SIMCODEBENCH_PYTHON312`` (a path or a command), the running interpreter,
``python3.12`` .. ``python3.14`` and ``python3`` on PATH, then every pyenv and uv installation, oldest version
first (the oldest that qualifies is the one the conda and container recipes pin). Each candidate is run once to
read its version, so a pyenv shim that is not activated is skipped instead of trusted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from simcodebench.core.errors import InfrastructureError

OVERRIDE_VARIABLE = "SIMCODEBENCH_PYTHON312"
NEWEST_MINOR = 14


def interpreter_version(command: str) -> tuple[int, int] | None:
    """``(major, minor)`` of the interpreter ``command``, or None when it does not run."""
    try:
        out = subprocess.run(
            [command, "-c", "import sys; print(*sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.split()
        return int(out[0]), int(out[1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def _installation_dirs() -> list[Path]:
    """``bin`` folders of pyenv and uv installations, oldest version names first."""
    roots = [
        Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions",
        Path(os.environ.get("UV_PYTHON_INSTALL_DIR", Path.home() / ".local" / "share" / "uv" / "python")),
    ]
    found = [p / "bin" for root in roots if root.is_dir() for p in root.iterdir() if (p / "bin").is_dir()]
    return sorted(found, key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.name)[:3]])


def candidates(minimum: tuple[int, int]) -> list[str]:
    """Interpreter commands worth trying, in order of preference (duplicates removed)."""
    names = [f"python3.{minor}" for minor in range(minimum[1], NEWEST_MINOR + 1)] + ["python3"]
    found: list[str] = []
    if os.environ.get(OVERRIDE_VARIABLE):
        found.append(os.environ[OVERRIDE_VARIABLE])
    found.append(sys.executable)
    found += [path for name in names if (path := shutil.which(name))]
    found += [str(d / name) for d in _installation_dirs() for name in names if (d / name).is_file()]
    return list(dict.fromkeys(found))


def find_python(minimum: tuple[int, int], purpose: str) -> str:
    """The first candidate of at least ``minimum``; raise :class:`InfrastructureError` naming the fix otherwise."""
    override = os.environ.get(OVERRIDE_VARIABLE)
    for command in candidates(minimum):
        version = interpreter_version(command)
        if version is not None and version >= minimum:
            return command
        if command == override:
            raise InfrastructureError(
                f"{OVERRIDE_VARIABLE}={override} is not a Python >= {minimum[0]}.{minimum[1]} "
                f"(it reports {version or 'nothing'}); point it at one"
            )
    wanted = f"{minimum[0]}.{minimum[1]}"
    raise InfrastructureError(
        f"{purpose} needs Python >= {wanted}, and none was found (tried PATH python3.x, pyenv and uv "
        f"installations); install one (e.g. 'pyenv install {wanted}', 'uv python install {wanted}' or the "
        f"python{wanted} package) or set {OVERRIDE_VARIABLE}=/path/to/python{wanted}"
    )
