"""Multiple-choice replies: which one of the options ``1``-``4`` a reply gives.

In order:

1. the whole reply, stripped, is one of ``1``-``4`` (CFDQuery's strict rule, ``CFDQuery/llms.py``);
2. else its explicit statements (``answer: 3``, ``the answer is (3)``, ``option 3``, ``choice 3``): the option
   they name when they all name the same one (so ``"Option 3, not 2"`` is 3);
3. else the numbers ``1``-``4`` standing alone in the reply (not a digit of ``15``, ``0.25`` or ``2D``): the option
   when there is exactly one.

A reply that names several different options at the same step (one restating ``1. ... 2. ... 3. ... 4. ...``,
or ``"2 or 3"``) is unanswered, and so is one that names none: :class:`ExtractionError` (F-Extract). CFDQuery's
released parser took the first character ``1``-``4`` anywhere instead, which scores a restatement of the options
as option 1; it is not kept (the suite has no ``@legacy`` variant).
"""

from __future__ import annotations

import re

from simcodebench.agents.extract import ExtractionError

OPTIONS = ("1", "2", "3", "4")
_STANDALONE = r"(?<![\w.])([1-4])(?!\w|\.\d)"
_STATED = re.compile(r"\b(?:answer|option|choice)\b[^\w\n]{0,6}(?:is\W{0,4})?" + _STANDALONE, re.IGNORECASE)
_NAMED = re.compile(_STANDALONE)


def parse_option(text: str | None) -> int:
    """The option number (1-4) a reply gives; :class:`ExtractionError` when it gives none or several (F-Extract)."""
    if not text or not text.strip():
        raise ExtractionError("the reply is empty")
    stripped = text.strip()
    if stripped in OPTIONS:
        return int(stripped)
    for pattern in (_STATED, _NAMED):
        named = sorted({int(m.group(1)) for m in pattern.finditer(text)})
        if len(named) == 1:
            return named[0]
        if named:
            raise ExtractionError(
                f"the reply names several options ({', '.join(map(str, named))}), so it answers none: {stripped[:80]!r}"
            )
    raise ExtractionError(f"the reply names no option 1-4: {stripped[:80]!r}")
