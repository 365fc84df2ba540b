"""The ``openai`` backend: any OpenAI-compatible chat-completions endpoint, through the official SDK.

Transient failures (429, 5xx, timeouts, connection errors, malformed bodies) are retried with exponential
backoff; they never count as attempts. A 429 or 503 with a ``Retry-After`` header in seconds waits that long
instead (at most :data:`MAX_BACKOFF_S`). The API key is read from the environment and never logged or stored.
"""

from __future__ import annotations

import logging
import os
import random
import re
import time
from typing import Any

import openai

from simcodebench.agents.backends.context import (
    CHARS_PER_TOKEN,
    context_window,
    estimate_tokens,
    names_context,
    stated_window,
)
from simcodebench.agents.backends.reasoning import split_reasoning
from simcodebench.agents.backends.reply import CONTEXT, NO_RESPONSE, OK, Reply
from simcodebench.core.errors import EndpointError, InputError

log = logging.getLogger(__name__)

NO_KEY_PLACEHOLDER = "none"
MAX_BACKOFF_S = 60.0
TOKEN_LIMIT_FIELDS = ("max_tokens", "max_completion_tokens")
REASONING_MODEL = re.compile(r"^(?:openai/)?(?:o\d|gpt-5)", re.IGNORECASE)
"""Model names of OpenAI's reasoning models (optionally behind a router's ``openai/`` prefix)."""


