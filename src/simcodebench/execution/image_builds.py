"""Building the solver environments' images (``make images``, ``simcodebench images build``) with spython.

An image is built into a hidden partial file beside its target and renamed only once Apptainer has run its
``%test`` (the environment's smoke check) and its version label matches this installation's recipe, so a
``<env>.sif`` that exists is finished. Root builds directly; another user builds with ``--fakeroot`` (which needs
an entry in /etc/subuid). The Debian mirror is this machine's own (its apt sources) unless one is given.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from simcodebench.core.errors import InfrastructureError, InputError
from simcodebench.execution.environments import environment_spec
from simcodebench.execution.images import (
    HASH_LABEL,
    definition_path,
    definitions_dir,
    environment_hash,
    image_digest,
    image_labels,
)

DEFAULT_MIRROR = "http://deb.debian.org/debian"
APT_SOURCES = (Path("/etc/apt/sources.list.d/debian.sources"), Path("/etc/apt/sources.list"))


@dataclass(frozen=True)
class BuiltImage:
    """One finished build: where, how long it took, how large it is, and its digest."""

    environment: str
    path: Path
    seconds: float
    size_mb: float
    sha256: str


def buildable_environments() -> list[str]:
    """The environments with a registry-free definition in ``containers/``."""
    return sorted(p.stem for p in definitions_dir().glob("*.def"))


def host_mirror() -> str:
    """The Debian mirror this machine's apt uses (``URIs:`` of a deb822 source, or a ``deb`` line), else
    :data:`DEFAULT_MIRROR`."""
    for source in APT_SOURCES:
        if not source.is_file():
            continue
        text = source.read_text(errors="replace")
        found = re.search(r"^URIs:\s*(\S+)", text, re.M) or re.search(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)", text, re.M)
        if found and "security" not in found.group(1):
            return found.group(1).rstrip("/")
    return DEFAULT_MIRROR


def build_options(mirror: str) -> list[str]:
    """``apptainer build`` options: the mirror as a build argument, ``--fakeroot`` for a user who is not root."""
    options = ["--build-arg", f"mirror={mirror}"]
    if os.geteuid() != 0:
        options.append("--fakeroot")
    return options


def build_image(environment: str, out_dir: Path, mirror: str | None = None) -> BuiltImage:
    """Build ``<out_dir>/<environment>.sif`` from ``containers/<environment>.def`` (its ``%test`` included)."""
    definition = definition_path(environment)
    if not definition.is_file():
        choices = f"use one of {buildable_environments()}"
        raise InputError(definition, "environment", f"no definition for '{environment}'", choices)
    if shutil.which("apptainer") is None:
        raise InfrastructureError("apptainer is not on PATH: install it (or module load apptainer) to build images")
    from spython.main import Client

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{environment}.sif"
    partial = out_dir / f".{environment}.sif.partial"
    partial.unlink(missing_ok=True)
    started = time.perf_counter()
    result = Client.build(
        recipe=str(definition),
        image=str(partial),
        sudo=False,
        options=build_options(mirror or host_mirror()),
        force=True,
        return_result=True,
        quiet=False,
    )
    seconds = time.perf_counter() - started
    code = result.get("return_code") if isinstance(result, dict) else None
    if code != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise InfrastructureError(f"apptainer build of {definition} failed (exit {code}); its output is above")
    expected = environment_hash(environment_spec(environment))
    label = image_labels(str(partial)).get(HASH_LABEL)
    if label != expected:
        partial.unlink(missing_ok=True)
        raise InfrastructureError(
            f"{definition}: label {HASH_LABEL} is {label}, the recipe's version hash is {expected}; "
            "update the definition's pins and label (tests/test_envs_agree.py says which)"
        )
    partial.rename(target)
    return BuiltImage(environment, target, seconds, target.stat().st_size / 2**20, image_digest(target))
