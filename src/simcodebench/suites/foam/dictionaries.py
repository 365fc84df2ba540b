"""Small edits of OpenFOAM dictionary text: find a sub-dictionary, set a scalar entry (used by the mutants)."""

from __future__ import annotations

import re


class DictionaryEditError(ValueError):
    """The edit does not apply to the text (a mutant declared for a case it does not fit)."""


def block_span(text: str, name: str) -> tuple[int, int]:
    """Start and end (exclusive, after the closing brace) of the first sub-dictionary ``name { ... }``.

    ``name`` is matched as a whole word at the start of a line (quoted names such as ``"(?i).*walls"`` too).
    """
    match = re.search(rf"^[ \t]*{re.escape(name)}\s*\{{", text, re.MULTILINE)
    if match is None:
        raise DictionaryEditError(f"no sub-dictionary '{name}'")
    depth = 0
    for index in range(match.end() - 1, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return match.start(), index + 1
    raise DictionaryEditError(f"sub-dictionary '{name}' is not closed")


def patch_span(text: str, patch: str) -> tuple[int, int]:
    """Span of the entry of ``patch`` inside ``boundaryField`` of a field file."""
    start, end = block_span(text, "boundaryField")
    inner_start, inner_end = block_span(text[start + 1 : end], patch)
    return start + 1 + inner_start, start + 1 + inner_end


def remove_patch(text: str, patch: str) -> str:
    """The field file without the ``boundaryField`` entry of ``patch`` (and the line it stood on)."""
    start, end = patch_span(text, patch)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[:line_start] + text[line_end + 1 if line_end >= 0 else len(text) :]


def set_scalar(text: str, key: str, value: str) -> str:
    """Set the first entry ``key <value>;`` (not a sub-dictionary) to ``value``."""
    pattern = re.compile(rf"^([ \t]*{re.escape(key)}[ \t]+)[^;{{\n]+;", re.MULTILINE)
    new, count = pattern.subn(lambda m: f"{m.group(1)}{value};", text, count=1)
    if count == 0:
        raise DictionaryEditError(f"no entry '{key}'")
    return new


def set_in_patch(text: str, patch: str, key: str, value: str) -> str:
    """Set entry ``key`` of ``patch`` in ``boundaryField`` to ``value``."""
    start, end = patch_span(text, patch)
    return text[:start] + set_scalar(text[start:end], key, value) + text[end:]
