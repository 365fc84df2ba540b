"""The context window of an endpoint's model, and prompts that cannot fit in it.

The window is the agent's ``context_tokens`` when it states one, else what the server reports for the model
in ``GET /v1/models`` (vLLM's ``max_model_len``), else unknown. A prompt is refused before it is sent when its
estimate, :data:`CHARS_PER_TOKEN` characters a token, is over the window: most tokenizers make more tokens
than that of code and prose, so only a prompt that is surely too long is refused here; the server's own
refusal (an HTTP 400 or 413 naming the context length, :func:`names_context`) catches the rest. Either way the
sample fails as F-Context, its own failure class, never as an endpoint error.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import openai

from simcodebench.agents.backends.local_server import DEFAULT_N_CTX

CHARS_PER_TOKEN = 4
_CONTEXT_WORDS = re.compile(
    r"context[ _]?(?:length|window)|max(?:imum)?[ _]model[ _]len|prompt is too long|too many (?:input )?tokens",
    re.IGNORECASE,
)


def estimate_tokens(messages: list[dict[str, Any]]) -> int:
    """The prompt's tokens as estimated from its characters (see the module docstring)."""
    return sum(len(str(m.get("content") or "")) for m in messages) // CHARS_PER_TOKEN


def names_context(status_code: int, message: str) -> bool:
    """Whether a refused request (``status_code``, the server's ``message``) was refused for its length."""
    return status_code in (400, 413) and _CONTEXT_WORDS.search(message) is not None


def stated_window(agent: dict[str, Any]) -> int | None:
    """The window the config states: the agent's ``context_tokens``, else the ``n_ctx`` of the llama.cpp server the
    harness serves it from (``serve``); None when it states none."""
    if agent.get("context_tokens"):
        return int(agent["context_tokens"])
    if agent.get("serve"):
        return int(agent["serve"].get("n_ctx", DEFAULT_N_CTX))
    return None


def context_window(client: openai.OpenAI, agent: dict[str, Any]) -> int | None:
    """The model's window in tokens: the one the config states (:func:`stated_window`), else the server's
    ``max_model_len``."""
    stated = stated_window(agent)
    if stated is not None:
        return stated
    return _served_window(str(client.base_url), client.api_key, str(agent["model"]))


@functools.lru_cache(maxsize=32)
def _served_window(base_url: str, api_key: str, model: str) -> int | None:
    """``max_model_len`` of ``model`` in the server's model list; None when the server does not report it."""
    try:
        with openai.OpenAI(base_url=base_url, api_key=api_key, timeout=10.0, max_retries=0) as client:
            models = client.models.list().data
    except (openai.OpenAIError, ValueError):
        return None
    for entry in models:
        length = (entry.model_extra or {}).get("max_model_len")
        if entry.id == model and isinstance(length, int) and length > 0:
            return length
    return None
