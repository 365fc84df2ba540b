"""A rule's log file gets its job's messages and, when the job fails, why."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from simcodebench.core.logs import LOGGER, job_log


def test_job_log_keeps_this_jobs_messages_and_the_failure(tmp_path: Path) -> None:
    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.INFO)
    path = tmp_path / "logs" / "reference" / "case.log"

    def other_job() -> None:
        logger.info("message of another job")

    with pytest.raises(ValueError, match="no finite field"), job_log(path):
        logger.info("generating the reference")
        thread = threading.Thread(target=other_job)
        thread.start()
        thread.join()
        raise ValueError("no finite field")
    text = path.read_text()
    assert "INFO: generating the reference" in text
    assert "ERROR: ValueError: no finite field" in text
    assert "another job" not in text
    logger.info("after the job")
    assert "after the job" not in path.read_text()
