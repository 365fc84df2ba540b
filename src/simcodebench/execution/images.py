"""Apptainer images of the solver environments: where they are, what they hold, and a form of them this user can run.

One image per environment, built by ``make images`` (``simcodebench images build``) from ``containers/<env>.def``.
Those definitions need no Docker registry: ``Bootstrap: debootstrap`` from a Debian mirror (the build argument
``mirror``), then the environment's pinned PyPI wheels or Debian packages, the same pins as ``simcodebench env
setup``. Each carries two labels: the environment's name and its version hash (:func:`environment_hash` of the
recipe), so a stale image is told from a current one without opening it.

Where the images are: the config key ``images`` (a folder holding ``<env>.sif``, or one path per environment),
else ``$SIMCODEBENCH_IMAGES`` (a folder), else ``containers/`` of the checkout, where ``make images`` writes them.

A user who is not root runs a ``.sif`` through squashfuse, which needs ``/dev/fuse``. Where it is closed to them
(many clusters, these machines) the image is converted once into a sandbox folder beside it, or under
``$XDG_CACHE_HOME`` when that folder is not writable (:func:`runnable_image`); apptainer runs a sandbox folder
without FUSE, in user namespaces.

spython (Apptainer's Python client) builds and inspects the images here; the runtime itself starts ``apptainer
exec`` on its own (:mod:`simcodebench.execution.runtime.apptainer`) because it needs the process group, the
limits, the capped output and the peak memory that its local runner records, which spython's ``execute`` does
not give. The definitions are written by hand: spython's writer knows only ``Bootstrap: docker``.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import atomic_write_text, canonical_json, sha256_text
from simcodebench.core.plugin import EnvironmentSpec
from simcodebench.core.project import project_root

IMAGES_VARIABLE = "SIMCODEBENCH_IMAGES"
"""A folder of images (``<env>.sif``) used when the config names none."""

ENVIRONMENT_LABEL = "org.simcodebench.environment"
HASH_LABEL = "org.simcodebench.environment.hash"

SANDBOX_SUFFIX = ".sandbox"
URI_SCHEMES = ("docker://", "docker-archive:", "library://", "oras://", "shub://", "http://", "https://")


def environment_hash(spec: EnvironmentSpec) -> str:
    """The version hash of an environment's recipe (its kind and pinned packages): an image's label."""
    return sha256_text(canonical_json({"name": spec.name, "kind": spec.kind, "packages": list(spec.packages)}))[:16]


def definitions_dir() -> Path:
    """Where the registry-free definitions are: ``containers/`` of the checkout."""
    return project_root() / "containers"


def definition_path(environment: str) -> Path:
    """The definition file of ``environment``'s image."""
    return definitions_dir() / f"{environment}.def"


def is_uri(image: str) -> bool:
    """Whether ``image`` is a registry reference (``docker://...``) rather than a file or folder."""
    return image.startswith(URI_SCHEMES)


def default_images_dir() -> Path:
    """``$SIMCODEBENCH_IMAGES``, else ``containers/`` of the checkout."""
    configured = os.environ.get(IMAGES_VARIABLE)
    return Path(configured).expanduser() if configured else definitions_dir()


def image_table(configured: str | Mapping[str, str] | None, environments: set[str], base: Path) -> dict[str, str]:
    """The image of each environment: from the config's ``images`` (a folder, or a path or reference per
    environment; relative paths against ``base``), else ``<default_images_dir()>/<env>.sif``."""
    if isinstance(configured, Mapping):
        table = {env: ref if is_uri(ref) else str(base / Path(ref).expanduser()) for env, ref in configured.items()}
        folder = default_images_dir()
    else:
        table = {}
        folder = base / Path(configured).expanduser() if configured else default_images_dir()
    for env in sorted(environments - table.keys()):
        table[env] = str(folder / f"{env}.sif")
    return table


def image_present(image: str) -> bool:
    """Whether Apptainer can use ``image`` here: a reference (pulled on first use), an image file or a sandbox
    folder made from one."""
    return is_uri(image) or Path(image).is_file() or Path(image).is_dir()


def fuse_usable() -> bool:
    """Whether this user can mount a ``.sif`` (root mounts it itself; others need ``/dev/fuse``)."""
    return os.geteuid() == 0 or os.access("/dev/fuse", os.R_OK | os.W_OK)