class _Transient(Exception):
    """A failure worth retrying; ``retry_after`` is the wait the endpoint asked for, in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def call_openai(agent: dict[str, Any], messages: list[dict[str, Any]], *, agent_name: str, seed: int | None) -> Reply:
    """Ask an OpenAI-compatible endpoint for one chat completion and return it as a :class:`Reply`.

    Agent keys:

    - ``model`` (required): the model name sent to the endpoint.
    - ``base_url``: the endpoint, e.g. ``http://localhost:8000/v1``; default: the SDK default.
    - ``api_key_env``: the environment variable holding the API key (default ``OPENAI_API_KEY``); ``null``
      for a server that needs no key (vLLM, Ollama), which is then sent the placeholder ``"none"``.
    - ``temperature``, ``max_tokens``: sent when set, ``max_tokens`` in the request field
      :func:`token_limit_field` names.
    - ``token_limit_field``: ``max_tokens`` or ``max_completion_tokens`` (default: by the model's name).
    - ``seed``: the agent's seed, sent when the call's ``seed`` (the per-sample seed) is None.
    - ``timeout_s``: per-request timeout (default 600).
    - ``max_retries``: retries after the first request (default 5).
    - ``backoff_s``: first wait between tries (default 2.0), doubling up to 60 s, with up to 10 % jitter.
    - ``price``: ``{prompt_per_1m: USD, completion_per_1m: USD}``; without it ``cost_usd`` is None.
    - ``extra_body``: a dict merged into the request body as is.
    - ``context_tokens``: the model's context window, else read from the server where it reports it
      (:mod:`simcodebench.agents.backends.context`).

    A 400 that names the token-limit field sent (``max_tokens`` or ``max_completion_tokens``) is tried once
    more with the other field.

    A prompt that cannot fit the context window is a :class:`Reply` with status ``"context"`` and its reason,
    not retried: refused before it is sent, or by the endpoint with a 400 or 413 that names the context length.

    Raises :class:`InputError` when the key's variable is unset, and :class:`EndpointError` when a request
    fails at once (4xx other than 429) or every try failed.
    """
    api_key = _api_key(agent, agent_name)
    request_seed = seed if seed is not None else agent.get("seed")
    request: dict[str, Any] = {"model": agent["model"], "messages": messages}
    if agent.get("temperature") is not None:
        request["temperature"] = agent["temperature"]
    if agent.get("max_tokens") is not None:
        request[token_limit_field(agent)] = agent["max_tokens"]
    if request_seed is not None:
        request["seed"] = request_seed
    if agent.get("extra_body"):
        request["extra_body"] = agent["extra_body"]
    timeout_s = float(agent.get("timeout_s", 600))
    max_retries = int(agent.get("max_retries", 5))
    backoff_s = float(agent.get("backoff_s", 2.0))
    client_args: dict[str, Any] = {"api_key": api_key, "timeout": timeout_s, "max_retries": 0}
    if agent.get("base_url"):
        client_args["base_url"] = agent["base_url"]

    with openai.OpenAI(**client_args) as client:
        endpoint = str(client.base_url)
        where = f"agent '{agent_name}': endpoint {endpoint}, model '{agent['model']}'"
        window, estimate = context_window(client, agent), estimate_tokens(messages)
        if window is not None and estimate > window:
            reason = (
                f"the prompt, about {estimate} tokens ({CHARS_PER_TOKEN} characters a token), cannot fit the "
                f"context window of {window} tokens of model '{agent['model']}'; not sent"
            )
            return Reply(status=CONTEXT, reason=reason, extra={"endpoint": endpoint, "seed": request_seed})
        last_error, field_swapped = "", False
        for tries in range(1, max_retries + 2):
            try:
                body, latency_s = _request(client, request, timeout_s, api_key)
            except _Transient as exc:
                last_error = str(exc)
                if tries <= max_retries:
                    wait = _wait(exc.retry_after, backoff_s, tries)
                    log.warning(
                        "%s: %s (try %d of %d); retrying in %.1f s",
                        where,
                        last_error,
                        tries,
                        max_retries + 1,
                        wait,
                    )
                    time.sleep(wait)
                continue
            except openai.APIStatusError as exc:
                swapped = None if field_swapped else _swap_token_field(request, exc.status_code, exc.message)
                if swapped is not None:
                    log.warning("%s: %s; trying the other token-limit field", where, _status_text(exc, api_key))
                    request, field_swapped = swapped, True
                    continue
                if names_context(exc.status_code, exc.message):
                    reason = (
                        f"the endpoint refused the prompt for the model's context window: {_status_text(exc, api_key)}"
                    )
                    return Reply(
                        status=CONTEXT, reason=reason, tries=tries, extra={"endpoint": endpoint, "seed": request_seed}
                    )
                raise EndpointError(
                    f"{where}: {_status_text(exc, api_key)}, not retried; tries: {tries}; "
                    f"{_hint(exc.status_code, agent_name)}"
                ) from None
            return _reply(body, latency_s, tries, agent, endpoint, request_seed)
    raise EndpointError(f"{where}: every try failed; tries: {tries}; last error: {last_error}")


def context_tokens(agent: dict[str, Any], agent_name: str) -> int | None:
    """The agent's context window in tokens (``context_tokens``, else the ``n_ctx`` of the server the harness
    serves it from, else the server's ``max_model_len``, read once per process); None when none says."""
    stated = stated_window(agent)
    if stated is not None:
        return stated
    client_args: dict[str, Any] = {"api_key": _api_key(agent, agent_name), "timeout": 10.0, "max_retries": 0}
    if agent.get("base_url"):
        client_args["base_url"] = agent["base_url"]
    with openai.OpenAI(**client_args) as client:
        return context_window(client, agent)


def token_limit_field(agent: dict[str, Any]) -> str:
    """The request field that carries ``max_tokens``: the agent's ``token_limit_field``, else
    ``max_completion_tokens`` for OpenAI's reasoning models (o1, o3, o4-mini, ... and gpt-5), which refuse
    ``max_tokens`` (OpenAI's API reference deprecates it for them), else ``max_tokens``, which every
    OpenAI-compatible server reads."""
    if agent.get("token_limit_field"):
        return str(agent["token_limit_field"])
    return "max_completion_tokens" if REASONING_MODEL.match(str(agent["model"])) else "max_tokens"


def _swap_token_field(request: dict[str, Any], status_code: int, message: str) -> dict[str, Any] | None:
    """The request with its token limit in the other field, when a 400 names the field it was sent in; else
    None."""
    sent = [name for name in TOKEN_LIMIT_FIELDS if name in request]
    if status_code != 400 or len(sent) != 1 or sent[0] not in message:
        return None
    (other,) = set(TOKEN_LIMIT_FIELDS) - set(sent)
    return {**{k: v for k, v in request.items() if k != sent[0]}, other: request[sent[0]]}


def _api_key(agent: dict[str, Any], agent_name: str) -> str:
    """The API key named by ``api_key_env``, or the placeholder when it is null."""
    variable = agent.get("api_key_env", "OPENAI_API_KEY")
    if variable is None:
        return NO_KEY_PLACEHOLDER
    key = os.environ.get(variable)
    if not key:
        raise InputError(
            "config",
            f"agents.{agent_name}.api_key_env",
            f"names the environment variable {variable}, which is not set",
            f"export {variable}=<your API key>, or set api_key_env: null for a server that needs no key",
        )
    return key


def _request(
    client: openai.OpenAI, request: dict[str, Any], timeout_s: float, api_key: str
) -> tuple[dict[str, Any], float]:
    """One HTTP request: the parsed body and its wall time; retryable failures raise :class:`_Transient`."""
    start = time.monotonic()
    try:
        response = client.chat.completions.with_raw_response.create(**request)
        latency_s = time.monotonic() - start
        body = response.http_response.json()
    except openai.APIStatusError as exc:
        if exc.status_code == 429 or exc.status_code >= 500:
            raise _Transient(_status_text(exc, api_key), _retry_after(exc)) from None
        raise
    except openai.APITimeoutError:
        raise _Transient(f"timed out after {timeout_s:g} s") from None
    except openai.APIConnectionError as exc:
        raise _Transient(f"connection error ({_scrub(str(exc.__cause__ or exc), api_key)})") from None
    except ValueError:
        raise _Transient("malformed body (not JSON)") from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not (
        isinstance(choices, list)
        and choices
        and isinstance(choices[0], dict)
        and isinstance(choices[0].get("message"), dict)
    ):
        raise _Transient("malformed body (no choices[0].message)")
    return body, latency_s


def _retry_after(exc: openai.APIStatusError) -> float | None:
    """The seconds of a 429's or 503's ``Retry-After`` header; None without one, or when it is not a number
    of seconds (an HTTP date is left to the backoff)."""
    if exc.status_code not in (429, 503):
        return None
    try:
        seconds = float(exc.response.headers.get("retry-after", ""))
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _wait(retry_after: float | None, backoff_s: float, tries: int) -> float:
    """Seconds to wait before the next try: the endpoint's ``Retry-After`` when it gave one, else the
    exponential backoff with up to 10 % jitter; at most :data:`MAX_BACKOFF_S` either way."""
    if retry_after is not None:
        return min(retry_after, MAX_BACKOFF_S)
    return min(backoff_s * 2 ** (tries - 1), MAX_BACKOFF_S) * (1 + 0.1 * random.random())


def _reply(
    body: dict[str, Any],
    latency_s: float,
    tries: int,
    agent: dict[str, Any],
    endpoint: str,
    request_seed: int | None,
) -> Reply:
    """Build the :class:`Reply` from a valid chat-completion body."""
    choice = body["choices"][0]
    reasoning, text = split_reasoning(choice["message"])
    given = body.get("usage") or {}
    usage = {name: int(given.get(name) or 0) for name in ("prompt_tokens", "completion_tokens")}
    usage["total_tokens"] = int(given.get("total_tokens") or sum(usage.values()))
    price = agent.get("price")
    cost = None
    if price:
        cost = (
            usage["prompt_tokens"] * price["prompt_per_1m"] + usage["completion_tokens"] * price["completion_per_1m"]
        ) / 1e6
    return Reply(
        status=OK if text else NO_RESPONSE,
        text=text,
        model=body.get("model"),
        usage=usage,
        latency_s=latency_s,
        cost_usd=cost,
        tries=tries,
        finish_reason=choice.get("finish_reason"),
        reasoning=reasoning,
        raw=body,
        extra={"endpoint": endpoint, "seed": request_seed},
    )


def _status_text(exc: openai.APIStatusError, api_key: str) -> str:
    """``HTTP <code>: <message>`` on one line, without the key."""
    return f"HTTP {exc.status_code}: {_scrub(exc.message, api_key)}"


def _scrub(text: str, api_key: str) -> str:
    """One line of at most 300 characters with the API key masked."""
    if api_key != NO_KEY_PLACEHOLDER:
        text = text.replace(api_key, "***")
    line = " ".join(text.split())
    return line if len(line) <= 300 else line[:297] + "..."


def _hint(status_code: int, agent_name: str) -> str:
    """What to check for a request the endpoint refused."""
    if status_code in (401, 403):
        return f"check the key named by agents.{agent_name}.api_key_env"
    if status_code == 404:
        return f"check agents.{agent_name}.base_url and agents.{agent_name}.model"
    return f"check the request settings of agents.{agent_name}"
