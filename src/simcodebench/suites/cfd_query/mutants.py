"""Mutant operations of the cfd-query suite; each turns the oracle's reply (the correct option) into another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcodebench.agents.backends.mutant import MutationContext
from simcodebench.agents.choice import parse_option

UNPARSABLE = "I would rather not commit to one of the options."


def wrong_option(reply: str, ctx: MutationContext) -> str:
    """The next option after the correct one (F-Acc)."""
    return str(parse_option(reply) % 4 + 1)


def unparsable_reply(reply: str, ctx: MutationContext) -> str:
    """A reply that names no option 1-4 (F-Extract: no answer can be extracted)."""
    return UNPARSABLE


def no_reply(reply: str, ctx: MutationContext) -> None:
    """No reply at all (F-NoResponse)."""
    return None


MUTANT_OPERATIONS: dict[str, Callable[[str, MutationContext], Any]] = {
    op.__name__: op for op in (wrong_option, unparsable_reply, no_reply)
}
