"""The endpoint checked before any sample is spent: the key, the server, the model, and one 1-token chat reply.

Each failure is one :class:`InputError` line naming the option to change (``--base-url``, ``--api-key-env`` or
``--model``) and how."""

from __future__ import annotations

import os

import openai

from simcodebench.agents.backends.openai_backend import NO_KEY_PLACEHOLDER, token_limit_field
from simcodebench.core.errors import InputError
from simcodebench.run.eval_config import COMMAND_LINE

LIST_TIMEOUT_S = 20.0
CHAT_TIMEOUT_S = 120.0
"""The 1-token reply may wait for a local server to load its model."""
SHOWN_MODELS = 5
EXAMPLE_URL = "http://localhost:8000/v1"


def api_key(api_key_env: str | None) -> str:
    """The key held by the variable ``api_key_env``, or the no-key placeholder when it is None."""
    if api_key_env is None:
        return NO_KEY_PLACEHOLDER
    key = os.environ.get(api_key_env)
    if not key:
        raise InputError(
            COMMAND_LINE,
            "--api-key-env",
            f"the variable {api_key_env} is not set",
            f"export {api_key_env}=<your API key>, or leave --api-key-env out for a server that needs no key",
        )
    return key


def preflight(agent: dict[str, object]) -> list[str]:
    """Check the agent's endpoint with one model listing and one 1-token chat request; return the served models.

    Raises :class:`InputError` for a missing key variable, a URL that is not an OpenAI-compatible server, a
    refused key, a model the server does not serve, or a model that cannot answer a chat request.
    """
    base_url, model = str(agent["base_url"]), str(agent["model"])
    key_env = agent.get("api_key_env")
    key = api_key(str(key_env) if key_env else None)
    with openai.OpenAI(api_key=key, base_url=base_url, timeout=LIST_TIMEOUT_S, max_retries=1) as client:
        served = _served_models(client, base_url, key_env)
        if served and model not in served:
            more = len(served) - SHOWN_MODELS
            shown = ", ".join(served[:SHOWN_MODELS]) + (f" and {more} more" if more > 0 else "")
            raise InputError(
                COMMAND_LINE, "--model", f"'{model}' is not served by {base_url}", f"use one it serves: {shown}"
            )
        _chat_once(client.with_options(timeout=CHAT_TIMEOUT_S), agent, key_env)
    return served


def _served_models(client: openai.OpenAI, base_url: str, key_env: object) -> list[str]:
    """The ids ``GET /models`` lists."""
    try:
        return sorted(str(m.id) for m in client.models.list())
    except openai.APIStatusError as exc:
        if exc.status_code in (401, 403):
            raise _key_error(base_url, exc, key_env) from None
        raise _not_openai(base_url, f"answered HTTP {exc.status_code} to GET /models") from None
    except openai.APIConnectionError as exc:
        raise InputError(
            COMMAND_LINE,
            "--base-url",
            f"cannot reach {base_url} ({exc.__cause__ or exc})",
            "start the server, or give its address and port",
        ) from None
    except (openai.APIError, ValueError, TypeError, AttributeError):
        raise _not_openai(base_url, "did not answer GET /models with a model list") from None


def _chat_once(client: openai.OpenAI, agent: dict[str, object], key_env: object) -> None:
    """One chat request for one token: a model that lists but cannot chat fails here."""
    base_url, model = str(agent["base_url"]), str(agent["model"])
    limit = {token_limit_field(dict(agent)): 1}
    try:
        client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Say OK."}], **limit)
    except openai.APIStatusError as exc:
        if exc.status_code in (401, 403):
            raise _key_error(base_url, exc, key_env) from None
        raise InputError(
            COMMAND_LINE,
            "--model",
            f"'{model}' did not answer a 1-token chat request at {base_url} (HTTP {exc.status_code}: {exc.message})",
            "give a chat model the server serves, or check the server's log",
        ) from None
    except openai.APIConnectionError as exc:
        raise InputError(
            COMMAND_LINE,
            "--base-url",
            f"{base_url} listed its models but a chat request failed ({exc.__cause__ or exc})",
            "check the server's log; a slow server may still be loading the model",
        ) from None
    except (openai.APIError, ValueError, TypeError, AttributeError):
        raise _not_openai(base_url, "did not answer POST /chat/completions with a chat completion") from None


def _key_error(base_url: str, exc: openai.APIStatusError, key_env: object) -> InputError:
    """The key was refused: name the variable it came from."""
    if key_env:
        fix = f"export the right key in {key_env}, or name the variable that holds it with --api-key-env"
        where = f"the key in {key_env}"
    else:
        fix = "export the key in a variable and name it with --api-key-env VAR"
        where = "no key"
    return InputError(COMMAND_LINE, "--api-key-env", f"{base_url} refused {where} (HTTP {exc.status_code})", fix)


def _not_openai(base_url: str, what: str) -> InputError:
    """The URL answers, but not as an OpenAI-compatible server."""
    return InputError(
        COMMAND_LINE,
        "--base-url",
        f"{base_url} {what}: it is not an OpenAI-compatible server",
        f"try {base_url.rstrip('/')}/v1"
        if not base_url.rstrip("/").endswith("/v1")
        else f"give the server's OpenAI base URL (e.g. {EXAMPLE_URL}), whose GET /models lists its models",
    )
