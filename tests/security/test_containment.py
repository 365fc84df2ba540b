"""Hostile replies through the real pipeline (replay agent; runtime bwrap, and apptainer in the image of
``containers/python.def`` where apptainer exists): every attack is contained, recorded with a clear status, the
other samples carry on, and nothing outside the run directories changes."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from pathlib import Path

import pytest
from apptainer_images import images_folder
from attacks import BODIES, Targets, attack_source
from pipeline import REPO, make_workdir, snakemake

from simcodebench.execution.images import IMAGES_VARIABLE
from simcodebench.execution.runtime.bwrap import bwrap_available

pytestmark = pytest.mark.slow

SECRETS = {"OPENAI_API_KEY": "sk-security-canary-4e1f9a", "SCB_TEST_TOKEN": "tok-security-canary-77c3d2"}
CANARY = "hidden-case-canary-9d0b6e"
WALL_S = 6.0
OUTPUT_CAP = 10 * 1024 * 1024

ATTACKS = list(BODIES)
ORACLE_SAMPLE = len(ATTACKS)
# run status -> failure class (any other attack: "ok", F-Missing). The statuses show each run ended by itself or at
# its wall limit; how long the whole pipeline took depends on the machine's load and is not asserted.
EXPECTED = {
    "memory": {"error": "F-Exec"},
    "loop": {"timeout": "F-Timeout"},
    "flood": {"ok": "F-Missing", "timeout": "F-Timeout"},
}
KILLED_ITS_OWN_INIT = {"kill_parent": ({"killed": "F-Exec"}, "sent SIGKILL to 1")}
"""Under apptainer the program is not the first process of its PID namespace (Apptainer's init is): killing PID 1
kills its own container, and nothing of the host (the run is recorded as killed, F-Exec)."""
EVIDENCE = {  # what each attack's stdout shows it did try
    "network": "no connection",
    "read_relative": "denied",
    "read_absolute": "denied",
    "secrets": "environment",
    "write_outside": "scb-pwned",
    "fork": "forked",
    "memory": "MemoryError after",
    "loop": "looping",
    "flood": "flooding",
    "daemon": "daemon started True",
    "kill_parent": "alive after kill attempts",
}


def _snapshot(*roots: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``roots``: size and SHA-256."""
    state = {}
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            state[str(path)] = (path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest())
    return state


def _processes_with(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def _pwned(root: Path) -> list[Path]:
    return sorted(root.glob("scb-pwned*"))


@pytest.fixture
def listener():
    """A TCP server on the host's loopback that no sandboxed program may reach."""
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    yield server
    server.close()


@pytest.fixture(params=["bwrap", "apptainer"])
def runtime(request, python_env) -> tuple[str, dict[str, str]]:
    """The runtime the attacks run under, and the environment that finds its images (apptainer: only that)."""
    if request.param == "bwrap" and not bwrap_available():
        pytest.skip("bubblewrap unusable here")
    if request.param == "apptainer":
        return "apptainer", {IMAGES_VARIABLE: str(images_folder("python"))}
    return "bwrap", {}


def test_attacks_are_contained(tmp_path, runtime, listener):
    name_of_runtime, runtime_env = runtime
    marker_dir = tmp_path / "marker"
    marker_dir.mkdir()
    (marker_dir / "keep.txt").write_text("untouched")
    tag = f"{os.getpid() % 10000}"
    replies = tmp_path / "replies.jsonl"
    agent = {"backend": "replay", "file": str(replies), "samples": ORACLE_SAMPLE + 1}
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "runtime": name_of_runtime, "agents": {"sec": agent}}
    work = make_workdir(tmp_path, config, wall_s=WALL_S, floor_s=60.0)
    targets = Targets(
        work=work,
        repo=REPO,
        home=Path.home(),
        marker_dir=marker_dir,
        port=listener.getsockname()[1],
        samples=ORACLE_SAMPLE + 1,
        fork_marker=f"7{tag}.125",
        daemon_marker=f"8{tag}.375",
    )
    with (work / "cases" / "re4" / "hilbert" / "case.yaml").open("a") as case_file:
        case_file.write(f"# {CANARY}\n")
    oracle = (REPO / "cases" / "re4" / "hilbert" / "reference_solution.py").read_text()
    sources = [attack_source(name, i, targets) for i, name in enumerate(ATTACKS)] + [oracle]
    replies.write_text(
        "".join(
            json.dumps({"suite": "re4", "case": "hilbert", "sample": i, "attempt": 0, "response": f"```python\n{s}```"})
            + "\n"
            for i, s in enumerate(sources)
        )
    )

    snakemake(work, "calibrate", env=runtime_env)  # references and thresholds first, so they can be checked for changes
    produced_later = ("runs", "summary")  # what the attack run itself writes; run dirs are checked on their own
    results = [p for p in (work / "results").iterdir() if p.name not in produced_later]
    guarded = (work / "cases", work / "config", *results)
    before = _snapshot(*guarded, marker_dir)

    snakemake(work, env={**SECRETS, **runtime_env})  # completes: every sample is scored

    runs = work / "results" / "runs" / "sec" / "re4" / "hilbert"
    for sample, name in enumerate(ATTACKS):
        score = json.loads((runs / str(sample) / "0" / "score.json").read_text())
        run_dir = runs / str(sample) / "0" / "run"
        record = json.loads((run_dir / "run.json").read_text())
        stdout = (run_dir / "stdout.txt").read_text(errors="replace")
        expected, evidence = EXPECTED.get(name, {"ok": "F-Missing"}), EVIDENCE[name]
        if name_of_runtime == "apptainer" and name in KILLED_ITS_OWN_INIT:
            expected, evidence = KILLED_ITS_OWN_INIT[name]
        assert record["runtime"] == name_of_runtime
        assert record["status"] in expected, (name, record)
        assert score["failure_class"] == expected[record["status"]], (name, score["failure_class"])
        assert evidence in stdout, (name, stdout[-2000:])
        for success in ("LEAK", "CONNECTED", "ALLOCATED", "REMOVED"):
            assert success not in stdout, (name, success)
        assert not list(run_dir.glob("scb-pwned-from-*")), name  # no other run wrote here
    flood = json.loads((runs / str(ATTACKS.index("flood")) / "0" / "run" / "run.json").read_text())
    assert flood["output_truncated"] and flood["stdout_bytes"] > OUTPUT_CAP
    assert (runs / str(ATTACKS.index("flood")) / "0" / "run" / "stdout.txt").stat().st_size <= OUTPUT_CAP
    network = (runs / str(ATTACKS.index("network")) / "0" / "run" / "stdout.txt").read_text()
    assert "interfaces ['lo']" in network
    final = json.loads((runs / str(ORACLE_SAMPLE) / "final.json").read_text())
    assert final["failure_class"] == "Pass"  # the well-behaved sample carried on beside the attacks

    # nothing outside the run directories changed
    after = _snapshot(*guarded, marker_dir)
    assert {path: after.get(path) for path in before} == before
    new_files = [Path(path) for path in set(after) - set(before)]  # only the logs of the rules that ran since
    assert all(p.suffix == ".log" and p.is_relative_to(work / "results" / "logs") for p in new_files), new_files
    for root in (Path.home(), Path("/tmp"), REPO, REPO / "cases", work, work / "results", marker_dir):
        assert _pwned(root) == [], root
    outside_runs = [p for p in (work / "results").rglob("scb-pwned*") if "run" not in p.relative_to(work).parts]
    assert outside_runs == []
    with pytest.raises(BlockingIOError):
        listener.accept()  # nobody connected

    # no process outlived its run
    time.sleep(0.5)
    assert _processes_with(targets.fork_marker) == []
    assert _processes_with(targets.daemon_marker) == []

    # no secret and no hidden value in any output
    for path in (work / "results").rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            for secret in (*SECRETS.values(), CANARY):
                assert secret.encode() not in text, (path, secret)
