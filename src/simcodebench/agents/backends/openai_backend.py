"""The ``openai`` backend: any OpenAI-compatible chat-completions endpoint, through the official SDK, streamed
(:mod:`.streaming`), capped per endpoint (:mod:`.endpoint_cap`).

Transient failures (429, 5xx, silence, connection errors, malformed bodies) are retried with exponential
backoff; they never count as attempts. A 429 or 503 with a ``Retry-After`` header in seconds waits that long
instead (at most :data:`MAX_BACKOFF_S`). The API key is read from the environment and never logged or stored.
"""

from __future__ import annotations

import logging
import math
import os
import random
import re
import time
from collections.abc import Callable
from typing import Any

import openai

from simcodebench.agents.backends.context import (
    CHARS_PER_TOKEN,
    context_window,
    estimate_tokens,
    learn_window,
    names_context,
    stated_window,
)
from simcodebench.agents.backends.endpoint_cap import EndpointCap, endpoint_cap
from simcodebench.agents.backends.reasoning import split_reasoning
from simcodebench.agents.backends.reply import CONTEXT, NO_RESPONSE, OK, Reply
from simcodebench.agents.backends.server_info import server_info, window_in
from simcodebench.agents.backends.streaming import (
    Abandoned,
    StreamBroke,
    Streamed,
    refuses_stream_options,
    stream_chat,
)
from simcodebench.agents.fit_context import fit_estimate
from simcodebench.core.errors import EndpointError, InputError

log = logging.getLogger(__name__)

NO_KEY_PLACEHOLDER = "none"
MAX_BACKOFF_S = 60.0
DEFAULT_TIMEOUT_S = 600.0
"""Seconds a server may stay silent before a request fails (``timeout_s``)."""
MAX_AGAIN = 50
"""Times one request may be asked again without counting a try (queued, or asked another way) before it fails."""
MIN_REPLY_TOKENS = 16
"""The least ``max_tokens`` sent, however little the window leaves."""
PROMPT_MARGIN = 0.25
"""The prompt's estimated tokens are raised by this share before the reply's ceiling is taken from the window:
SmolLM2 cut the fem guide at 2.7 characters a token, 10 % finer than the estimate."""
TOKEN_LIMIT_FIELDS = ("max_tokens", "max_completion_tokens")
REASONING_MODEL = re.compile(r"^(?:openai/)?(?:o\d|gpt-5)", re.IGNORECASE)
"""Model names of OpenAI's reasoning models (optionally behind a router's ``openai/`` prefix)."""