def runnable_image(image: str) -> str:
    """``image`` in a form this user can run: itself, or (a ``.sif`` where FUSE is closed to this user) a
    sandbox folder converted from it once and kept beside it (or in the user's cache)."""
    if is_uri(image) or Path(image).is_dir() or fuse_usable():
        return image
    return str(sandbox_folder(Path(image)))


def _sandbox_location(sif: Path) -> Path:
    beside = sif.with_suffix(SANDBOX_SUFFIX)
    if os.access(sif.parent, os.W_OK):
        return beside
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcodebench" / "images"
    return cache / f"{sif.stem}-{image_digest(sif)[:16]}{SANDBOX_SUFFIX}"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def sandbox_folder(sif: Path) -> Path:
    """The sandbox folder of ``sif``, converted (``apptainer build --sandbox``) when missing or older than it.
    Jobs that need it at once wait for one conversion (a lock file); a half-made folder is never used."""
    target = _sandbox_location(sif)
    stamp = target / ".simcodebench-from"
    source = f"{sif.resolve()} {sif.stat().st_mtime_ns} {sif.stat().st_size}"
    with _locked(target.with_suffix(".lock")):
        if stamp.is_file() and stamp.read_text() == source:
            return target
        partial = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
        done = subprocess.run(
            [_apptainer(), "build", "--force", "--sandbox", str(partial), str(sif)], capture_output=True, text=True
        )
        if done.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            raise InfrastructureError(f"apptainer could not unpack {sif} into a sandbox folder: {done.stderr[-500:]}")
        (partial / stamp.name).write_text(source)
        if target.exists():
            shutil.rmtree(target)
        partial.rename(target)
    return target


def _apptainer() -> str:
    executable = shutil.which("apptainer")
    if executable is None:
        raise InfrastructureError("apptainer is not on PATH (install it, or module load apptainer)")
    return executable


def image_digest(image: Path) -> str:
    """SHA-256 of an image file, kept in ``<image>.sha256`` beside it (with its size and modification time) so
    that a large image is read once; a sandbox folder's digest is the one of the image it came from."""
    if image.is_dir():
        stamp = image / ".simcodebench-from"
        origin = Path(stamp.read_text().split(" ")[0]) if stamp.is_file() else None
        return image_digest(origin) if origin is not None and origin.is_file() else "unknown"
    sidecar = image.with_name(image.name + ".sha256")
    key = f"{image.stat().st_size} {image.stat().st_mtime_ns}"
    if sidecar.is_file():
        digest, _, stored_key = sidecar.read_text().strip().partition(" ")
        if stored_key == key:
            return digest
    hasher = hashlib.sha256()
    with open(image, "rb") as handle:
        while chunk := handle.read(1 << 20):
            hasher.update(chunk)
    digest = hasher.hexdigest()
    with contextlib.suppress(OSError):  # a read-only shared folder: computed again next time
        atomic_write_text(sidecar, f"{digest} {key}\n", mode=0o644)
    return digest


def image_labels(image: str) -> dict[str, str]:
    """The labels of an image file or sandbox folder (spython's ``inspect``), ``{}`` where none can be read;
    read once per version of the file."""
    if is_uri(image) or not image_present(image):
        return {}
    return dict(_labels(image, Path(image).stat().st_mtime_ns))


@functools.lru_cache(maxsize=64)
def _labels(image: str, mtime_ns: int) -> tuple[tuple[str, str], ...]:
    from spython.main import Client

    try:
        inspected = Client.inspect(image, quiet=True)
    except (SystemExit, OSError, ValueError):
        return ()
    if isinstance(inspected, str):
        with contextlib.suppress(ValueError):
            inspected = json.loads(inspected)
    if not isinstance(inspected, dict):
        return ()
    attributes = inspected.get("data", {}).get("attributes", inspected.get("attributes", {}))
    labels = attributes.get("labels") or {}
    return tuple(sorted((str(k), str(v)) for k, v in labels.items()))


def image_provenance(image: str, spec: EnvironmentSpec | None) -> dict[str, str | bool | None]:
    """What a record says of the image that ran it: the image, its digest, its label's version hash and whether
    that is the hash of this installation's recipe."""
    if is_uri(image):
        return {"image": image, "sha256": None, "environment_hash": None, "current": None}
    labels = image_labels(image)
    label = labels.get(HASH_LABEL)
    return {
        "image": image,
        "sha256": image_digest(Path(image)) if image_present(image) else None,
        "environment_hash": label,
        "current": None if spec is None or label is None else label == environment_hash(spec),
    }
