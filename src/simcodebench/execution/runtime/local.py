"""The ``local`` runtime: a plain subprocess in its own process group, with limits but no confinement."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from simcodebench.execution import slots
from simcodebench.execution.runtime.base import RunRequest, RunResult, sandbox_environment

READ_CHUNK = 1 << 16
POLL_S = 0.5
"""How often a run whose thread holds a core slot is looked at (:mod:`..slots`)."""


def _drain(stream: IO[bytes], target: Path, cap: int, counts: dict[str, int], key: str) -> None:
    """Copy ``stream`` into ``target`` up to ``cap`` bytes; keep reading (and counting) past it."""
    written = 0
    with open(target, "wb") as out:
        while chunk := stream.read(READ_CHUNK):
            counts[key] += len(chunk)
            if written < cap:
                piece = chunk[: cap - written]
                out.write(piece)
                written += len(piece)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _wait(waiter: threading.Thread, pid: int, wall_s: float) -> None:
    """Wait for ``waiter`` (the reaper of ``pid``) at most ``wall_s``; where this thread holds a core slot, give
    it back as soon as the run's processes wait without using CPU (:mod:`..slots`)."""
    if not slots.holding():
        waiter.join(wall_s)
        return
    deadline = time.perf_counter() + wall_s
    watch = slots.IdleWatch(pid, time.perf_counter())
    while waiter.is_alive() and (left := deadline - time.perf_counter()) > 0:
        waiter.join(min(POLL_S, left))
        if waiter.is_alive() and watch.idle(time.perf_counter()):
            slots.give_back()
            waiter.join(max(0.0, deadline - time.perf_counter()))
            return


def limited_command(request: RunRequest, nproc: int | None = None) -> list[str]:
    """``request.command`` wrapped in ``prlimit`` for the address-space limit, no core dumps and, when given,
    at most ``nproc`` processes and threads."""
    limits = [f"--as={request.mem_mb * 1024 * 1024}", "--core=0"]
    if nproc is not None:
        limits.append(f"--nproc={nproc}")
    return ["prlimit", *limits, "--", *request.command]


def execute(request: RunRequest, runtime: str = "local", command: list[str] | None = None) -> RunResult:
    """Run ``request`` (or a runtime's wrapped ``command``) and record everything in a :class:`RunResult`.

    The child starts a new session (its own process group); at the wall-clock limit the whole group gets
    SIGKILL, and so does anything of the group still alive after the main process exits. stdout and stderr
    go to ``stdout.txt`` and ``stderr.txt`` in the run directory, capped at ``output_cap_bytes`` each.
    """
    run_dir = request.run_dir
    (run_dir / ".tmp").mkdir(parents=True, exist_ok=True)
    argv = command or limited_command(request)
    counts = {"stdout": 0, "stderr": 0}
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=run_dir,
            env=sandbox_environment(request),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return RunResult(
            status="infra",
            rc=None,
            wall_s=0.0,
            peak_rss_mb=None,
            runtime=runtime,
            message=f"could not start {argv[0]}: {exc}",
        )
    readers = [
        threading.Thread(
            target=_drain,
            args=(stream, run_dir / f"{key}.txt", request.output_cap_bytes, counts, key),
            daemon=True,
        )
        for stream, key in ((proc.stdout, "stdout"), (proc.stderr, "stderr"))
    ]
    for reader in readers:
        reader.start()
    outcome: dict[str, object] = {}

    def reap() -> None:
        _, status, usage = os.wait4(proc.pid, 0)
        outcome.update(status=status, usage=usage, end=time.perf_counter())

    waiter = threading.Thread(target=reap, daemon=True)
    waiter.start()
    _wait(waiter, proc.pid, request.wall_s)
    timed_out = waiter.is_alive()
    if timed_out:
        _kill_group(proc.pid)
        waiter.join()
    _kill_group(proc.pid)  # a child left behind in the group dies with the run
    for reader in readers:
        reader.join(timeout=5)
    for stream in (proc.stdout, proc.stderr):
        if stream:
            stream.close()
    wall = float(outcome["end"]) - start  # type: ignore[arg-type]
    raw_status = int(outcome["status"])  # type: ignore[call-overload]
    proc.returncode = os.waitstatus_to_exitcode(raw_status)
    peak = outcome["usage"].ru_maxrss / 1024.0  # type: ignore[union-attr]
    result = RunResult(
        status="ok",
        rc=proc.returncode,
        wall_s=wall,
        peak_rss_mb=peak,
        runtime=runtime,
        stdout_bytes=counts["stdout"],
        stderr_bytes=counts["stderr"],
        output_truncated=max(counts.values()) > request.output_cap_bytes,
    )
    if timed_out:
        result.status = "timeout"
        result.message = f"killed at the wall-clock limit of {request.wall_s:g} s"
    elif proc.returncode < 0:
        result.status = "killed"
        result.signal = signal.Signals(-proc.returncode).name
        result.message = f"killed by {result.signal}"
    elif proc.returncode != 0:
        result.status = "error"
        result.message = f"exited with code {proc.returncode}"
    return result
