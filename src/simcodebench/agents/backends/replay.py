"""The ``replay`` backend: recorded replies from a JSONL file, one object per reply.

A line's optional ``role`` names the strategy role it answers (default ``programmer``); a code-writing role
without a line of its own (for example SMRF's ``corrector``) takes the ``programmer`` line of its attempt.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from simcodebench.core.cases import split_suite_name
from simcodebench.core.errors import InputError

REQUIRED_FIELDS = {"suite": str, "case": str, "sample": int, "attempt": int, "response": str}
DEFAULT_ROLE = "programmer"

Key = tuple[str, str, int, int, str]


@cache
def load_replay(path: Path) -> dict[Key, dict[str, Any]]:
    """Index a replay file by ``(suite, case, sample, attempt, role)``; extra keys of each line are kept."""
    index: dict[Key, dict[str, Any]] = {}
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
            role = entry.get("role", DEFAULT_ROLE)
            if not isinstance(role, str):
                raise InputError(path, f"line {number}.role", "is not a str", "give 'role' as a role name")
            key = (entry["suite"], entry["case"], entry["sample"], entry["attempt"], role)
            if key in index:
                raise InputError(
                    path,
                    f"line {number}",
                    f"repeats suite/case/sample/attempt/role {key}",
                    "keep one reply per (suite, case, sample, attempt, role)",
                )
            index[key] = entry
    return index


def replay_reply(
    path: Path, suite: str, case: str, sample: int, attempt: int, role: str = DEFAULT_ROLE, writes_code: bool = True
) -> dict[str, Any] | None:
    """The recorded line for this attempt and role, or None (recorded as "no response", not a harness error).

    A code-writing role falls back to the attempt's ``programmer`` line; a suite variant (``cfd-code@legacy``)
    falls back to the lines of its suite (``cfd-code``).
    """
    index = load_replay(Path(path).resolve())
    roles = (role, DEFAULT_ROLE) if writes_code else (role,)
    suites = dict.fromkeys((suite, split_suite_name(suite)[0]))  # a variant replays its suite's lines too
    for name in suites:
        for wanted in roles:
            entry = index.get((name, case, sample, attempt, wanted))
            if entry is not None:
                return entry
    return None
