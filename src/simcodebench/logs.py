"""The ``simcodebench`` logger as a workflow run shows it: INFO and above on stderr, next to Snakemake's."""

from __future__ import annotations

import logging

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
