"""The genesis environment's three recipes (local, conda, Apptainer) pin the same packages."""

from __future__ import annotations

import re

import yaml
from pipeline import REPO

from simcodebench.execution.environments import environment_specs
from simcodebench.suites.physics.plugin import GENESIS


def test_genesis_conda_file_follows_the_local_recipe_and_the_image_is_cuda():
    conda = yaml.safe_load((REPO / "workflow" / "envs" / "genesis.yaml").read_text())["dependencies"]
    pins = next(d["pip"] for d in conda if isinstance(d, dict))
    assert pins == list(GENESIS.packages) == list(environment_specs()["genesis"].packages)
    assert pins[0].startswith("torch==")  # torch first, so that the CPU (or CUDA) build is the one kept
    definition = (REPO / "containers" / "genesis.def").read_text()
    assert re.search(r"^From:\s*nvidia/cuda:\S+", definition, re.MULTILINE)
    assert all(package in definition for package in ("libegl1", "libgl1", "libopengl0", "libgl1-mesa-dri"))
