"""The ``replay`` backend: recorded replies from a JSONL file, one object per reply."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InputError

REQUIRED_FIELDS = {"suite": str, "case": str, "sample": int, "attempt": int, "response": str}


@cache
def load_replay(path: Path) -> dict[tuple[str, str, int, int], dict[str, Any]]:
    """Index a replay file by ``(suite, case, sample, attempt)``; extra keys of each line are kept."""
    index: dict[tuple[str, str, int, int], dict[str, Any]] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    path, f"line {number}", f"is not JSON ({exc.msg})", "write one JSON object per line"
                ) from exc
            if not isinstance(entry, dict):
                raise InputError(path, f"line {number}", "is not a JSON object", "write one JSON object per line")
            for key, kind in REQUIRED_FIELDS.items():
                value = entry.get(key)
                if not isinstance(value, kind) or isinstance(value, bool):
                    raise InputError(
                        path,
                        f"line {number}.{key}",
                        "is missing" if value is None else f"is not a {kind.__name__}",
                        f"give '{key}' as a {kind.__name__}",
                    )
            key = (entry["suite"], entry["case"], entry["sample"], entry["attempt"])
            if key in index:
                raise InputError(
                    path,
                    f"line {number}",
                    f"repeats suite/case/sample/attempt {key}",
                    "keep one reply per (suite, case, sample, attempt)",
                )
            index[key] = entry
    return index


def replay_reply(path: Path, suite: str, case: str, sample: int, attempt: int) -> dict[str, Any] | None:
    """The recorded line for this attempt, or None (recorded as "no response", not a harness error)."""
    return load_replay(Path(path).resolve()).get((suite, case, sample, attempt))
