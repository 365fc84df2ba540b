"""The context window of an endpoint's model, and prompts that cannot fit in it.

The window is the agent's ``context_tokens`` when it states one, else the one a refusal of this endpoint
stated in this process (:func:`learn_window`: "maximum context length is N tokens"), else what the server
reports (:mod:`.server_info`: llama.cpp's ``/props``, vLLM's ``max_model_len``, Ollama's, LM Studio's), else
unknown. A prompt is refused before it is sent when its
estimate, :data:`CHARS_PER_TOKEN` characters a token, is over the window: most tokenizers make more tokens
than that of code and prose, so only a prompt that is surely too long is refused here; the server's own
refusal (an HTTP 400 or 413 naming the context length, :func:`names_context`) catches the rest. Either way the
sample fails as F-Context, its own failure class, never as an endpoint error.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import openai

from simcodebench.agents.backends.local_server import DEFAULT_N_CTX
from simcodebench.agents.backends.server_info import server_info

CHARS_PER_TOKEN = 4
_CONTEXT_WORDS = re.compile(
    r"context[ _]?(?:length|window)|max(?:imum)?[ _]model[ _]len|prompt is too long|too many (?:input )?tokens",
    re.IGNORECASE,
)
_learnt: dict[tuple[str, str], int] = {}
_learnt_lock = threading.Lock()


def estimate_tokens(messages: list[dict[str, Any]]) -> int:
    """The prompt's tokens as estimated from its characters (see the module docstring)."""
    return sum(len(str(m.get("content") or "")) for m in messages) // CHARS_PER_TOKEN


def names_context(status_code: int, message: str) -> bool:
    """Whether a refused request (``status_code``, the server's ``message``) was refused for its length."""
    return status_code in (400, 413) and _CONTEXT_WORDS.search(message) is not None


def learn_window(endpoint: str, model: str, tokens: int) -> None:
    """Keep the window a refusal of ``endpoint`` stated for ``model``, for the rest of the process."""
    with _learnt_lock:
        _learnt[(endpoint.rstrip("/"), model)] = tokens


def learnt_window(endpoint: str, model: str) -> int | None:
    """The window a refusal of ``endpoint`` stated for ``model`` in this process, if any."""
    with _learnt_lock:
        return _learnt.get((endpoint.rstrip("/"), model))


def stated_window(agent: dict[str, Any]) -> int | None:
    """The window the config states: the agent's ``context_tokens``, else the ``n_ctx`` of the llama.cpp server the
    harness serves it from (``serve``); None when it states none."""
    if agent.get("context_tokens"):
        return int(agent["context_tokens"])
    if agent.get("serve"):
        return int(agent["serve"].get("n_ctx", DEFAULT_N_CTX))
    return None


def context_window(client: openai.OpenAI, agent: dict[str, Any]) -> int | None:
    """The model's window in tokens: the one the config states (:func:`stated_window`), else the one learnt from
    a refusal, else the server's (:func:`.server_info.server_info`)."""
    stated = stated_window(agent)
    if stated is not None:
        return stated
    endpoint, model = str(client.base_url), str(agent["model"])
    return learnt_window(endpoint, model) or server_info(endpoint, client.api_key, model).window


def forget() -> None:
    """Forget every learnt window (tests: scripted servers reuse ports)."""
    with _learnt_lock:
        _learnt.clear()
