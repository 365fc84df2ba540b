"""What a local model server says about itself: how many requests it serves at once and its context window.

Each server says it somewhere else, and most say only one of the two; every probe is one short GET (or POST) that
is allowed to fail, and what was read is named in the result's ``source``:

- the llama.cpp server (``llama-server``): ``GET /props`` gives ``total_slots`` (requests served at once) and
  ``default_generation_settings.n_ctx`` (the context of one slot); ``GET /slots`` lists the slots, each with its
  ``n_ctx``, where ``/props`` is not there;
- llama-cpp-python's server (``python -m llama_cpp.server``, what ``make llm-server`` builds): ``GET
  /openapi.json`` is titled "llama.cpp Python API"; it generates one reply at a time (a lock is held around every
  generation, and with its default ``interrupt_requests`` a second request even cuts the first one short), so its
  capacity is 1; it states its window only when it refuses a prompt, so it is asked to refuse one that is longer
  than any window (:data:`PROBE_WORDS` words, ``max_tokens`` 1): it counts the tokens, refuses with "maximum
  context length is N tokens" and evaluates none;
- vLLM: ``GET /v1/models`` gives ``max_model_len``; ``GET /metrics`` names vLLM (``vllm:`` metrics) and, where an
  info metric carries a ``max_num_seqs`` label, the requests it batches at once;
- Ollama: ``GET /api/ps`` gives the ``context_length`` of a loaded model, else ``POST /api/show`` its ``num_ctx``
  parameter (Ollama cuts a longer prompt silently rather than refusing it, so its window matters most);
- LM Studio: ``GET /api/v0/models`` gives each model's ``loaded_context_length`` (else ``max_context_length``).

Results are kept per process and endpoint (:func:`server_info`).
"""

from __future__ import annotations

import functools
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

