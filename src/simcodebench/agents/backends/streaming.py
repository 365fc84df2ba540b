"""One chat completion asked as a stream, through the official SDK (``stream=True``, ``stream_options:
{include_usage: true}``), timed token by token.

The request's HTTP timeouts are the agent's silence timeout (``silence_s``) between two reads: a reply may run
as long as it keeps sending, and a server that sends nothing for ``silence_s`` fails the request (the caller
decides whether that was a queue or a dead server). Leaving the stream early, for any reason, closes the
response, which closes its connection: servers that stop on disconnect (llama.cpp's, vLLM) stop generating.
Every stream asks for its own connection (``Connection: close``), so that one that broke is never reused.

A server or proxy that answers a stream request with a plain JSON body is read as a plain reply; one that refuses
``stream_options`` is asked again without it (the tokens are then counted from the chunks, one a chunk, as
llama.cpp and vLLM send them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import openai

from simcodebench.agents.backends.endpoint_cap import EndpointCap
from simcodebench.agents.backends.reasoning import REASONING_FIELDS

CONNECT_S = 10.0
"""Seconds to open the connection."""


@dataclass
class Streamed:
    """A reply read from a stream (or a plain body), as one chat-completion ``body``, with its timing: seconds to
    the first token (None without one) and to the end; ``streamed`` is False for a plain body, and
    ``usage_counted`` True when the tokens were counted from the chunks because the server gave no usage."""

    body: dict[str, Any]
    first_token_s: float | None
    total_s: float
    streamed: bool
    usage_counted: bool = False


class Abandoned(Exception):
    """The run was abandoned while the reply streamed (its connection is closed)."""


class StreamBroke(Exception):
    """The stream's connection broke after its headers (the SDK's :class:`openai.APIConnectionError` is its
    ``__cause__``)."""


def timeout(silence_s: float) -> httpx.Timeout:
    """The httpx timeouts of a streamed request: ``silence_s`` between reads and writes, :data:`CONNECT_S` to
    connect."""
    return httpx.Timeout(silence_s, connect=CONNECT_S)


def refuses_stream_options(exc: openai.APIStatusError) -> bool:
    """Whether a 400/422 refused the request for its ``stream_options`` (a server that does not know them)."""
    return exc.status_code in (400, 422) and "stream_options" in exc.message


def stream_chat(
    client: openai.OpenAI,
    request: dict[str, Any],
    silence_s: float,
    cap: EndpointCap | None = None,
    ident: int = -1,
    include_usage: bool = True,
    abandon: Callable[[], bool] | None = None,
) -> Streamed:
    """Ask ``request`` as a stream and read it whole (each token reported to ``cap`` under ``ident``); when
    ``abandon()`` says so, at a chunk, the stream is closed and :class:`Abandoned` raised.

    Raises the SDK's errors: :class:`openai.APIStatusError` when refused, :class:`openai.APITimeoutError` after
    ``silence_s`` without a byte, :class:`openai.APIConnectionError` when no connection is made; and
    :class:`StreamBroke` when the connection breaks during the stream.
    """
    options = {"stream_options": {"include_usage": True}} if include_usage else {}
    start = time.monotonic()
    stream = client.chat.completions.create(
        **request, **options, stream=True, timeout=timeout(silence_s), extra_headers={"Connection": "close"}
    )
    with stream:
        if "text/event-stream" not in stream.response.headers.get("content-type", ""):
            body = stream.response.json() if stream.response.read() else {}
            return Streamed(body, None, time.monotonic() - start, streamed=False)
        content: list[str] = []
        reasoning: list[str] = []
        first: float | None = None
        chunks, finish, model, ident_text, usage = 0, None, None, None, None
        for chunk in _chunks(stream):
            if abandon is not None and abandon():
                raise Abandoned("the run was abandoned: the reply's stream is closed")
            data = chunk.to_dict()
            model, ident_text = data.get("model") or model, data.get("id") or ident_text
            usage = data.get("usage") or usage
            for choice in data.get("choices") or []:
                delta = choice.get("delta") or {}
                pieces = [delta.get("content")] + [delta.get(name) for name in REASONING_FIELDS]
                if any(pieces):
                    first = first if first is not None else time.monotonic() - start
                    chunks += 1
                    if cap is not None:
                        cap.token(ident)
                if delta.get("content"):
                    content.append(delta["content"])
                for name in REASONING_FIELDS:
                    if delta.get(name):
                        reasoning.append(delta[name])
                finish = choice.get("finish_reason") or finish
    total = time.monotonic() - start
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content)}
    if reasoning:
        message["reasoning_content"] = "".join(reasoning)
    counted = not usage
    if counted:
        usage = {"prompt_tokens": 0, "completion_tokens": chunks, "total_tokens": chunks}
    body = {
        "id": ident_text,
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage,
    }
    return Streamed(body, first, total, streamed=True, usage_counted=counted)


def _chunks(stream: openai.Stream[Any]) -> Any:
    """The stream's chunks; a connection that breaks raises :class:`StreamBroke`."""
    try:
        yield from stream
    except openai.APITimeoutError:
        raise
    except openai.APIConnectionError as exc:
        raise StreamBroke(str(exc.__cause__ or exc)) from exc
