"""The alternative backend: each case's second correct solution, written apart from its reference.

The oracle shows that the pipeline runs the reference's own method, resolution and conventions; a second
solution (``hidden.alternative``: another method, resolution or convention the prompt allows) shows that a
different correct program passes too. A case without one gives the backend no sample.
"""

from __future__ import annotations

from typing import Any

from simcodebench.agents.artifacts import kind, render_reply
from simcodebench.agents.multifile import read_tree
from simcodebench.core.cases import Case
from simcodebench.core.registry import plugin_of


def has_alternative(case: Case) -> bool:
    """Whether the case has a second solution."""
    return bool(case.hidden.alternative)


def alternative_artifact(case: Case) -> Any:
    """The second solution: its source (``code``), its files as ``{path: text}`` (``files``) or its reply
    (``option``), adapted by the suite plugin where it adapts its oracle (a variant's output layout)."""
    if not case.hidden.alternative:
        raise ValueError(f"{case.key}: no second solution (hidden.alternative)")
    path = case.folder / case.hidden.alternative
    if kind(case) == "files":
        return read_tree(path)
    return plugin_of(case).adapt_solution(case, path.read_text(encoding="utf-8"))


def alternative_reply(case: Case) -> str:
    """What the alternative agent answers."""
    reply = render_reply(case, alternative_artifact(case))
    assert reply is not None
    return reply
