"""Sandbox start-up cost per run: the same scripts in the ``local``, ``bwrap`` and ``apptainer`` runtimes.

Each script runs REPEATS times in each runtime, alternating: ``local`` and ``bwrap`` in the provisioned
``python`` environment; ``apptainer`` in the image ``IMAGES/python.sif`` (``make images``) as root, and as the
user ``nobody`` in a sandbox folder converted from it (what a user without FUSE runs); the apptainer columns
only where apptainer and the image exist. Reported: the median wall time per run as the runtime records it
(``run.json``'s ``wall_s``) and each runtime's extra cost over ``local``.

Usage: python benchmarks/sandbox_startup.py [REPEATS] [IMAGES]
"""

from __future__ import annotations

import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from _common import machine

from simcodebench.execution.environments import get_environment
from simcodebench.execution.runtime import RunRequest, run
from simcodebench.execution.runtime.bwrap import bwrap_available

SCRIPTS = {"empty script": "", "import numpy, scipy": "import numpy, scipy.linalg\n"}


def _runtimes(images: Path | None) -> dict[str, tuple[str, str | None, tuple[str, ...]]]:
    """Column -> (runtime, image, outer launcher)."""
    columns: dict[str, tuple[str, str | None, tuple[str, ...]]] = {"local": ("local", None, ())}
    if bwrap_available():
        columns["bwrap"] = ("bwrap", None, ())
    sif = images / "python.sif" if images else None
    if sif is not None and sif.is_file() and shutil.which("apptainer"):
        columns["apptainer (root, .sif)"] = ("apptainer", str(sif), ())
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            become = ("setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups")
            columns["apptainer (nobody, sandbox folder)"] = ("apptainer", str(_as_nobody_sandbox(sif, become)), become)
    return columns


def _as_nobody_sandbox(sif: Path, become: tuple[str, ...]) -> Path:
    """The sandbox folder ``nobody`` converts ``sif`` into (as a user without FUSE does, once)."""
    folder = Path(tempfile.mkdtemp(prefix="simcodebench-startup-"))
    folder.chmod(0o777)
    shutil.copy2(sif, folder / "python.sif")
    (folder / "python.sif").chmod(0o644)
    target = folder / "python.sandbox"
    command = [*become, "apptainer", "build", "--sandbox", str(target), str(folder / "python.sif")]
    subprocess.run(command, check=True, capture_output=True, env={"PATH": os.environ["PATH"], "HOME": str(folder)})
    return target


def main(repeats: int = 20, images: str | None = None) -> None:
    env = get_environment("python")
    columns = _runtimes(Path(images) if images else None)
    print(f"machine: {machine()}")
    print("| script | " + " | ".join(f"{name} (s)" for name in columns) + " |")
    print("|---|" + "---|" * len(columns))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o755)
        for label, code in SCRIPTS.items():
            walls: dict[str, list[float]] = {name: [] for name in columns}
            for index in range(repeats):
                for number, (name, (runtime, image, outer)) in enumerate(columns.items()):
                    run_dir = Path(tmp) / f"{number}-{index}-{len(code)}"
                    run_dir.mkdir()
                    (run_dir / "main.py").write_text(code)
                    if outer:
                        nobody = pwd.getpwnam("nobody")
                        for path in (run_dir, run_dir / "main.py"):
                            os.chown(path, nobody.pw_uid, nobody.pw_gid)
                    request = RunRequest(
                        command=[str(env.python), "main.py"] if runtime != "apptainer" else ["python", "main.py"],
                        run_dir=run_dir,
                        wall_s=60.0,
                        mem_mb=2048,
                        path_prefix=(env.bin_dir,) if runtime != "apptainer" else (),
                    )
                    result = run(replace(request, outer_launcher=outer), runtime, image)
                    assert result.status == "ok", (name, result.message, (run_dir / "stderr.txt").read_text())
                    walls[name].append(result.wall_s)
            medians = [statistics.median(walls[name]) for name in columns]
            cells = [f"{m:.3f}" + ("" if i == 0 else f" ({m - medians[0]:+.3f})") for i, m in enumerate(medians)]
            print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(*(int(a) if i == 0 else a for i, a in enumerate(sys.argv[1:])))
