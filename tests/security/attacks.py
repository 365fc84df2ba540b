"""Hostile solutions, one per attack: each tries something generated code must never manage and prints what
happened (``LEAK``, ``CONNECTED``, ``WROTE``, ``REMOVED`` when it succeeded) so the run's stdout is the evidence.

None of them writes the ``solution.npz`` the case asks for: a contained attack is scored like any other run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HIDDEN = (
    "results/references/re4/hilbert/reference.json",
    "results/references/re4/hilbert/reference.h5",
    "results/calibration/re4/hilbert.json",
    "cases/re4/hilbert/case.yaml",
    "cases/re4/hilbert/reference_solution.py",
    "config/config.yaml",
)


@dataclass(frozen=True)
class Targets:
    """What the attacks aim at: host paths they should never reach, and markers to find their processes by."""

    work: Path
    repo: Path
    home: Path
    marker_dir: Path
    port: int
    samples: int
    fork_marker: str
    daemon_marker: str

    def run_dir(self, sample: int) -> str:
        return f"{self.work}/results/runs/sec/re4/hilbert/{sample}/0/run"


PRELUDE = """
import glob, os, signal, socket, sys, time
WORK, REPO, HOME, MARKER_DIR = {work!r}, {repo!r}, {home!r}, {marker_dir!r}
SAMPLE, SAMPLES, PORT = {sample}, {samples}, {port}
FORK_MARKER, DAEMON_MARKER = {fork_marker!r}, {daemon_marker!r}
HIDDEN = {hidden!r}
OTHER_RUNS = [{other_runs}]


def say(*words):
    print(*words, flush=True)


def try_read(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read(120)
    except OSError as exc:
        say("denied", path, type(exc).__name__)
        return
    say("LEAK", path, data)
"""

BODIES = {
    "network": """
interfaces = [name for _, name in socket.if_nameindex()]
say("interfaces", interfaces)
targets = [(socket.SOCK_STREAM, ("127.0.0.1", PORT)), (socket.SOCK_DGRAM, ("1.1.1.1", 53))]
if interfaces == ["lo"]:  # with no route out, a TCP connect to the outside fails before sending anything
    targets.append((socket.SOCK_STREAM, ("1.1.1.1", 80)))
for kind, address in targets:
    sock = socket.socket(socket.AF_INET, kind)
    sock.settimeout(2)
    try:
        sock.connect(address)
        say("CONNECTED", address)
    except OSError as exc:
        say("no connection", address, type(exc).__name__)
""",
    "read_relative": """
for up in range(1, 12):
    for path in HIDDEN:
        try_read("../" * up + path)
""",
    "read_absolute": """
for base in (WORK, REPO):
    for path in HIDDEN:
        try_read(os.path.join(base, path))
try_read(os.path.join(REPO, "pyproject.toml"))
for other in OTHER_RUNS:
    try_read(os.path.join(other, "stdout.txt"))
names = {os.path.basename(p) for p in HIDDEN} | {"hilbert.json"}
for root, dirs, files in os.walk("/"):
    if root.startswith(("/proc", "/sys", "/dev", "/usr")):
        dirs[:] = []
        continue
    for name in files:
        if name in names:
            try_read(os.path.join(root, name))
""",
    "secrets": """
say("environment", dict(os.environ))
for path in sorted(set(glob.glob("/proc/*/environ") + [f"/proc/{os.getppid()}/environ", "/proc/1/environ"])):
    try:
        say(path, open(path, "rb").read())
    except OSError as exc:
        say("denied", path, type(exc).__name__)
for path in glob.glob("/proc/*/cmdline"):
    try:
        say(path, open(path, "rb").read())
    except OSError:
        pass
""",
    "write_outside": """
targets = [
    os.path.join(HOME, f"scb-pwned-{SAMPLE}"),
    os.path.join(REPO, f"scb-pwned-{SAMPLE}"),
    os.path.join(REPO, "cases", f"scb-pwned-{SAMPLE}"),
    os.path.join(WORK, "results", f"scb-pwned-{SAMPLE}"),
    os.path.join(WORK, HIDDEN[0]),
    os.path.join(WORK, HIDDEN[2]),
    os.path.join(WORK, HIDDEN[3]),
    os.path.join(MARKER_DIR, "keep.txt"),
    os.path.join(MARKER_DIR, f"scb-pwned-{SAMPLE}"),
    f"/tmp/scb-pwned-{SAMPLE}",
    f"../scb-pwned-{SAMPLE}",
    f"../../../../scb-pwned-{SAMPLE}",
    *(os.path.join(other, f"scb-pwned-from-{SAMPLE}") for other in OTHER_RUNS),
]
for path in targets:
    try:
        with open(path, "a") as handle:
            handle.write("pwned")
        say("WROTE", path)
    except OSError as exc:
        say("denied", path, type(exc).__name__)
for path in (os.path.join(MARKER_DIR, "keep.txt"), os.path.join(WORK, HIDDEN[0])):
    try:
        os.remove(path)
        say("REMOVED", path)
    except OSError as exc:
        say("denied removing", path, type(exc).__name__)
""",
    "fork": """
children = 0
for _ in range(200):  # bounded here; the pid namespace and the wall limit bound an unbounded one
    try:
        pid = os.fork()
    except OSError as exc:
        say("fork refused", type(exc).__name__)
        break
    if pid == 0:
        os.execv("/bin/sleep", ["sleep", FORK_MARKER])
    children += 1
say("forked", children)
""",
    "memory": """
import numpy
blocks = []
try:
    for _ in range(128):  # 64 GiB in all, far past the case's limit (untouched pages: quick to ask for)
        blocks.append(numpy.empty(512 * 1024**2, dtype=numpy.uint8))
    say("ALLOCATED", len(blocks) * 512, "MiB")
except MemoryError:
    say("MemoryError after", len(blocks) * 512, "MiB")
    raise
""",
    "loop": """
say("looping")
while True:
    pass
""",
    "flood": """
say("flooding")
chunk = b"x" * (1 << 20)
for _ in range(4096):
    os.write(1, chunk)
""",
    "daemon": """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open("daemon.pid", "w") as handle:
            handle.write(str(os.getpid()))
        os.execv("/bin/sleep", ["sleep", DAEMON_MARKER])
    os._exit(0)
time.sleep(0.5)
say("daemon started", os.path.exists("daemon.pid"))
""",
    "kill_parent": """
say("pid", os.getpid(), "ppid", os.getppid())
for target in (os.getppid(), 1, 0):
    try:
        os.kill(target, signal.SIGKILL)
        say("sent SIGKILL to", target)
    except OSError as exc:
        say("kill", target, "refused", type(exc).__name__)
time.sleep(0.2)
say("alive after kill attempts")
""",
}
"""The attacks, in sample order."""


def attack_source(name: str, sample: int, targets: Targets) -> str:
    """The full program of attack ``name`` played as ``sample``."""
    others = ", ".join(repr(targets.run_dir(s)) for s in range(targets.samples) if s != sample)
    prelude = PRELUDE.format(
        work=str(targets.work),
        repo=str(targets.repo),
        home=str(targets.home),
        marker_dir=str(targets.marker_dir),
        sample=sample,
        samples=targets.samples,
        port=targets.port,
        fork_marker=targets.fork_marker,
        daemon_marker=targets.daemon_marker,
        hidden=HIDDEN,
        other_runs=others,
    )
    return prelude + BODIES[name]
