"""The genesis environment's three recipes (local, conda, Apptainer) pin the same packages, the image can use a
GPU, and Genesis imports where X11's libraries are missing (a GPU node's image) because the runner goes headless."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import yaml
from missing import require_or_skip
from pipeline import REPO

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.environments import environment_specs, setup_environment
from simcodebench.suites.physics import runner
from simcodebench.suites.physics.plugin import GENESIS

MISSING_LIBRARY = "libXrender.so.1"
"""The X11 library the GPU node's image lacked (pyglet loads it for its windows; an empty file found first makes
it unloadable). libX11 itself is a link-time dependency of pygel3d, which Genesis imports, so it must exist."""


def test_genesis_conda_file_follows_the_local_recipe_and_the_image_is_cuda():
    conda = yaml.safe_load((REPO / "workflow" / "envs" / "genesis.yaml").read_text())["dependencies"]
    pins = next(d["pip"] for d in conda if isinstance(d, dict))
    assert pins == list(GENESIS.packages) == list(environment_specs()["genesis"].packages)
    assert pins[0].startswith("torch==")  # torch first, so that the CPU (or CUDA) build is the one kept
    definition = (REPO / "containers" / "genesis.def").read_text()
    assert "torch==2.13.0" in definition and "--index-url" not in definition  # PyPI's Linux torch: the CUDA build
    assert re.search(r"^\s*export .*PYGLET_HEADLESS=true", definition, re.MULTILINE)
    assert all(package in definition for package in ("libegl1", "libgl1", "libopengl0", "libgl1-mesa-dri"))
    docker = (REPO / "containers" / "docker" / "genesis.def").read_text()
    assert re.search(r"^From:\s*nvidia/cuda:\S+", docker, re.MULTILINE)


def _import_genesis(tmp_path: Path, prelude: str) -> subprocess.CompletedProcess:
    """``import genesis`` in the genesis environment with libXrender unloadable and no display."""
    try:
        env = setup_environment("genesis")
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as exc:
        require_or_skip("genesis", f"the genesis environment cannot be provisioned: {exc}")
    broken = tmp_path / "no-x11"
    broken.mkdir(exist_ok=True)
    (broken / MISSING_LIBRARY).write_bytes(b"")
    variables = {
        "PATH": f"{env.bin_dir}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LD_LIBRARY_PATH": str(broken),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    script = prelude + "import genesis\nprint('imported genesis', genesis.__version__)\n"
    return subprocess.run([str(env.python), "-c", script], capture_output=True, text=True, env=variables, timeout=600)


def test_genesis_imports_without_x11_once_the_runner_goes_headless(tmp_path):
    load_runner = (
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('runner', {str(Path(runner.__file__))!r})\n"
        "runner = importlib.util.module_from_spec(spec); spec.loader.exec_module(runner)\n"
        "runner.go_headless()\n"
    )
    headless = _import_genesis(tmp_path, load_runner)
    assert headless.returncode == 0 and "imported genesis" in headless.stdout, headless.stderr[-3000:]
    without = _import_genesis(tmp_path, "")  # the failure the runner prevents (seen on a GPU node's image)
    assert without.returncode != 0 and "imported genesis" not in without.stdout
    output = without.stdout + without.stderr  # Genesis reports the import's failure on stdout
    assert "XRenderFindVisualFormat" in output, output[-3000:]  # pyglet's X11 path, as seen on the GPU node
    assert os.environ.get("PYGLET_HEADLESS") is None  # nothing of this test leaked into the harness