class _Transient(Exception):
    """A failure worth retrying; ``retry_after`` is the wait the endpoint asked for, in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def call_openai(
    agent: dict[str, Any],
    messages: list[dict[str, Any]],
    *,
    agent_name: str,
    seed: int | None,
    abandon: Callable[[], bool] | None = None,
    reply_share: float | None = None,
) -> Reply:
    """Ask an OpenAI-compatible endpoint for one chat completion, streamed, and return it as a :class:`Reply`.

    Agent keys:

    - ``model`` (required): the model name sent to the endpoint.
    - ``base_url``: the endpoint, e.g. ``http://localhost:8000/v1``; default: the SDK default.
    - ``api_key_env``: the environment variable holding the API key (default ``OPENAI_API_KEY``); ``null``
      for a server that needs no key (vLLM, Ollama), which is then sent the placeholder ``"none"``.
    - ``temperature``, ``max_tokens``: sent when set, ``max_tokens`` in the request field
      :func:`token_limit_field` names, lowered to what the context window leaves after the prompt.
    - ``token_limit_field``: ``max_tokens`` or ``max_completion_tokens`` (default: by the model's name).
    - ``seed``: the agent's seed, sent when the call's ``seed`` (the per-sample seed) is None.
    - ``stream``: ask for a stream (default true; false: plain requests only).
    - ``timeout_s``: seconds the server may stay silent (no byte) before the request fails (default 600); a
      streamed reply may run as long as tokens keep coming, a plain one must come whole within it.
    - ``max_retries``: retries after the first request (default 5).
    - ``backoff_s``: first wait between tries (default 2.0), doubling up to 60 s, with up to 10 % jitter.
    - ``price``: ``{prompt_per_1m: USD, completion_per_1m: USD}``; without it ``cost_usd`` is None.
    - ``extra_body``: a dict merged into the request body as is.
    - ``context_tokens``: the model's context window, else learnt from a refusal or read from the server
      (:mod:`simcodebench.agents.backends.context`).

    Requests in flight are capped per endpoint (:mod:`.endpoint_cap`). A request that timed out without a first
    token while the endpoint streamed other replies was queued by the server: it lowers the cap and is asked
    again once there is room (its connection closed meanwhile), without counting as a try. A stream that breaks
    or ends empty before its first token, or is refused, is asked again as a plain request. A 400 that names the
    token-limit field sent (``max_tokens`` or ``max_completion_tokens``) is tried once more with the other
    field.

    A prompt that cannot fit the context window is a :class:`Reply` with status ``"context"`` and its reason,
    not retried: refused before it is sent, or by the endpoint with a 400 or 413 that names the context length
    (a window it states is learnt, and the reply's ``extra.window_tokens`` keeps it).

    ``abandon`` (a run abandoned on a second Ctrl-C) closes a streaming reply at its next chunk;
    ``reply_share`` caps the reply at that share of the window (a role whose reply later prompts embed).

    Raises :class:`InputError` when the key's variable is unset, and :class:`EndpointError` when a request
    fails at once (4xx other than 429), every try failed, or the run was abandoned.
    """
    api_key = _api_key(agent, agent_name)
    request_seed = seed if seed is not None else agent.get("seed")
    request: dict[str, Any] = {"model": agent["model"], "messages": messages}
    if agent.get("temperature") is not None:
        request["temperature"] = agent["temperature"]
    if request_seed is not None:
        request["seed"] = request_seed
    if agent.get("extra_body"):
        request["extra_body"] = agent["extra_body"]
    timeout_s = float(agent.get("timeout_s", DEFAULT_TIMEOUT_S))
    max_retries = int(agent.get("max_retries", 5))
    backoff_s = float(agent.get("backoff_s", 2.0))
    client_args: dict[str, Any] = {"api_key": api_key, "timeout": timeout_s, "max_retries": 0}
    if agent.get("base_url"):
        client_args["base_url"] = agent["base_url"]

    with openai.OpenAI(**client_args) as client:
        endpoint = str(client.base_url)
        where = f"agent '{agent_name}': endpoint {endpoint}, model '{agent['model']}'"
        extra: dict[str, Any] = {"endpoint": endpoint, "seed": request_seed}
        window, estimate = context_window(client, agent), estimate_tokens(messages)
        if window is not None and estimate > window:
            reason = (
                f"the prompt, about {estimate} tokens ({CHARS_PER_TOKEN} characters a token), cannot fit the "
                f"context window of {window} tokens of model '{agent['model']}'; not sent"
            )
            return Reply(status=CONTEXT, reason=reason, extra={**extra, "window_tokens": window})
        limit = reply_ceiling(agent.get("max_tokens"), window, messages, reply_share)
        if limit is not None:
            request[token_limit_field(agent)] = limit
            extra["max_tokens_sent"] = limit
        info = server_info(endpoint, api_key, str(agent["model"]))
        cap = endpoint_cap(endpoint, info.capacity, info.capacity_source)
        ask = _Ask(client, cap, timeout_s, api_key, stream=bool(agent.get("stream", True)), abandon=abandon)
        last_error, field_swapped, failed, again, made = "", False, 0, 0, 0
        while failed <= max_retries:
            made += 1
            try:
                result = ask.once(request)
            except _Again as exc:
                again += 1
                log.warning("%s: %s", where, exc)
                if again > MAX_AGAIN:
                    raise EndpointError(f"{where}: asked again {again} times without a reply; {exc}") from None
                continue
            except _Transient as exc:
                last_error, failed = str(exc), failed + 1
                if failed <= max_retries:
                    wait = _wait(exc.retry_after, backoff_s, failed)
                    log.warning(
                        "%s: %s (try %d of %d); retrying in %.1f s", where, last_error, failed, max_retries + 1, wait
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
                    stated = window_in(exc.message)
                    if stated is not None:
                        learn_window(endpoint, str(agent["model"]), stated)
                        extra["window_tokens"] = stated
                    reason = (
                        f"the endpoint refused the prompt for the model's context window: {_status_text(exc, api_key)}"
                    )
                    return Reply(status=CONTEXT, reason=reason, tries=made, extra=extra)
                raise EndpointError(
                    f"{where}: {_status_text(exc, api_key)}, not retried; tries: {made}; "
                    f"{_hint(exc.status_code, agent_name)}"
                ) from None
            cap.replied()
            return _reply(result, made, agent, extra)
    raise EndpointError(f"{where}: every try failed; tries: {made}; last error: {last_error}")


def reply_ceiling(
    max_tokens: Any, window: int | None, messages: list[dict[str, Any]], share: float | None = None
) -> int | None:
    """The ``max_tokens`` to send: the setting, lowered to what ``window`` leaves after the prompt (its tokens
    estimated at :data:`~simcodebench.agents.fit_context.FIT_CHARS_PER_TOKEN` characters a token, plus
    :data:`PROMPT_MARGIN` of that, since some prompts, such as the fem guide, cut finer), and to ``share`` of the
    window when given; never below :data:`MIN_REPLY_TOKENS`; None when unset."""
    if max_tokens is None:
        return None
    if window is None:
        return int(max_tokens)
    prompt = fit_estimate([{"content": str(m.get("content") or "")} for m in messages])
    ceiling = min(int(max_tokens), window - math.ceil(prompt * (1 + PROMPT_MARGIN)))
    if share is not None:
        ceiling = min(ceiling, int(window * share))
    return max(MIN_REPLY_TOKENS, ceiling)


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


class _Again(Exception):
    """Ask again at once without counting a try: the request was asked in a way the server does not take (a
    stream, ``stream_options``), or it was queued (``queued``: it timed out without a first token while the
    endpoint streamed others), and then only once there is room under the lowered cap."""

    def __init__(self, message: str, queued: bool = False) -> None:
        super().__init__(message)
        self.queued = queued


class _Ask:
    """Asks one request, streamed where the server streams, holding a place under the endpoint's cap."""

    def __init__(
        self,
        client: openai.OpenAI,
        cap: EndpointCap,
        timeout_s: float,
        api_key: str,
        stream: bool,
        abandon: Callable[[], bool] | None = None,
    ) -> None:
        self.client, self.cap, self.timeout_s, self.api_key = client, cap, timeout_s, api_key
        self.stream, self.include_usage, self.abandon = stream, True, abandon

    def once(self, request: dict[str, Any]) -> Streamed:
        """One HTTP request: the reply read whole; retryable failures raise :class:`_Transient`, a queued one
        :class:`_Queued`, a refusal the SDK's :class:`openai.APIStatusError`."""
        with self.cap.slot() as ident:
            sent = time.monotonic()
            try:
                if self.stream:
                    result = stream_chat(
                        self.client, request, self.timeout_s, self.cap, ident, self.include_usage, self.abandon
                    )
                else:
                    result = self._plain(request)
            except openai.APIStatusError as exc:
                if self.stream and refuses_stream_options(exc) and self.include_usage:
                    self.include_usage = False
                    raise _Again(f"{_status_text(exc, self.api_key)}; asked again without stream_options") from None
                if self.stream and exc.status_code in (400, 422) and "stream" in exc.message.lower():
                    self.stream = False
                    raise _Again(f"{_status_text(exc, self.api_key)}; asked again without streaming") from None
                if exc.status_code in (429, 503):
                    self.cap.refused(ident, f"HTTP {exc.status_code}")
                if exc.status_code == 429 or exc.status_code >= 500:
                    raise _Transient(_status_text(exc, self.api_key), _retry_after(exc)) from None
                raise
            except openai.APITimeoutError:
                if self.stream and not self.cap.got_token(ident) and self.cap.streamed_since(sent):
                    self.cap.queued(ident)
                    raise _Again(
                        f"no first token in {self.timeout_s:g} s while the server streamed others", True
                    ) from None
                raise _Transient(f"timed out: no byte from the server in {self.timeout_s:g} s") from None
            except Abandoned as exc:
                raise EndpointError(str(exc)) from None
            except StreamBroke as exc:
                why = _scrub(str(exc), self.api_key)
                if not self.cap.got_token(ident):
                    self.stream = False
                    raise _Again(f"the stream broke before its first token ({why}); asked again plain") from None
                raise _Transient(f"the stream broke ({why})") from None
            except openai.APIConnectionError as exc:
                raise _Transient(f"connection error ({_scrub(str(exc.__cause__ or exc), self.api_key)})") from None
            except ValueError:
                raise _Transient("malformed body (not JSON)") from None
        body = result.body
        choices = body.get("choices") if isinstance(body, dict) else None
        if not (
            isinstance(choices, list)
            and choices
            and isinstance(choices[0], dict)
            and isinstance(choices[0].get("message"), dict)
        ):
            raise _Transient("malformed body (no choices[0].message)")
        if result.streamed and result.first_token_s is None and not choices[0].get("finish_reason"):
            self.stream = False
            raise _Again("the stream ended without a token or a finish reason; asked again plain")
        return result

    def _plain(self, request: dict[str, Any]) -> Streamed:
        """The request without streaming: its body and wall time."""
        start = time.monotonic()
        response = self.client.chat.completions.with_raw_response.create(**request)
        body = response.http_response.json()
        return Streamed(body, None, time.monotonic() - start, streamed=False)


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


def _reply(result: Streamed, tries: int, agent: dict[str, Any], extra: dict[str, Any]) -> Reply:
    """Build the :class:`Reply` from a valid chat-completion body and its timing."""
    body = result.body
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
    if result.usage_counted:
        extra = {**extra, "usage_counted_from_chunks": True}
    return Reply(
        status=OK if text else NO_RESPONSE,
        text=text,
        model=body.get("model"),
        usage=usage,
        latency_s=result.total_s,
        cost_usd=cost,
        tries=tries,
        finish_reason=choice.get("finish_reason"),
        reasoning=reasoning,
        raw=body,
        extra=extra,
        streamed=result.streamed,
        first_token_s=result.first_token_s,
        tokens_per_s=tokens_per_second(usage["completion_tokens"], result.total_s, result.first_token_s),
    )


def tokens_per_second(tokens: int, total_s: float, first_token_s: float | None) -> float | None:
    """Completion tokens a second: after the first token for a stream (the generation's own pace), over the whole
    request for a plain reply; None without tokens or time."""
    span = total_s - (first_token_s or 0.0)
    return tokens / span if tokens > 0 and span > 0 else None


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