PROBE_TIMEOUT_S = 3.0
PROBE_WORDS = 1 << 20
"""Words of the prompt that llama-cpp-python's server is asked to refuse (a token or more each: over any window)."""
REFUSAL_TIMEOUT_S = 30.0
LLAMA_CPP_PYTHON_TITLE = "llama.cpp Python API"
_MAX_NUM_SEQS = re.compile(r'^vllm:[a-z_]*info\{[^}]*max_num_seqs="(\d+)"', re.MULTILINE)
_OLLAMA_NUM_CTX = re.compile(r"^num_ctx\s+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class ServerInfo:
    """Requests served at once and the context window, each with where it was read (None: not said)."""

    capacity: int | None = None
    capacity_source: str | None = None
    window: int | None = None
    window_source: str | None = None


def root_url(base_url: str) -> str:
    """The server's root: ``base_url`` without its trailing ``/v1``."""
    base = base_url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def _get(url: str, api_key: str | None, body: dict[str, Any] | None = None) -> tuple[str, Any] | None:
    """``(text, parsed JSON or None)`` of a GET (a POST with ``body``), or None when it fails or is not a 200."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    data = None
    if body is not None:
        data, headers = json.dumps(body).encode(), {**headers, "Content-Type": "application/json"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=PROBE_TIMEOUT_S) as reply:
            if reply.status != 200:
                return None
            text = reply.read(2_000_000).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError):
        return None
    try:
        return text, json.loads(text)
    except ValueError:
        return text, None


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _llama_server(root: str, api_key: str | None) -> ServerInfo | None:
    """llama.cpp's ``/props`` (else ``/slots``)."""
    got = _get(f"{root}/props", api_key)
    props = got[1] if got else None
    if isinstance(props, dict) and ("total_slots" in props or "default_generation_settings" in props):
        settings = props.get("default_generation_settings") or {}
        window = _positive(settings.get("n_ctx")) or _positive(props.get("n_ctx"))
        slots = _positive(props.get("total_slots"))
        return ServerInfo(
            slots,
            "llama.cpp server GET /props total_slots" if slots else None,
            window,
            "llama.cpp server GET /props default_generation_settings.n_ctx" if window else None,
        )
    got = _get(f"{root}/slots", api_key)
    slots_list = got[1] if got else None
    if isinstance(slots_list, list) and slots_list and all(isinstance(s, dict) for s in slots_list):
        window = _positive(slots_list[0].get("n_ctx"))
        return ServerInfo(
            len(slots_list),
            "llama.cpp server GET /slots (one entry per slot)",
            window,
            "llama.cpp server GET /slots n_ctx" if window else None,
        )
    return None


def _llama_cpp_python(root: str, api_key: str | None, model: str) -> ServerInfo | None:
    """llama-cpp-python's server: one at a time, and the window its refusal of :func:`_refused_window` states."""
    got = _get(f"{root}/openapi.json", api_key)
    spec = got[1] if got else None
    title = ((spec or {}).get("info") or {}).get("title", "") if isinstance(spec, dict) else ""
    if LLAMA_CPP_PYTHON_TITLE not in str(title):
        return None
    window = _refused_window(root, api_key, model)
    return ServerInfo(
        1,
        "llama-cpp-python server (GET /openapi.json): it generates one reply at a time",
        window,
        "llama-cpp-python's refusal of a prompt longer than any window (POST /v1/chat/completions)" if window else None,
    )


_STATED = re.compile(
    r"maximum context length is (\d+)|context window of (\d+)|context (?:size|length) (?:of|is) (\d+)"
    r"|\bn_ctx\W{0,4}(\d+)",
    re.IGNORECASE,
)


def window_in(message: str) -> int | None:
    """The window a refusal states ("maximum context length is 8192 tokens", llama.cpp's "n_ctx": 8192), if any."""
    found = _STATED.search(message)
    if found is None:
        return None
    return int(next(group for group in found.groups() if group))


def _refused_window(root: str, api_key: str | None, model: str) -> int | None:
    """The window llama-cpp-python's server states when it refuses a prompt of :data:`PROBE_WORDS` words: it
    counts the prompt's tokens and refuses before any is evaluated, so the probe costs the tokenizing alone."""
    body = {"model": model, "max_tokens": 1, "messages": [{"role": "user", "content": "x " * PROBE_WORDS}]}
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {api_key}"} if api_key else {})}
    request = urllib.request.Request(f"{root}/v1/chat/completions", json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=REFUSAL_TIMEOUT_S):
            return None
    except urllib.error.HTTPError as exc:
        return window_in(exc.read(100_000).decode("utf-8", "replace")) if exc.code == 400 else None
    except (urllib.error.URLError, OSError, ValueError):
        return None


def _vllm_capacity(root: str, api_key: str | None) -> ServerInfo | None:
    got = _get(f"{root}/metrics", api_key)
    if not got or "vllm:" not in got[0]:
        return None
    found = _MAX_NUM_SEQS.search(got[0])
    if found:
        return ServerInfo(int(found.group(1)), "vLLM GET /metrics (max_num_seqs)")
    return None


def _listed_window(base_url: str, api_key: str | None, model: str) -> ServerInfo | None:
    """vLLM's ``max_model_len`` in ``GET /v1/models``."""
    got = _get(f"{base_url.rstrip('/')}/models", api_key)
    entries = (got[1] or {}).get("data") if got and isinstance(got[1], dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("id") == model and _positive(entry.get("max_model_len")):
            return ServerInfo(window=entry["max_model_len"], window_source="GET /v1/models max_model_len (vLLM)")
    return None


def _ollama_window(root: str, api_key: str | None, model: str) -> ServerInfo | None:
    got = _get(f"{root}/api/ps", api_key)
    loaded = (got[1] or {}).get("models") if got and isinstance(got[1], dict) else None
    for entry in loaded if isinstance(loaded, list) else []:
        named = isinstance(entry, dict) and model in (entry.get("name"), entry.get("model"))
        if named and _positive(entry.get("context_length")):
            return ServerInfo(window=entry["context_length"], window_source="Ollama GET /api/ps context_length")
    got = _get(f"{root}/api/show", api_key, {"model": model})
    shown = got[1] if got and isinstance(got[1], dict) else None
    if shown is not None:
        found = _OLLAMA_NUM_CTX.search(str(shown.get("parameters") or ""))
        if found:
            return ServerInfo(window=int(found.group(1)), window_source="Ollama POST /api/show parameters num_ctx")
    return None


def _lm_studio_window(root: str, api_key: str | None, model: str) -> ServerInfo | None:
    got = _get(f"{root}/api/v0/models", api_key)
    entries = (got[1] or {}).get("data") if got and isinstance(got[1], dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or entry.get("id") != model:
            continue
        for key in ("loaded_context_length", "max_context_length"):
            if _positive(entry.get(key)):
                return ServerInfo(window=entry[key], window_source=f"LM Studio GET /api/v0/models {key}")
    return None


@functools.lru_cache(maxsize=32)
def server_info(base_url: str, api_key: str | None, model: str) -> ServerInfo:
    """What the server at ``base_url`` says of its capacity and of ``model``'s window (module docstring), read
    once per process."""
    root = root_url(base_url)
    capacity = _llama_server(root, api_key) or _llama_cpp_python(root, api_key, model) or _vllm_capacity(root, api_key)
    found = capacity or ServerInfo()
    if found.window is None:
        window = (
            _listed_window(base_url, api_key, model)
            or _ollama_window(root, api_key, model)
            or _lm_studio_window(root, api_key, model)
        )
        if window is not None:
            found = ServerInfo(found.capacity, found.capacity_source, window.window, window.window_source)
    return found
