"""Source rewrites the harness applies to a generated Python program, each one a documented protocol step.

- :func:`np_save_by_variable`: CFDCodeBench's released code renames every ``np.save('<path>', X)`` to
  ``np.save('X_<task>.npy', X)``, so the saved Python variable, not the file name, decides which reference a
  file is compared with. As upstream, only ``np.save`` with a quoted string literal as path and a bare variable
  name as second argument is rewritten: an expression (``u[:, -1]``), a computed path (an f-string,
  ``os.path.join(...)``) or ``numpy.save`` keeps its own path, so the file is compared with nothing.
- :func:`scale_constants`: our convergence contract. The prompt asks for top-level integer constants
  (``NX = 64``) from which everything resolution-dependent derives; the rewrite multiplies each named one.
- :func:`scale_literals`: the released convergence check: every ``nx=``, ``ny=``, ``nt=`` followed by an
  integer literal, anywhere, multiplied (so ``nx, ny = 101, 101`` becomes ``nx, ny = 404, 101``: the regular
  expression reads the first literal after ``ny =``, as upstream's converged scripts show).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

LEGACY_RESOLUTION_NAMES = ("nx", "ny", "nt")

_NP_SAVE = re.compile(r"np\.save\((['\"])(.+?)\1\s*,\s*(\w+)\s*\)")


def np_save_by_variable(source: str, task: str) -> tuple[str, int]:
    """``source`` with each ``np.save('<path>', X)`` writing ``X_<task>.npy``; returns (source, count)."""
    return _NP_SAVE.subn(lambda m: f"np.save('{m.group(3)}_{task}.npy', {m.group(3)})", source)


def scale_constants(source: str, names: Iterable[str], factor: int) -> tuple[str, dict[str, tuple[int, int]]]:
    """Multiply the top-level assignments ``NAME = <int>`` of ``names`` by ``factor``.

    Returns the new source and ``{name: (old, new)}`` for each constant found (the first assignment of each).
    """
    changed: dict[str, tuple[int, int]] = {}
    for name in names:
        pattern = re.compile(rf"^({re.escape(name)}\s*=\s*)(\d+)(?=\s*(#.*)?$)", re.M)
        match = pattern.search(source)
        if match is None:
            continue
        old = int(match.group(2))
        changed[name] = (old, old * factor)
        source = source[: match.start(2)] + str(old * factor) + source[match.end(2) :]
    return source, changed


def scale_literals(
    source: str, factor: int, names: Iterable[str] = LEGACY_RESOLUTION_NAMES
) -> tuple[str, dict[str, tuple[int, int]]]:
    """Multiply every integer literal that follows ``<name> =`` for ``name`` in ``names`` (the released rule)."""
    changed: dict[str, tuple[int, int]] = {}
    pattern = re.compile(rf"\b({'|'.join(re.escape(n) for n in names)})(\s*=\s*)(\d+)\b")

    def scaled(match: re.Match[str]) -> str:
        old = int(match.group(3))
        changed.setdefault(match.group(1), (old, old * factor))
        return f"{match.group(1)}{match.group(2)}{old * factor}"

    return pattern.sub(scaled, source), changed
