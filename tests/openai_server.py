"""A scripted OpenAI chat-completions server on 127.0.0.1, for tests over real HTTP.

Each ``POST /v1/chat/completions`` consumes the next behaviour of :attr:`OpenAIServer.script` (see
:func:`ok`, :func:`status`, :func:`malformed`, :func:`delay`, :func:`stall`); once the script is empty the
server answers with its default behaviour, or with ``responder(request_json)`` (the reply text, or a :func:`ok`
behaviour), or with an echo of the model name and a hash of the last user message. Every request is recorded,
the key's value excepted (POSTs to other paths are answered 404 and not recorded).

A request with ``stream: true`` is answered as server-sent events, one word a chunk, ``gap`` seconds apart,
with a usage chunk when ``stream_options.include_usage`` asks for one, unless :attr:`OpenAIServer.streams` is
False (then it gets the plain JSON body, as a server that does not stream). :attr:`OpenAIServer.slots` makes it
answer that many requests at once and hold the others, silent, until one ends (a one-slot llama.cpp server);
:attr:`OpenAIServer.pages` answers GETs of other paths (``/props``, ``/openapi.json``) with JSON.

Use it as a context manager, or through the ``openai_server`` fixture::

    from openai_server import openai_server_fixture  # noqa: F401
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

CHAT_PATH = "/v1/chat/completions"


@dataclass
class Behaviour:
    """How to answer one request: ``kind`` is ok, status, malformed or delay."""

    kind: str
    text: str | None = None
    model: str | None = None
    usage: dict[str, int] | None = None
    finish_reason: str = "stop"
    code: int = 200
    body: Any = None
    seconds: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    reasoning: str | None = None
    gap: float = 0.0
    stall: float = 0.0


def ok(
    text: str | None = None,
    model: str | None = None,
    usage: dict[str, int] | None = None,
    finish_reason: str = "stop",
    reasoning: str | None = None,
    gap: float = 0.0,
) -> Behaviour:
    """A chat completion; text defaults to the server's default reply, model to the requested one; ``reasoning``
    is sent in the message's ``reasoning_content`` (as vLLM and DeepSeek send it); a stream sends a chunk every
    ``gap`` seconds."""
    return Behaviour(
        "ok", text=text, model=model, usage=usage, finish_reason=finish_reason, reasoning=reasoning, gap=gap
    )


def stall(seconds: float, text: str | None = None, gap: float = 0.0) -> Behaviour:
    """A stream whose headers come at once and whose first chunk comes ``seconds`` later (a plain request:
    its body ``seconds`` later)."""
    return Behaviour("delay", text=text, stall=seconds, gap=gap)


def status(code: int, body: Any = None, headers: dict[str, str] | None = None) -> Behaviour:
    """An HTTP error ``code`` with a JSON ``body`` (default: an OpenAI-style error object) and extra ``headers``
    (e.g. ``Retry-After``)."""
    return Behaviour("status", code=code, body=body, headers=dict(headers or {}))


def malformed(body: Any = "this is not json {") -> Behaviour:
    """A 200 whose body is not a chat completion: a string is sent raw, anything else as JSON."""
    return Behaviour("malformed", body=body)


def delay(seconds: float, text: str | None = None) -> Behaviour:
    """Wait ``seconds``, then answer like :func:`ok`."""
    return Behaviour("delay", text=text, seconds=seconds)


@dataclass
class RecordedRequest:
    """One request as the server saw it; ``headers`` leave out the Authorization value."""

    path: str
    headers: dict[str, str]
    has_authorization: bool
    json: Any


def default_text(request: dict[str, Any]) -> str:
    """``echo <model> <sha256 of the last user message, 12 hex digits>``."""
    users = [m.get("content") or "" for m in request.get("messages", []) if m.get("role") == "user"]
    digest = hashlib.sha256((users[-1] if users else "").encode()).hexdigest()[:12]
    return f"echo {request.get('model')} {digest}"


@dataclass
class OpenAIServer:
    """The scripted server; :meth:`start` it, point a client at :attr:`url`, and :meth:`stop` it."""

    default: Behaviour = field(default_factory=ok)
    responder: Callable[[dict[str, Any]], str | Behaviour] | None = None
    script: list[Behaviour] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    windows: dict[str, int] = field(default_factory=dict)
    """``GET /v1/models`` lists these models with their ``max_model_len``, as vLLM does (not recorded)."""
    key: str | None = None
    """When set, a request without ``Authorization: Bearer <key>`` is answered 401, as OpenAI answers a wrong key."""
    in_flight: int = 0
    """Requests being answered now."""
    peak_in_flight: int = 0
    """The most requests answered at once so far."""
    streams: bool = True
    """Whether a request asking for a stream gets one (else the plain body)."""
    slots: int | None = None
    """Requests answered at once; the others wait, silent, in a queue (None: no limit)."""
    pages: dict[str, Any] = field(default_factory=dict)
    """Answers to GETs of other paths than ``/v1/models`` (e.g. ``/props``): JSON, or a string sent as is."""
    disconnects: int = 0
    """Streams the client left before their end."""
    arrived: int = 0
    """Requests open now, waiting for a slot or answered."""
    peak_arrived: int = 0
    """The most requests open at once so far (waiting for a slot or answered)."""

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._slots = threading.Semaphore(self.slots) if self.slots else None

    @property
    def url(self) -> str:
        """The base URL to give a client, ending in ``/v1``."""
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def count(self) -> int:
        """How many requests arrived."""
        with self._lock:
            return len(self.requests)

    def queue(self, *behaviours: Behaviour) -> None:
        """Append behaviours to the script."""
        with self._lock:
            self.script.extend(behaviours)

    def start(self) -> OpenAIServer:
        """Listen on a free port of 127.0.0.1 in a daemon thread."""
        self._httpd = _Server(("127.0.0.1", 0), _handler(self))
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop listening."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Hold a slot (waiting for one when :attr:`slots` are all busy) and count the request in flight."""
        with self._lock:
            self.arrived += 1
            self.peak_arrived = max(self.peak_arrived, self.arrived)
        if self._slots is not None:
            self._slots.acquire()
        with self._lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            yield
        finally:
            with self._lock:
                self.in_flight -= 1
                self.arrived -= 1
            if self._slots is not None:
                self._slots.release()

    def answer(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, Any, dict[str, str]]:
        """Record one request; return the status, body (bytes, or a list of ``(wait, event)`` of a stream) and
        extra headers."""
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        kept = {k: v for k, v in headers.items() if k.lower() != "authorization"}
        if path != CHAT_PATH:  # a client's probe of another server's API (Ollama's /api/show): not recorded
            return 404, _dumps({"error": {"message": f"no route {path}", "type": "not_found"}}), {}
        with self._lock:
            self.requests.append(RecordedRequest(path, kept, len(kept) < len(headers), request))
            if not self.authorised(headers):
                return 401, _UNAUTHORISED, {}
            if path != CHAT_PATH or not isinstance(request, dict):
                return 404, _dumps({"error": {"message": f"no route {path}", "type": "not_found"}}), {}
            behaviour = self.script.pop(0) if self.script else self.default
        if behaviour.kind == "status":
            body = behaviour.body or {
                "error": {"message": f"scripted error {behaviour.code}", "type": "server_error", "code": None}
            }
            return behaviour.code, _dumps(body), behaviour.headers
        if behaviour.kind == "malformed":
            body = behaviour.body
            return 200, body.encode() if isinstance(body, str) else _dumps(body), {}
        time.sleep(behaviour.seconds)
        completion = self._completion(behaviour, request)
        if not (request.get("stream") and self.streams):
            time.sleep(behaviour.stall)
            return 200, _dumps(completion), {}
        return 200, _events(completion, behaviour, request), {}

    def authorised(self, headers: dict[str, str]) -> bool:
        """Whether ``headers`` carry the :attr:`key` (always, when there is none)."""
        sent = {k.lower(): v for k, v in headers.items()}.get("authorization")
        return self.key is None or sent == f"Bearer {self.key}"

    def models(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """The answer to a GET: the model list at ``/v1/models``, else 404; 401 without the :attr:`key`."""
        if not self.authorised(headers or {}):
            return 401, _UNAUTHORISED
        if path in self.pages:
            page = self.pages[path]
            return 200, page.encode() if isinstance(page, str) else _dumps(page)
        if path != "/v1/models":
            return 404, _dumps({"error": {"message": f"no route {path}", "type": "not_found"}})
        data = [{"id": m, "object": "model", "owned_by": "test", "max_model_len": n} for m, n in self.windows.items()]
        return 200, _dumps({"object": "list", "data": data})

    def _completion(self, behaviour: Behaviour, request: dict[str, Any]) -> dict[str, Any]:
        """A chat-completion body for ``request``."""
        if behaviour.text is not None:
            text = behaviour.text
        elif self.responder is not None:
            answer = self.responder(request)
            behaviour, text = (answer, answer.text or "") if isinstance(answer, Behaviour) else (behaviour, answer)
        else:
            text = default_text(request)
        prompt = sum(len(str(m.get("content") or "").split()) for m in request.get("messages", []))
        usage = behaviour.usage or {
            "prompt_tokens": prompt,
            "completion_tokens": len(text.split()),
            "total_tokens": prompt + len(text.split()),
        }
        return {
            "id": f"chatcmpl-test-{self.count}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": behaviour.model or request.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "reasoning_content": behaviour.reasoning},
                    "finish_reason": behaviour.finish_reason,
                }
            ],
            "usage": usage,
        }


