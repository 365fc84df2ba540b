"""Runtimes: how an artifact is executed (``local`` now; sandboxes plug in here)."""

from __future__ import annotations

import logging

from .base import RunRequest, RunResult
from .local import execute as execute_local

log = logging.getLogger(__name__)

RUNTIMES = ("auto", "local")


def resolve_runtime(name: str) -> str:
    """The concrete runtime for a configured name (``auto`` picks the best one available here)."""
    if name not in RUNTIMES:
        raise ValueError(f"unknown runtime '{name}'; use one of {list(RUNTIMES)}")
    return "local"


def run(request: RunRequest, runtime: str) -> RunResult:
    """Execute ``request`` in ``runtime`` (already resolved)."""
    if runtime == "local":
        return execute_local(request)
    raise ValueError(f"runtime '{runtime}' is not available")


__all__ = ["RunRequest", "RunResult", "resolve_runtime", "run"]
