"""The oracle backend: each case's reference solution, answered as the reply an agent would give."""

from __future__ import annotations

from typing import Any

from simcodebench.agents.artifacts import kind, render_reply
from simcodebench.agents.multifile import read_tree
from simcodebench.core.cases import Case
from simcodebench.core.registry import plugin_of


def oracle_artifact(case: Case) -> Any:
    """The oracle: its source (``code``), its files as ``{path: text}`` (``files``) or its reply (``option``)."""
    path = case.folder / case.hidden.oracle
    built = plugin_of(case).oracle_source(case)
    if built is not None:  # the suite builds each case's oracle (a shared solver and its settings)
        return built
    if kind(case) == "files":
        return read_tree(path)
    return path.read_text(encoding="utf-8")


def oracle_reply(case: Case) -> str:
    """What the oracle agent answers."""
    reply = render_reply(case, oracle_artifact(case))
    assert reply is not None
    return reply
