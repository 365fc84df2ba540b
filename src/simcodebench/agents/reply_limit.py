"""The ceiling on every reply: the ``max_tokens`` a suite's requests get where neither the agent nor the paper's
protocol sets one.

Without it a reply that loops runs until the server's context is full (7,611 tokens for one Re4 reply of a
135M-parameter model, 195 s for one generation of 6,440 tokens). Each ``suite.yaml`` states its default under
``reply_tokens`` (``default``, and the measurement it rests on in ``basis``): a few times the tokens of the
suite's longest oracle program (``benchmarks/results/local-servers.md`` lists the measurements). At send time
the ``openai`` backend lowers it further to what the model's context window leaves after the prompt
(``openai_backend.reply_ceiling``).
"""

from __future__ import annotations

from typing import Any

from simcodebench.core.cases import Suite


def suite_default(suite: Suite) -> tuple[int, str] | None:
    """The suite's default ``max_tokens`` and its basis (``reply_tokens`` in ``suite.yaml``); None without one."""
    stated = suite.data.get("reply_tokens")
    if not stated:
        return None
    return int(stated["default"]), str(stated["basis"])


def with_default(settings: dict[str, Any], suite: Suite) -> dict[str, Any]:
    """``settings`` of an ``openai`` agent with the suite's default ``max_tokens`` where they set none."""
    if settings.get("backend") != "openai" or settings.get("max_tokens") is not None:
        return settings
    default = suite_default(suite)
    return settings if default is None else {**settings, "max_tokens": default[0]}
