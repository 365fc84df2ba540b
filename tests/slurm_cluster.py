"""A throw-away one-node SLURM cluster on localhost, for tests and benchmarks.

:func:`provision` installs ``slurm-wlm`` and ``munge`` with apt-get when they are missing (root on Debian
only). :class:`SlurmCluster` writes a munge key and a ``slurm.conf`` into its own directory (free ports, its
own munge socket, no accounting, ``MinJobAge=600`` so ``squeue`` still sees finished jobs), starts munged,
slurmctld and slurmd, waits for the node to be idle, and stops exactly the daemons it started. Clients find
the cluster through :attr:`SlurmCluster.env`: ``SLURM_CONF``, and first on PATH wrappers of the client
commands that set it again, because the executor plugin's job step drops every ``SLURM_*`` variable but a
few before it calls ``srun`` (a real cluster keeps its slurm.conf where clients look by default)::

    with SlurmCluster(tmp_path) as cluster:
        subprocess.run(["sinfo"], env=cluster.env)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "sinfo", "scancel", "srun")
PACKAGES = ("slurm-wlm", "munge")
PARTITION = "debug"


def missing_tools() -> list[str]:
    """The SLURM and munge programs not found on PATH (sbin included)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    return [tool for tool in (*DAEMONS, *CLIENTS) if shutil.which(tool, path=path) is None]


def provision() -> str | None:
    """Install slurm-wlm and munge when missing; None when ready, else why not."""
    if not missing_tools():
        return None
    if os.geteuid() != 0:
        return f"slurm-wlm/munge absent ({', '.join(missing_tools())}) and not root, so cannot apt-get install"
    if shutil.which("apt-get") is None:
        return "slurm-wlm/munge absent and no apt-get to install them"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *PACKAGES]):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if done.returncode != 0:
            return f"'{' '.join(command)}' failed: {done.stderr.strip()[-500:]}"
    missing = missing_tools()
    return f"still missing after apt-get install: {', '.join(missing)}" if missing else None


def _sbin(tool: str) -> str:
    found = shutil.which(tool, path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))
    assert found, tool
    return found


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def node_hardware() -> tuple[int, int]:
    """This machine's CPUs and memory (MiB) as slurmd counts them."""
    out = subprocess.run([_sbin("slurmd"), "-C"], capture_output=True, text=True, check=True).stdout
    fields = dict(item.split("=", 1) for item in out.split() if "=" in item)
    return int(fields["CPUs"]), int(fields["RealMemory"])


