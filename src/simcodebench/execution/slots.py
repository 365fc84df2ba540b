"""Core slots of a local ``evaluate`` job whose members run at once: at most as many CPU-busy runs as the job's
cores (the time gate compares wall times with a calibrated ``t_base``), while a run that waits (a hang, a sleep)
gives its slot back so that another member can start.

Where every job runs as a thread of one Snakemake process (the local profile's ``force-use-threads``), the run's
cores are one :class:`Slots` shared by every job (:func:`share`, :func:`shared`): ``evaluate`` jobs then claim
no core of Snakemake's, so that all of them may wait on their slow members at once, and references and
calibrations hold a slot for their runs, so that no more runs compute at once than there are cores. Otherwise a
job makes its own :class:`Slots`. Each member phase holds one (:meth:`Slots.held`) in its thread. The runtime
(``runtime/local.py``, under bwrap and apptainer too) polls a run whose thread holds a slot: once the run's
process tree has used no CPU for :data:`IDLE_S`, :func:`give_back` frees the slot for the rest of the phase.
Without a slot (a serial job, a reference, a calibration) nothing is polled.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

IDLE_S = 2.0
"""Seconds without CPU after which a run counts as waiting and gives its slot back."""
IDLE_CPU_S = 0.02
"""CPU seconds a process tree may use in :data:`IDLE_S` and still count as waiting."""

_local = threading.local()


class _Slot:
    """One slot held by one thread; released once, whichever comes first: give-back or the phase's end."""

    def __init__(self, semaphore: threading.Semaphore) -> None:
        self._semaphore = semaphore
        self._lock = threading.Lock()
        self.held = True

    def release(self) -> None:
        with self._lock:
            if self.held:
                self.held = False
                self._semaphore.release()


class Slots:
    """``cores`` slots shared by the threads of one job."""

    def __init__(self, cores: int) -> None:
        self._semaphore = threading.Semaphore(max(1, cores))

    @contextmanager
    def held(self) -> Iterator[None]:
        """Wait for a slot and hold it in this thread until the block ends or the run gives it back."""
        self._semaphore.acquire()
        slot = _Slot(self._semaphore)
        _local.slot = slot
        try:
            yield
        finally:
            _local.slot = None
            slot.release()


_shared: list[Slots] = []


def share(cores: int) -> None:
    """Make the process's shared slots, ``cores`` of them (once; the workflow calls it where jobs are threads)."""
    if not _shared:
        _shared.append(Slots(cores))


def shared() -> Slots | None:
    """The process's shared slots, or None where jobs do not share them."""
    return _shared[0] if _shared else None


@contextmanager
def shared_held() -> Iterator[None]:
    """Hold one of the shared slots for the block (a reference's or calibration's runs); nothing without them."""
    slots = shared()
    if slots is None:
        yield
        return
    with slots.held():
        yield


def holding() -> bool:
    """Whether this thread holds a slot it has not given back (then the runtime watches its run's CPU)."""
    slot = getattr(_local, "slot", None)
    return slot is not None and slot.held


def give_back() -> None:
    """Free this thread's slot: its run is waiting, not computing."""
    slot = getattr(_local, "slot", None)
    if slot is not None:
        slot.release()


def tree_cpu_s(root: int) -> float:
    """CPU seconds (user + system, with reaped children's) of process ``root`` and every descendant, from /proc;
    0.0 where /proc cannot be read."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return 0.0
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                text = handle.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()  # after "pid (comm) ": state, ppid, ...
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(v) for v in fields[11:15]) / tick  # utime, stime, cutime, cstime
    tree, frontier = {root}, [root]
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(times.get(pid, 0.0) for pid in tree)


class IdleWatch:
    """Tells when the process tree under ``root`` has used (almost) no CPU for :data:`IDLE_S`."""

    def __init__(self, root: int, now: float) -> None:
        self.root = root
        self._since, self._cpu = now, tree_cpu_s(root)

    def idle(self, now: float) -> bool:
        """Whether the tree waited since the last change; call it every fraction of a second."""
        cpu = tree_cpu_s(self.root)
        if cpu - self._cpu > IDLE_CPU_S:
            self._since, self._cpu = now, cpu
            return False
        return now - self._since >= IDLE_S
