"""A solver environment exists three ways (local provisioning, conda, Apptainer image): the versions agree, in the
registry-free image definitions (``containers/<env>.def``) and in their Docker-based alternatives
(``containers/docker/<env>.def``) alike."""

from __future__ import annotations

import re

import pytest
import yaml
from pipeline import REPO

from simcodebench.execution.environments import environment_specs
from simcodebench.execution.images import HASH_LABEL, environment_hash

SPECS = environment_specs()

CONFIG_SCHEMA = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
IMAGE_ENVIRONMENTS = CONFIG_SCHEMA["properties"]["images"]["propertyNames"]["enum"]


DEBIAN_PYTHON = {"bookworm": (3, 11), "trixie": (3, 13)}
"""The Python of each Debian release the definitions bootstrap."""


def _definition(name: str) -> str:
    return (REPO / "containers" / f"{name}.def").read_text()


def _docker_definition(name: str) -> str:
    return (REPO / "containers" / "docker" / f"{name}.def").read_text()


def _debian_python(definition: str) -> tuple[int, int]:
    return DEBIAN_PYTHON[re.search(r"^OSVersion:\s*(\S+)", definition, re.MULTILINE).group(1)]


def _base_image(definition: str) -> str:
    return re.search(r"^From:\s*(\S+)", definition, re.MULTILINE).group(1)


def _pip_pins(definition: str) -> dict[str, str]:
    return dict(re.findall(r"\b([A-Za-z0-9_.-]+)==([0-9][^\s\\]*)", definition))


def test_python_pins_agree_across_envs_conda_and_image():
    local = dict(p.split("==") for p in SPECS["python"].packages)
    conda = yaml.safe_load((REPO / "workflow" / "envs" / "python.yaml").read_text())["dependencies"]
    conda_pins = dict(d.split("=") for d in conda)
    assert _pip_pins(_definition("python")) == local == _pip_pins(_docker_definition("python"))
    assert {k: v for k, v in conda_pins.items() if k != "python"} == local
    assert ".".join(map(str, _debian_python(_definition("python")))) == conda_pins["python"]
    image_python = re.match(r"python:(\d+\.\d+)\.", _base_image(_docker_definition("python"))).group(1)
    assert image_python == conda_pins["python"]


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("kind", ["debootstrap", "docker"])
def test_each_local_recipe_matches_its_image(name, kind):
    definition = _definition(name) if kind == "debootstrap" else _docker_definition(name)
    packages = SPECS[name].packages
    if SPECS[name].kind == "apt":  # Debian packages: the image installs every one of them
        installed = " ".join(re.findall(r"apt-get install[^\n]*(?:\\\n[^\n]*)*", definition))
        assert all(re.search(rf"(^|\s){re.escape(p)}(=|\s|$)", installed) for p in packages), packages
    else:
        assert _pip_pins(definition) == dict(p.split("==") for p in packages)
        minimum = SPECS[name].min_python
        if minimum and kind == "debootstrap":
            assert _debian_python(definition) >= minimum
        elif minimum:
            image_python = re.match(r"python:(\d+)\.(\d+)\.", _base_image(definition)).groups()
            assert tuple(map(int, image_python)) >= minimum


@pytest.mark.parametrize("name", IMAGE_ENVIRONMENTS)
def test_every_environment_has_an_image_built_without_a_registry(name):
    """Each environment a suite brings has a debootstrap definition with a %test and its version-hash label (so a
    changed pin with an unchanged definition fails here); the others (firedrake, openfoam10) need a registry."""
    if name not in SPECS:
        definition = _docker_definition(name)
        assert re.search(r"^Bootstrap:\s*docker$", definition, re.MULTILINE)
        base = _base_image(definition)
        assert ":" in base and not base.endswith((":latest", ":stable")), base
        assert f"org.simcodebench.environment {name}" in definition
        return
    definition = _definition(name)
    assert re.search(r"^Bootstrap:\s*debootstrap$", definition, re.MULTILINE)
    assert re.search(r"^MirrorURL:\s*\{\{ mirror \}\}$", definition, re.MULTILINE)
    assert _debian_python(definition)  # a named release, not a moving suite such as stable
    assert "%test" in definition and f"org.simcodebench.environment {name}\n" in definition
    assert f"{HASH_LABEL} {environment_hash(SPECS[name])}\n" in definition
    assert f"org.simcodebench.environment {name}" in _docker_definition(name)


def test_dolfinx_and_dealii_conda_files_follow_the_local_recipes():
    dolfinx = yaml.safe_load((REPO / "workflow" / "envs" / "dolfinx.yaml").read_text())["dependencies"]
    pins = next(d["pip"] for d in dolfinx if isinstance(d, dict))
    assert pins == list(SPECS["dolfinx"].packages)
    python = next(d for d in dolfinx if isinstance(d, str) and d.startswith("python="))
    assert tuple(int(v) for v in python.split("=")[1].split(".")) >= SPECS["dolfinx"].min_python
    dealii = yaml.safe_load((REPO / "workflow" / "envs" / "dealii.yaml").read_text())["dependencies"]
    assert "dealii=9.4" in dealii and "cmake" in dealii


def test_fea_conda_file_follows_the_local_recipe():
    fea = yaml.safe_load((REPO / "workflow" / "envs" / "fea.yaml").read_text())["dependencies"]
    assert next(d["pip"] for d in fea if isinstance(d, dict)) == list(SPECS["fea"].packages)
    python = next(d for d in fea if isinstance(d, str) and d.startswith("python="))
    assert tuple(int(v) for v in python.split("=")[1].split(".")) >= SPECS["fea"].min_python
