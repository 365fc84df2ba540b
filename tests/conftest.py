"""Shared fixtures: the repository root, the provisioned `python` solver environment, upstream data."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcodebench.envs import setup_environment

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "upstream"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def python_env():
    """The `python` solver environment (provisioned once; `make test` has already done it)."""
    return setup_environment("python")


@pytest.fixture(scope="session")
def upstream() -> Path:
    """`../shared/upstream`, or a skip when it is absent."""
    if not UPSTREAM.is_dir():
        pytest.skip(f"upstream data absent: {UPSTREAM}")
    return UPSTREAM
