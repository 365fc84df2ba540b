"""Runtimes: how an artifact is executed (``local``, ``bwrap``, ``apptainer``) and how ``auto`` picks one."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.images import image_present
from simcodebench.execution.runtime import apptainer, bwrap, local
from simcodebench.execution.runtime.base import RunRequest, RunResult

log = logging.getLogger("simcodebench")

RUNTIMES = ("auto", "local", "bwrap", "apptainer")

_announced: set[str] = set()


def _announce(level: int, message: str) -> None:
    """Log ``message`` once per process (every job resolves the runtime)."""
    if message not in _announced:
        _announced.add(message)
        log.log(level, message)


UNCONFINED_FIX = (
    "install bubblewrap (apt-get install bubblewrap) or apptainer with the images (make images), "
    "or set runtime: local to run generated code unconfined on purpose"
)


def _check(name: str, environment: str | None, image: str | None) -> None:
    """Refuse an explicitly configured runtime that cannot work here, with the fix."""
    if name == "bwrap" and not bwrap.bwrap_available():
        raise InfrastructureError(
            "runtime 'bwrap': bubblewrap is not installed or not usable here "
            "(apt-get install bubblewrap; in a container, allow user namespaces); or set runtime: auto"
        )
    if name == "apptainer" and not apptainer.apptainer_available():
        raise InfrastructureError("runtime 'apptainer': apptainer is not on PATH; install it or set runtime: auto")
    if name == "apptainer" and environment is not None and image is None:
        raise InfrastructureError(f"runtime 'apptainer': no image for environment '{environment}' (config 'images')")
    if name == "apptainer" and image is not None and not image_present(image):
        raise InfrastructureError(
            f"runtime 'apptainer': image {image} does not exist (make images builds it; config 'images' points at it)"
        )


def resolve_runtime(name: str, environment: str | None = None, images: Mapping[str, str] | None = None) -> str:
    """The concrete runtime for a configured name and a case's solver ``environment``.

    ``auto`` picks ``apptainer`` when apptainer is on PATH and the environment's image exists (``images``: by
    default ``containers/<env>.sif``, see :mod:`simcodebench.execution.images`), else ``bwrap`` when bubblewrap
    works here; where neither does it stops with :data:`UNCONFINED_FIX`: generated code never runs unconfined
    unless ``runtime: local`` was chosen on purpose. The choice and its reason are logged once.
    """
    if name not in RUNTIMES:
        raise ValueError(f"unknown runtime '{name}'; use one of {list(RUNTIMES)}")
    image = (images or {}).get(environment) if environment else None
    if name != "auto":
        _check(name, environment, image)
        chosen, reason = name, "configured"
    elif image and apptainer.apptainer_available() and image_present(image):
        chosen, reason = "apptainer", f"apptainer is on PATH and environment '{environment}' has image {image}"
    elif bwrap.bwrap_available():
        chosen, reason = "bwrap", f"bubblewrap works here and {_no_apptainer(environment, image)}"
    else:
        raise InfrastructureError(
            f"runtime auto: neither apptainer ({_no_apptainer(environment, image)}) nor bubblewrap works here, "
            f"and generated code is never run unconfined by surprise: {UNCONFINED_FIX}"
        )
    if chosen == "local":
        _announce(logging.WARNING, "runtime local (configured): generated code runs UNCONFINED, as this user")
    else:
        _announce(logging.INFO, f"runtime {chosen} for environment '{environment}' ({reason})")
    return chosen


def _no_apptainer(environment: str | None, image: str | None) -> str:
    if not apptainer.apptainer_available():
        return "apptainer is not on PATH"
    if image is None:
        return f"no image is configured for environment '{environment}'"
    return f"image {image} does not exist"


def run(request: RunRequest, runtime: str, image: str | None = None) -> RunResult:
    """Execute ``request`` in ``runtime`` (already resolved); ``image`` is the apptainer image."""
    if runtime == "local":
        return local.execute(request)
    if runtime == "bwrap":
        return bwrap.execute(request)
    if runtime == "apptainer":
        if image is None:
            raise InfrastructureError("runtime 'apptainer' needs an image (config key 'images')")
        return apptainer.execute(request, image)
    raise ValueError(f"runtime '{runtime}' is not available")


__all__ = ["RUNTIMES", "UNCONFINED_FIX", "RunRequest", "RunResult", "resolve_runtime", "run"]
