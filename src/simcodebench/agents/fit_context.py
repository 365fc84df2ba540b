"""Fit a prompt's optional context into the model's context window, dropping whole pieces, least relevant first.

A suite lists its optional context as :class:`~simcodebench.core.plugin.ContextPiece`\\ s (its plugin's
``optional_context``). When the window is known (an ``openai`` agent's ``context_tokens``, else what the server says
or its refusal stated, :mod:`simcodebench.agents.backends.context`), the prompt must fit in the window less the
reply's reserve (the agent's ``max_tokens`` up to half the window, else a quarter of the window). Tokens are
estimated at :data:`FIT_CHARS_PER_TOKEN` characters a token, fewer than the 4 a token of the send-time check
(:mod:`simcodebench.agents.backends.context`): tokenizers cut code finer than prose (SmolLM2's made 3.3 characters a
token of the physics prompt), so a fitted prompt is rarely refused. Until the estimate fits, pieces are dropped by
decreasing ``rank``, the last listed first among equals; what is left when all are dropped is the mandatory prompt,
and if that does not fit either the prompt is sent as it is and fails as F-Context. When the window is unknown
nothing is dropped.

The window reaches :func:`~simcodebench.agents.prompts.render_messages` through :func:`fitting`, which the
``prompt`` step wraps around the strategy's ``prepare`` (strategies build prompts without knowing the agent's
endpoint); every fit made inside is collected, and the last one is recorded in ``messages.json`` (``context_fit``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from simcodebench.core.plugin import ContextPiece

FIT_CHARS_PER_TOKEN = 3
RESERVE_SHARE = 4
"""Without ``max_tokens`` the reply's reserve is the window's ``1/RESERVE_SHARE``."""

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class Window:
    """A model's context window and the tokens kept free for its reply."""

    tokens: int
    reserve: int

    @property
    def budget(self) -> int:
        """The tokens the prompt may take."""
        return max(0, self.tokens - self.reserve)


@dataclass(frozen=True)
class Fit:
    """One fitted prompt: its window, its estimated tokens, the pieces offered and those dropped (in order)."""

    window: Window | None
    estimate: int
    offered: int
    dropped: tuple[ContextPiece, ...]

    def record(self) -> dict[str, Any]:
        """What ``messages.json`` keeps of it (its ``context_fit``)."""
        return {
            "window_tokens": self.window.tokens if self.window else None,
            "reply_reserve_tokens": self.window.reserve if self.window else None,
            "chars_per_token": FIT_CHARS_PER_TOKEN,
            "prompt_tokens_estimate": self.estimate,
            "fits": self.window is None or self.estimate <= self.window.budget,
            "pieces_offered": self.offered,
            "dropped": [{"slot": p.slot, "name": p.name, "rank": p.rank, "chars": len(p.text)} for p in self.dropped],
        }


_WINDOW: ContextVar[Window | None] = ContextVar("simcodebench_prompt_window", default=None)
_FITS: ContextVar[list[Fit] | None] = ContextVar("simcodebench_prompt_fits", default=None)


def agent_window(window_tokens: int | None, max_tokens: int | None) -> Window | None:
    """The window to fit into: None when the window is unknown; the reserve is ``max_tokens`` when set, but at
    most half the window (the reply's ceiling is lowered to what the prompt leaves when it is sent)."""
    if window_tokens is None:
        return None
    reserve = min(int(max_tokens), window_tokens // 2) if max_tokens else window_tokens // RESERVE_SHARE
    return Window(int(window_tokens), reserve)


@contextmanager
def fitting(window: Window | None) -> Iterator[list[Fit]]:
    """Prompts rendered inside are fitted into ``window``; yields the list each render's :class:`Fit` joins."""
    fits: list[Fit] = []
    window_token, fits_token = _WINDOW.set(window), _FITS.set(fits)
    try:
        yield fits
    finally:
        _WINDOW.reset(window_token)
        _FITS.reset(fits_token)


def fit_estimate(messages: Messages) -> int:
    """The messages' tokens at :data:`FIT_CHARS_PER_TOKEN` characters a token (rounded up)."""
    return -(-sum(len(m["content"]) for m in messages) // FIT_CHARS_PER_TOKEN)


def slot_values(pieces: list[ContextPiece], kept: set[int]) -> dict[str, str]:
    """Each slot's value: its kept pieces (by index in ``pieces``) joined by newlines, in their listed order."""
    slots: dict[str, list[str]] = {piece.slot: [] for piece in pieces}
    for index, piece in enumerate(pieces):
        if index in kept:
            slots[piece.slot].append(piece.text)
    return {slot: "\n".join(texts) for slot, texts in slots.items()}


def drop_order(pieces: list[ContextPiece]) -> list[int]:
    """Indices of ``pieces`` in the order they are dropped: highest rank first, the last listed first among equals."""
    return sorted(range(len(pieces)), key=lambda i: (-pieces[i].rank, -i))


def fit_messages(
    render: Callable[[dict[str, str]], Messages], pieces: list[ContextPiece], window: Window | None
) -> tuple[Messages, Fit]:
    """The messages ``render`` makes from the slots of the pieces kept, with as few dropped as fit ``window``."""
    kept = set(range(len(pieces)))
    messages = render(slot_values(pieces, kept))
    dropped: list[int] = []
    if window is not None:
        order = iter(drop_order(pieces))
        while fit_estimate(messages) > window.budget and len(dropped) < len(pieces):
            excess = (fit_estimate(messages) - window.budget) * FIT_CHARS_PER_TOKEN
            for index in order:  # drop as many as the excess needs, then render again to check
                dropped.append(index)
                kept.discard(index)
                excess -= len(pieces[index].text) + 1
                if excess <= 0:
                    break
            messages = render(slot_values(pieces, kept))
    fit = Fit(window, fit_estimate(messages), len(pieces), tuple(pieces[i] for i in dropped))
    collected = _FITS.get()
    if collected is not None:
        collected.append(fit)
    return messages, fit


def current_window() -> Window | None:
    """The window set by the enclosing :func:`fitting`, if any."""
    return _WINDOW.get()
