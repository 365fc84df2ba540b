"""Pull code out of an LLM reply: fenced blocks by language.

A block runs from an opening fence (```` ``` ```` or ``~~~``, three or more, with an optional info string) to a
closing fence of the same characters and indent. The rule for a reply cut before its last closing fence (as a
reply cut at ``max_tokens`` is): an opening fence after the last closed block, with no closing fence, is a block
too, reaching to the end of the reply (``Block.closed`` is False). So a complete program cut only in its closing
fence still runs; one cut in the middle fails where it is cut. The reply's truncation is flagged on its own in
``score.json`` (``truncated``), whatever extraction makes of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n"
_FENCE = re.compile(_OPEN + r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
_UNTERMINATED = re.compile(_OPEN + r"(?P<body>.*)\Z", re.MULTILINE | re.DOTALL)

LANGUAGE_ALIASES = {"python": {"python", "py", "python3"}, "cpp": {"cpp", "c++", "cxx", "cc"}}


@dataclass(frozen=True)
class Block:
    """One fenced code block: its info string's language, its body, the whole info string, and whether its
    closing fence was there (False only for an unterminated last block)."""

    language: str
    body: str
    info: str = ""
    closed: bool = True


def _block(match: re.Match[str], closed: bool) -> Block:
    info = match.group("info").strip()
    words = info.split()
    return Block(language=words[0].lower() if words else "", body=match.group("body"), info=info, closed=closed)


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced code block of ``text``, in order, with an unterminated last one (see the module's rule)."""
    blocks, end = [], 0
    for match in _FENCE.finditer(text):
        blocks.append(_block(match, closed=True))
        end = match.end()
    rest = _UNTERMINATED.search(text, end)
    if rest is not None:
        blocks.append(_block(rest, closed=False))
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
