"""Building the solver environments' images (``make images``, ``simcodebench images build``).

An image is built into a hidden partial file beside its target and renamed only once Apptainer has run its
``%test`` (the environment's smoke check) and its version label matches this installation's recipe, so a
``<env>.sif`` that exists is finished. Root builds directly where it holds every capability; another user, or a
root whose capability bounding set is reduced (some virtual machines and containers: Apptainer's build then
aborts asking for a capability it cannot have), builds with ``--fakeroot``, which needs the user's entry in
/etc/subuid and /etc/subgid. The Debian mirror is this machine's own (its apt sources) unless one is given.
``apptainer build`` is run directly, its output streamed: spython's ``build`` (0.3.14) holds the output back
until the end, prints it twice and returns no exit status.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
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
CA_MOUNT = "/mnt"
"""Where the host's CA bundle's folder is bound during a build (an empty folder of every Debian image)."""


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


def full_capabilities() -> bool:
    """Whether this process may hold every capability the kernel has (its bounding set is complete)."""
    try:
        last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
        status = Path("/proc/self/status").read_text()
    except (OSError, ValueError):
        return True
    bounding = re.search(r"^CapBnd:\s*([0-9a-f]+)", status, re.MULTILINE)
    return bounding is None or int(bounding.group(1), 16) == (1 << (last + 1)) - 1


def needs_fakeroot() -> bool:
    """A user who is not root, or a root without every capability, builds with ``--fakeroot``."""
    return os.geteuid() != 0 or not full_capabilities()


def host_ca_bundle() -> Path | None:
    """The CA bundle this machine's pip trusts when it names one (``PIP_CERT``, ``REQUESTS_CA_BUNDLE``,
    ``SSL_CERT_FILE`` or pip's ``global.cert``): a site behind a TLS-intercepting proxy needs it in the build."""
    named = [os.environ.get(v) for v in ("PIP_CERT", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE")]
    if not any(named):
        found = subprocess.run(
            [sys.executable, "-m", "pip", "config", "get", "global.cert"], capture_output=True, text=True
        )
        named.append(found.stdout.strip() if found.returncode == 0 else None)
    return next((Path(n).resolve() for n in named if n and Path(n).is_file()), None)


def build_options(mirror: str, definition: str) -> list[str]:
    """``apptainer build`` options: the mirror as a build argument; the host's CA bundle bound read-only for the
    build alone (``pip_cert``, where the definition takes it); ``--fakeroot`` where needed."""
    options = ["--build-arg", f"mirror={mirror}"]
    bundle = host_ca_bundle()
    if bundle is not None and "{{ pip_cert }}" in definition:
        options += ["--bind", f"{bundle.parent}:{CA_MOUNT}:ro", "--build-arg", f"pip_cert={CA_MOUNT}/{bundle.name}"]
    if needs_fakeroot():
        options.append("--fakeroot")
    return options


def _check_subordinate_ids() -> None:
    """A fakeroot build maps the user to subordinate ids: say how to get them where there are none."""
    user = pwd.getpwuid(os.geteuid()).pw_name
    for table in (Path("/etc/subuid"), Path("/etc/subgid")):
        entries = table.read_text().splitlines() if table.is_file() else []
        if not any(line.split(":")[0] in (user, str(os.geteuid())) for line in entries):
            raise InfrastructureError(
                f"building images here needs --fakeroot, and {table} has no entry for {user}; as root run: "
                f"usermod --add-subuids 1000000-1065535 --add-subgids 1000000-1065535 {user}"
            )


def build_image(environment: str, out_dir: Path, mirror: str | None = None) -> BuiltImage:
    """Build ``<out_dir>/<environment>.sif`` from ``containers/<environment>.def`` (its ``%test`` included)."""
    definition = definition_path(environment)
    if not definition.is_file():
        choices = f"use one of {buildable_environments()}"
        raise InputError(definition, "environment", f"no definition for '{environment}'", choices)
    executable = shutil.which("apptainer")
    if executable is None:
        raise InfrastructureError("apptainer is not on PATH: install it (or module load apptainer) to build images")
    if needs_fakeroot():
        _check_subordinate_ids()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{environment}.sif"
    partial = out_dir / f".{environment}.sif.partial"
    partial.unlink(missing_ok=True)
    started = time.perf_counter()
    options = build_options(mirror or host_mirror(), definition.read_text())
    code = subprocess.run([executable, "build", "--force", *options, str(partial), str(definition)]).returncode
    seconds = time.perf_counter() - started
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