class _Server(ThreadingHTTPServer):
    """A threading server whose listen backlog holds many clients connecting at once (a run's whole cap)."""

    request_queue_size = 256
    daemon_threads = True


def _dumps(data: Any) -> bytes:
    return json.dumps(data).encode()


def _events(completion: dict[str, Any], behaviour: Behaviour, request: dict[str, Any]) -> list[tuple[float, bytes]]:
    """The server-sent events of ``completion``: a role chunk at once, then one word a chunk (the first after
    ``stall``, the others ``gap`` apart), a finish chunk, a usage chunk when asked for, and ``[DONE]``."""
    message = completion["choices"][0]["message"]
    base = {"id": completion["id"], "object": "chat.completion.chunk", "created": completion["created"]}
    base["model"] = completion["model"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return b"data: " + _dumps({**base, "choices": [choice]}) + b"\n\n"

    events = [(0.0, chunk({"role": "assistant"}))]
    pieces = [("reasoning_content", message["reasoning_content"])] if message.get("reasoning_content") else []
    pieces += [("content", word) for word in re.findall(r"\S+\s*|\s+", message["content"] or "")]
    for index, (name, piece) in enumerate(pieces):
        events.append((behaviour.stall if index == 0 else behaviour.gap, chunk({name: piece})))
    events.append((0.0, chunk({}, completion["choices"][0]["finish_reason"])))
    if (request.get("stream_options") or {}).get("include_usage"):
        events.append((0.0, b"data: " + _dumps({**base, "choices": [], "usage": completion["usage"]}) + b"\n\n"))
    return [*events, (0.0, b"data: [DONE]\n\n")]


_UNAUTHORISED = _dumps({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to ``server``."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            serving = server.serving() if self.path == CHAT_PATH else nullcontext()  # a probe takes no slot
            with serving:
                code, body, extra = server.answer(self.path, dict(self.headers.items()), raw)
                try:
                    if isinstance(body, list):
                        self._stream(body)
                        return
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        def _stream(self, events: list[tuple[float, bytes]]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            self.close_connection = True
            try:
                for wait, event in events:
                    time.sleep(wait)
                    self.wfile.write(event)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                with server._lock:
                    server.disconnects += 1

        def do_GET(self) -> None:
            code, body = server.models(self.path, dict(self.headers.items()))
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(name="openai_server")
def openai_server_fixture() -> Iterator[OpenAIServer]:
    """A started :class:`OpenAIServer`, stopped after the test."""
    with OpenAIServer() as server:
        yield server
