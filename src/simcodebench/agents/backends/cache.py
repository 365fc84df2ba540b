"""Content-addressed cache of LLM replies, so no reply is ever requested twice unless forced.

An entry lives at ``root/<key[:2]>/<key>.json``, written atomically and read-only. The key hashes what
decides the reply: the calling role and its settings (the agent's for the suite, with its paper protocol and
per-suite keys applied, then the role's overrides, minus :data:`IGNORED_AGENT_KEYS`), the messages, the sample
and the attempt. Forcing a new reply keeps the old entry beside it as ``<key>.<UTC timestamp>.json``.
"""

from __future__ import annotations

import contextlib
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simcodebench.core.io import canonical_json, read_json, sha256_text, write_json

IGNORED_AGENT_KEYS = frozenset(
    {
        "samples",
        "attempts",
        "price",
        "max_cost_usd",
        "max_minutes",
        "stream",
        "timeout_s",
        "max_retries",
        "backoff_s",
        "api_key_env",
        "strategy",
        "roles",
        "leak_thresholds",
        "early_stop",
        "without",
    }
)
"""Agent keys that do not change a reply: bookkeeping, transport and the strategy with its options (which
shape the messages, the role and the attempt number, all hashed on their own)."""

_KEY = re.compile(r"[0-9a-f]{64}")


def reply_key(
    agent: dict[str, Any], messages: list[dict[str, Any]], sample: int, attempt: int, role: str = "programmer"
) -> str:
    """The hex SHA-256 naming the reply to ``messages`` from ``role`` with settings ``agent`` for this sample
    and attempt."""
    config = {name: value for name, value in agent.items() if name not in IGNORED_AGENT_KEYS}
    payload = {"agent": config, "role": role, "messages": messages, "sample": sample, "attempt": attempt}
    return sha256_text(canonical_json(payload))


class ReplyCache:
    """Reply records stored under ``root`` by :func:`reply_key`."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        """Where the entry for ``key`` lives."""
        if not _KEY.fullmatch(key):
            raise ValueError(f"not a reply key (64 lowercase hex digits): {key!r}")
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The record stored under ``key``, or None."""
        path = self.path(key)
        return read_json(path) if path.exists() else None

    def put(self, key: str, record: dict[str, Any], force: bool = False) -> None:
        """Store ``record`` under ``key``, read-only.

        An existing entry raises :class:`FileExistsError`, one that another process writes at the same moment
        too (the first written is kept); with ``force`` it is kept, renamed ``<key>.<UTC timestamp>.json``, and
        the new record takes its place.
        """
        path = self.path(key)
        if force and path.exists():
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            with contextlib.suppress(FileNotFoundError):  # another forcing job kept it first
                path.rename(path.with_name(f"{key}.{stamp}.json"))
        try:
            write_json(path, record, mode=0o444, exclusive=True)
        except FileExistsError:
            raise FileExistsError(f"{path}: a reply is already cached; force a new one to replace it") from None
