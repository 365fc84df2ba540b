"""The ``simcodebench`` logger as a workflow run shows it: INFO and above on stderr, next to Snakemake's."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOGGER = "simcodebench"


def show_logs(level: int = logging.INFO) -> None:
    """Print the package's messages (the runtime chosen and why, calibration, references) at ``level`` and up."""
    logger = logging.getLogger(LOGGER)
    logger.setLevel(level)
    if not any(isinstance(h, logging.StreamHandler) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("simcodebench %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


@contextmanager
def job_log(path: Path) -> Iterator[None]:
    """Copy the package's messages from this thread (one Snakemake job) to the rule's log file ``path``; an
    exception is written there, with its type, before it propagates, so a failed job's log says why."""
    logger = logging.getLogger(LOGGER)
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, mode="a", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s: %(message)s"))
    thread = threading.get_ident()
    handler.addFilter(lambda record: record.thread == thread)
    logger.addHandler(handler)
    try:
        yield
    except Exception as exc:
        logger.error("%s: %s", type(exc).__name__, exc)
        raise
    finally:
        logger.removeHandler(handler)
        handler.close()
