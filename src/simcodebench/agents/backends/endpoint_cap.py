"""Requests in flight per endpoint, across every job of the process: capped at what the server serves at once.

The ``ask`` jobs of a run are threads of one process (the local profile's ``force-use-threads``; on a cluster
``ask`` is a local rule of the main process), and each member of a job sends its requests from its own thread;
the Snakemake endpoint resource bounds those threads. Below that bound, one :class:`EndpointCap` per endpoint
URL lets a request go only while fewer than its cap are in flight.

The cap starts at the server's capacity where the server states it (:mod:`.server_info`); there it never rises
above it. Elsewhere it starts unbounded and adapts: a 429 or 503 lowers it to the requests still in flight
besides the refused one, and a request that waited :data:`QUEUED_S` without its first token while another
request of the endpoint was receiving tokens shows that the server queues it: the cap drops to the requests
that are streaming. It climbs back by one after as many replies in a row as the cap (additive increase), up to
the stated capacity, if any. A cap never goes below 1.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

QUEUED_S = 30.0
"""Seconds without a first token, while another request streams, after which a request counts as queued."""


@dataclass
class _Flight:
    """One request in flight: when it was sent and when its last token came (None before the first)."""

    sent: float
    last_token: float | None = None
    queued: bool = False


@dataclass
class EndpointCap:
    """The cap of one endpoint (module docstring); ``capacity`` is what the server states, if anything."""

    endpoint: str
    capacity: int | None = None
    source: str | None = None
    cap: int | None = None
    flights: dict[int, _Flight] = field(default_factory=dict)
    last_token: float = 0.0
    _streak: int = 0
    _next: int = 0
    _lock: threading.Condition = field(default_factory=threading.Condition)

    def __post_init__(self) -> None:
        if self.cap is None:
            self.cap = self.capacity

    @contextmanager
    def slot(self) -> Iterator[int]:
        """Wait until the endpoint has room, then hold one place in flight for the block; yields its id."""
        with self._lock:
            self._lock.wait_for(lambda: self.cap is None or len(self.flights) < self.cap)
            ident, self._next = self._next, self._next + 1
            self.flights[ident] = _Flight(time.monotonic())
        try:
            yield ident
        finally:
            with self._lock:
                self.flights.pop(ident, None)
                self._lock.notify_all()

    def token(self, ident: int) -> None:
        """Request ``ident`` received a token now; requests waiting long for their first one lower the cap."""
        now = time.monotonic()
        with self._lock:
            flight = self.flights.get(ident)
            if flight is not None:
                flight.last_token = now
            self.last_token = now
            waiting = [f for f in self.flights.values() if f.last_token is None and not f.queued]
            late = [f for f in waiting if now - f.sent >= QUEUED_S]
            if late:
                for flight in late:
                    flight.queued = True
                streaming = sum(1 for f in self.flights.values() if f.last_token is not None)
                self._lower(streaming, f"{len(late)} request(s) waited {QUEUED_S:g} s for a first token")

    def got_token(self, ident: int) -> bool:
        """Whether request ``ident`` has received a token."""
        with self._lock:
            flight = self.flights.get(ident)
            return flight is not None and flight.last_token is not None

    def streamed_since(self, since: float) -> bool:
        """Whether any request of the endpoint received a token after ``since`` (a monotonic time)."""
        with self._lock:
            return self.last_token > since

    def refused(self, ident: int, why: str) -> None:
        """The server refused request ``ident`` for load (429, 503): lower the cap below what was in flight."""
        with self._lock:
            self._lower(len(self.flights) - 1, why)

    def queued(self, ident: int) -> None:
        """Request ``ident`` timed out waiting while others streamed: the server queues; lower the cap."""
        with self._lock:
            others = sum(1 for i, f in self.flights.items() if i != ident and f.last_token is not None)
            self._lower(others, "a request timed out without a first token while others streamed")

    def replied(self) -> None:
        """A reply came whole: after ``cap`` of them in a row the cap rises by one (never above the capacity)."""
        with self._lock:
            if self.cap is None:
                return
            self._streak += 1
            if self._streak >= self.cap and (self.capacity is None or self.cap < self.capacity):
                self.cap, self._streak = self.cap + 1, 0
                log.info("endpoint %s: requests in flight capped at %d again", self.endpoint, self.cap)
                self._lock.notify_all()

    def _lower(self, to: int, why: str) -> None:
        """Lower the cap to ``to`` (at least 1); call holding the lock."""
        new = max(1, to)
        if self.cap is None or new < self.cap:
            log.warning("endpoint %s: %s; requests in flight capped at %d (was %s)", self.endpoint, why, new, self.cap)
            self.cap = new
        self._streak = 0


_caps: dict[str, EndpointCap] = {}
_caps_lock = threading.Lock()


def endpoint_cap(endpoint: str, capacity: int | None, source: str | None) -> EndpointCap:
    """The process's cap of ``endpoint`` (made on first use from the server's stated ``capacity``)."""
    with _caps_lock:
        if endpoint not in _caps:
            _caps[endpoint] = EndpointCap(endpoint, capacity, source)
        return _caps[endpoint]


def forget() -> None:
    """Forget every endpoint's cap (tests: scripted servers reuse ports)."""
    with _caps_lock:
        _caps.clear()
