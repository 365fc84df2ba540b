"""The workflow run of ``simcodebench eval``, which Ctrl-C stops asking without losing its summary.

The workflow runs in a session of its own, so the terminal's Ctrl-C reaches only this process. The first Ctrl-C
writes the stop file (:mod:`simcodebench.agents.run_stop`): no request is made after it, the requests in flight
finish, the samples left are recorded as not asked, what was asked is scored and the summary is written. A second
Ctrl-C abandons the run: the replies streaming are closed and Snakemake is interrupted; what finished is kept.
Either way the next run resumes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from simcodebench.agents.run_stop import ABANDON_FILE, RUN_STARTED
from simcodebench.core.layout import Layout


def run_stoppable(command: list[str], layout: Layout) -> int:
    """Run the workflow ``command``; its exit status (after a second Ctrl-C, the status it ended with)."""
    stop = Path(layout.stop_asking)
    abandon = stop.with_name(ABANDON_FILE)
    stop.unlink(missing_ok=True)
    abandon.unlink(missing_ok=True)
    env = {**os.environ, RUN_STARTED: repr(time.time())}
    # SIGINT stops the asking even where this process inherited it ignored (a job started with `&` from a
    # script, a test runner's worker), so `kill -INT` reaches it as the terminal's Ctrl-C does; the workflow,
    # started after, no longer inherits it ignored either, so a second Ctrl-C interrupts it.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    process = subprocess.Popen(command, env=env, start_new_session=True)
    interrupted = 0
    try:
        while True:
            try:
                return process.wait()
            except KeyboardInterrupt:
                interrupted += 1
                if interrupted == 1:
                    stop.parent.mkdir(parents=True, exist_ok=True)
                    stop.touch()
                    print(
                        "\nCtrl-C: no new request is sent; the requests in flight finish, what was asked is scored "
                        "and the summary written (Ctrl-C again to abandon the run; the next run resumes)",
                        file=sys.stderr,
                        flush=True,
                    )
                else:
                    print("\nCtrl-C again: the run is abandoned; the next run resumes", file=sys.stderr, flush=True)
                    abandon.touch()
                    os.killpg(process.pid, signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
        stop.unlink(missing_ok=True)
        abandon.unlink(missing_ok=True)
