"""Where the time goes inside one SLURM job of the workflow, read from the job's log.

The slurm executor plugin's job step (the "outer" Snakemake process of an sbatch job) starts every member of the
job with ``srun ... python -m snakemake --target-jobs ...``: an "inner" Snakemake process per member (one
sample's execute and score in today's group ``short``; one batch of samples in an ``evaluate`` job). Both write
to the job's log (``results/logs/slurm/<group or rule>/[<wildcards>/]<jobid>.log``, kept with
``--slurm-keep-successful-logs``), with second-resolution stamps:

- ``Date: 2026-11-24 11:06:32`` in a process's banner, printed once it has imported Snakemake;
- ``[Tue Nov 24 11:06:28 2026]`` before ``rule X:`` or ``Group job ...`` (the outer process dispatches a
  member) and before ``localrule X:`` (the inner process starts a rule body);
- ``[...]`` before ``Finished jobid: N (Rule: X)`` (inner: the body returned; outer: the job step saw the
  member's srun end);
- ``Elapsed time: 0:00:16.161753`` when a process ends.

:func:`parse_members` turns a log into one :class:`Member` per inner process and :func:`member_phases` splits
each member's time into start-up (srun, interpreter, Snakemake import), DAG (Snakefile, package, DAG of the
member), rule bodies, the gaps between the inner process's rules, and the hand-back to the job step (inner exit
and the job step noticing it) plus the job step's own gap before its next member.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

STAMP = re.compile(r"^\s*\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]")
DATE = re.compile(r"^\s*Date: (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
OUTER_RULE = re.compile(r"^\s*(?:rule (\w+):|Group job (\S+))")
INNER_RULE = re.compile(r"^\s*localrule (\w+):")
FINISHED = re.compile(r"^\s*Finished jobid: \d+ \(Rule: (\w+)\)")
ELAPSED = re.compile(r"^\s*Elapsed time: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)")


def parse_stamp(text: str) -> datetime:
    """A bracketed log stamp's text (``Tue Nov 24 11:06:28 2026``) as a datetime."""
    return datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y")


def parse_elapsed(match: re.Match) -> float:
    """Seconds of an ``Elapsed time: [D days, ]H:MM:SS.ffffff`` match."""
    days, hours, minutes, seconds = match.groups()
    return int(days or 0) * 86400 + int(hours) * 3600 + int(minutes) * 60 + float(seconds)


@dataclass
class Member:
    """One inner Snakemake process of a job: when the job step dispatched it, when it ran its rules, when the job
    step saw it end. Times are datetimes at the log's one-second resolution."""

    dispatched: datetime
    started: datetime
    rules: list[tuple[str, datetime, datetime]] = field(default_factory=list)
    elapsed_s: float | None = None
    handed_back: datetime | None = None


@dataclass
class JobLog:
    """A job's log, parsed: the outer process's banner time, its members, and the last stamp of the log."""

    started: datetime | None
    members: list[Member]
    last: datetime | None


def parse_members(text: str) -> JobLog:
    """The members of a job from its log's text (see the module docstring for the lines read)."""
    outer_started: datetime | None = None
    members: list[Member] = []
    stamp: datetime | None = None
    pending: datetime | None = None  # the job step's first dispatch stamp since the last member
    inner: Member | None = None  # the member whose process is running (no "Elapsed time" yet)
    rule_start: tuple[str, datetime] | None = None
    for line in text.splitlines():
        if found := STAMP.match(line):
            stamp = parse_stamp(found.group(1))
            line = line[found.end() :]
        if found := DATE.match(line):
            when = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S")
            if outer_started is None:
                outer_started = when
            else:
                inner = Member(dispatched=pending or when, started=when)
                members.append(inner)
                pending = None
        elif stamp is None:
            continue
        elif found := INNER_RULE.match(line):
            rule_start = (found.group(1), stamp)
        elif OUTER_RULE.match(line) and inner is None and pending is None:
            pending = stamp
        elif found := FINISHED.match(line):
            if inner is not None and rule_start is not None:
                inner.rules.append((rule_start[0], rule_start[1], stamp))
                rule_start = None
            elif inner is None and members and members[-1].handed_back is None:
                members[-1].handed_back = stamp
        elif (found := ELAPSED.match(line)) and inner is not None:
            inner.elapsed_s = parse_elapsed(found)
            inner = None
    return JobLog(started=outer_started, members=members, last=stamp)


PHASES = ("start-up", "DAG", "rule bodies", "between rules", "hand-back", "job step gap")


def member_phases(log: JobLog) -> list[dict[str, float]]:
    """Seconds of each phase (:data:`PHASES`) for every member of ``log``, plus each rule's body time (keyed by
    the rule's name). The job step gap is from the hand-back to the next member's dispatch (for the last member:
    to the log's last stamp)."""
    rows = []
    for index, member in enumerate(log.members):
        first = member.rules[0][1] if member.rules else member.started
        last = member.rules[-1][2] if member.rules else first
        bodies = {}
        for rule, start, end in member.rules:
            bodies[rule] = bodies.get(rule, 0.0) + (end - start).total_seconds()
        handed_back = member.handed_back or last
        following = log.members[index + 1].dispatched if index + 1 < len(log.members) else log.last or handed_back
        rows.append(
            {
                "start-up": (member.started - member.dispatched).total_seconds(),
                "DAG": (first - member.started).total_seconds(),
                "rule bodies": sum(bodies.values()),
                "between rules": (last - first).total_seconds() - sum(bodies.values()),
                "hand-back": (handed_back - last).total_seconds(),
                "job step gap": (following - handed_back).total_seconds(),
                **{f"body: {rule}": seconds for rule, seconds in bodies.items()},
            }
        )
    return rows


def squeue_times(text: str) -> dict[str, tuple[datetime, datetime]]:
    """Job id -> (start, end) from ``squeue -h -t all -o '%i|%S|%e'`` output (jobs not started are left out)."""
    times = {}
    for line in text.splitlines():
        parts = line.strip().split("|")
        if len(parts) < 3 or "T" not in parts[1] or "T" not in parts[2]:
            continue
        times[parts[0]] = (datetime.fromisoformat(parts[1]), datetime.fromisoformat(parts[2]))
    return times