class SlurmCluster:
    """munged, slurmctld and slurmd on localhost, configured and logging under ``root``."""

    def __init__(self, root: Path, cpus: int | None = None, real_memory_mb: int | None = None) -> None:
        self.root = Path(root)
        self.conf = self.root / "slurm.conf"
        self.socket = self.root / "munge.socket"
        hw_cpus, hw_memory = node_hardware()
        self.cpus = cpus or hw_cpus
        self.real_memory_mb = real_memory_mb or hw_memory
        self._pids: dict[str, int] = {}

    @property
    def env(self) -> dict[str, str]:
        """The environment of a client of this cluster (``SLURM_CONF`` set, client wrappers first on PATH)."""
        path = os.pathsep.join([str(self.root / "bin"), os.environ.get("PATH", "")])
        return {**os.environ, "SLURM_CONF": str(self.conf), "PATH": path}

    def write_wrappers(self) -> None:
        """``bin/<client>`` for every client command: set ``SLURM_CONF``, then run the real one."""
        bin_dir = self.root / "bin"
        bin_dir.mkdir(exist_ok=True)
        for tool in (*CLIENTS, "scontrol"):
            real = shutil.which(tool)
            if real is None:
                continue
            wrapper = bin_dir / tool
            wrapper.write_text(f'#!/bin/sh\nSLURM_CONF={self.conf} exec {real} "$@"\n')
            wrapper.chmod(0o755)

    def write_config(self) -> None:
        """The munge key (created when absent) and ``slurm.conf``."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        key = self.root / "munge.key"
        if not key.exists():
            key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        for sub in ("state", "spool"):
            (self.root / sub).mkdir(exist_ok=True)
        ctld_port, slurmd_port = _free_ports(2)
        lines = {
            "ClusterName": "scb",
            "SlurmctldHost": "localhost",
            "SlurmctldPort": ctld_port,
            "SlurmdPort": slurmd_port,
            "SlurmUser": "root",
            "SlurmdUser": "root",
            "AuthType": "auth/munge",
            "CredType": "cred/munge",
            "AuthInfo": f"socket={self.socket}",
            "StateSaveLocation": self.root / "state",
            "SlurmdSpoolDir": self.root / "spool",
            "SlurmctldPidFile": self.root / "slurmctld.pid",
            "SlurmdPidFile": self.root / "slurmd.pid",
            "SlurmctldLogFile": self.root / "slurmctld.log",
            "SlurmdLogFile": self.root / "slurmd.log",
            "ProctrackType": "proctrack/linuxproc",
            "TaskPlugin": "task/none",
            "SelectType": "select/cons_tres",
            "SelectTypeParameters": "CR_Core_Memory",
            "SchedulerType": "sched/backfill",
            "MpiDefault": "none",
            "ReturnToService": 2,
            "MinJobAge": 600,
            "AccountingStorageType": "accounting_storage/none",
            "JobAcctGatherType": "jobacct_gather/none",
            "JobCompType": "jobcomp/none",
            "SlurmctldTimeout": 30,
            "SlurmdTimeout": 60,
            "InactiveLimit": 0,
            "KillWait": 5,
            "Waittime": 0,
        }
        text = "".join(f"{k}={v}\n" for k, v in lines.items())
        text += (
            f"NodeName=localhost NodeAddr=127.0.0.1 CPUs={self.cpus} RealMemory={self.real_memory_mb} State=UNKNOWN\n"
            f"PartitionName={PARTITION} Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n"
        )
        self.conf.write_text(text)

    def start(self, timeout: float = 60.0) -> SlurmCluster:
        """Write the configuration, start the three daemons in the foreground of their own sessions, and wait
        until ``sinfo`` shows the node idle; raise :class:`RuntimeError` with the logs' tails otherwise."""
        self.write_config()
        self.write_wrappers()
        commands = {
            "munged": [
                _sbin("munged"),
                "--foreground",
                "--force",
                f"--socket={self.socket}",
                f"--key-file={self.root / 'munge.key'}",
                f"--log-file={self.root / 'munged.log'}",
                f"--pid-file={self.root / 'munged.pid'}",
                f"--seed-file={self.root / 'munged.seed'}",
            ],
            "slurmctld": [_sbin("slurmctld"), "-D", "-i", "-f", str(self.conf)],
            "slurmd": [_sbin("slurmd"), "-D", "-N", "localhost", "-f", str(self.conf)],
        }
        for name in DAEMONS:
            with open(self.root / f"{name}.out", "wb") as out:
                proc = subprocess.Popen(
                    commands[name], stdout=out, stderr=subprocess.STDOUT, env=self.env, start_new_session=True
                )
            self._pids[name] = proc.pid
            if name == "munged":
                self._wait(lambda: self.socket.exists(), timeout, "munged socket")
        self._wait(self.idle, timeout, "node idle in sinfo")
        return self

    def idle(self) -> bool:
        """Whether ``sinfo`` reports the node idle (or mixed/allocated: up and usable)."""
        done = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=self.env)
        return done.returncode == 0 and done.stdout.strip() in ("idle", "mix", "alloc")

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            for name, pid in self._pids.items():
                with contextlib.suppress(ChildProcessError):
                    if os.waitpid(pid, os.WNOHANG) != (0, 0):
                        raise RuntimeError(f"{name} exited early:\n{self.logs()}")
            time.sleep(0.5)
        raise RuntimeError(f"timed out waiting for {what}:\n{self.logs()}")

    def logs(self) -> str:
        """The tails of the daemons' logs."""
        parts = []
        for path in sorted(self.root.glob("*.log")) + sorted(self.root.glob("*.out")):
            parts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-2000:]}")
        return "\n".join(parts)

    def stop(self) -> None:
        """Cancel every job, then stop the daemons this object started (and only those)."""
        if "slurmctld" in self._pids:
            subprocess.run(["scancel", "--full", "-u", "root"], capture_output=True, env=self.env, timeout=30)
        for name in reversed(DAEMONS):
            pid = self._pids.pop(name, None)
            if pid is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                with contextlib.suppress(ChildProcessError):
                    if os.waitpid(pid, os.WNOHANG) != (0, 0):
                        break
                time.sleep(0.2)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)

    def __enter__(self) -> SlurmCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
