"""Multiple-choice replies, parsed as CFDQuery's released code parses them (``CFDQuery/llms.py``).

Strict first: the whole reply, stripped, is one of ``1``-``4``. Otherwise tolerant: the first character ``1``-``4``
anywhere in the reply (so ``"Answer: 3"`` is 3, and so is ``"option 3 (not 2)"``). A reply with neither is
unparsable.
"""

from __future__ import annotations

import re

from simcodebench.agents.extract import ExtractionError

OPTIONS = ("1", "2", "3", "4")
_FIRST_OPTION = re.compile(r"[1-4]")


def parse_option(text: str | None) -> int:
    """The option number (1-4) a reply gives; :class:`ExtractionError` when it gives none (F-Extract)."""
    if not text or not text.strip():
        raise ExtractionError("the reply is empty")
    stripped = text.strip()
    if stripped in OPTIONS:
        return int(stripped)
    match = _FIRST_OPTION.search(text)
    if match is None:
        raise ExtractionError(f"the reply names no option 1-4: {stripped[:80]!r}")
    return int(match.group(0))
