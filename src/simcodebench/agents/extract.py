"""Pull code out of an LLM reply: fenced blocks by language."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)

LANGUAGE_ALIASES = {"python": {"python", "py", "python3"}, "cpp": {"cpp", "c++", "cxx", "cc"}}


@dataclass(frozen=True)
class Block:
    """One fenced code block: its info string's language, its body and the whole info string."""

    language: str
    body: str
    info: str = ""


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced code block of ``text``, in order."""
    blocks = []
    for match in _FENCE.finditer(text):
        info = match.group("info").strip()
        words = info.split()
        blocks.append(Block(language=words[0].lower() if words else "", body=match.group("body"), info=info))
    return blocks


class ExtractionError(Exception):
    """The reply holds no usable code; the message says why (a model failure, F-Extract)."""


def extract_code(text: str | None, language: str) -> str:
    """The code the reply gives in ``language``.

    The longest block tagged with the language wins; a reply without tagged blocks falls back to its only
    untagged block. An empty reply, or one with no such block, raises :class:`ExtractionError`.
    """
    if not text or not text.strip():
        raise ExtractionError("the reply is empty")
    blocks = fenced_blocks(text)
    names = LANGUAGE_ALIASES.get(language, {language})
    tagged = [b for b in blocks if b.language in names and b.body.strip()]
    if tagged:
        return max(tagged, key=lambda b: len(b.body)).body
    untagged = [b for b in blocks if not b.language and b.body.strip()]
    if len(untagged) == 1:
        return untagged[0].body
    if not blocks:
        raise ExtractionError(f"the reply has no fenced code block (expected ```{language})")
    raise ExtractionError(f"the reply has {len(blocks)} code block(s) but none in {language}")
