"""Which samples one ``evaluate`` job evaluates: the packing of a suite's samples into batches, and batch ids.

A batch holds short samples (see ``Plan.grouped``) of one suite and attempt that share a resource key, from any
agent. Each agent's samples, in case order, first fill whole batches of their own; what is left of every agent
(fewer than ``size`` per key) then shares batches, agents in config order. The id of a batch is a hash of its
members, so a batch whose members stay the same keeps its id, and its finished record, when the selection
changes elsewhere: adding an agent adds its own batches and regroups only the shared remainders.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable

Member = tuple[str, str, int]
"""One sample of a batch: (agent, case, sample)."""

ID_LENGTH = 12
"""Hex digits of a batch id (48 bits: no collision to fear among the batches of one suite and attempt)."""


def batch_id(members: list[Member]) -> str:
    """The batch's id: the first :data:`ID_LENGTH` hex digits of a SHA-256 over its members, in order."""
    text = "\n".join(f"{agent}/{case}/{sample}" for agent, case, sample in members)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_LENGTH]


def pack(agents: Iterable[tuple[str, list[tuple[Member, Hashable | None]]]], size: int) -> dict[str, list[Member]]:
    """Batches by id. ``agents``: per agent, in config order, its samples with their resource key, or None for a
    sample that runs alone (long, MPI or GPU). ``size``: at most this many members per batch."""
    chunks: list[list[Member]] = []
    remainders: dict[Hashable, list[Member]] = {}
    for _, samples in agents:
        own: dict[Hashable, list[Member]] = {}
        for member, key in samples:
            if key is None:
                chunks.append([member])
            else:
                own.setdefault(key, []).append(member)
        for key, members in own.items():
            whole = len(members) - len(members) % size
            chunks.extend(members[i : i + size] for i in range(0, whole, size))
            remainders.setdefault(key, []).extend(members[whole:])
    for members in remainders.values():
        chunks.extend(members[i : i + size] for i in range(0, len(members), size))
    return {batch_id(chunk): chunk for chunk in chunks}
