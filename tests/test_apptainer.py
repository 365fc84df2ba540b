"""The apptainer runtime for real, in the image ``containers/python.def`` builds (``tests/apptainer_images.py``):
what a program inside can see and reach, as root and as a user without FUSE (a sandbox folder), what a run
records of its image, and the re4 and cfd-code oracles and mutants through the pipeline with nothing but
``runtime: apptainer`` set: the same verdicts as under bubblewrap."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptainer_images import images_folder
from pipeline import REPO, make_workdir, scores, snakemake

from simcodebench.execution import images
from simcodebench.execution.environments import environment_spec
from simcodebench.execution.runtime import RunRequest, run
from simcodebench.execution.runtime.apptainer import apptainer_command
from simcodebench.execution.runtime.bwrap import bwrap_available

pytestmark = pytest.mark.slow

PROBE = """
import json, os, socket
report = {"cwd": os.getcwd(), "interfaces": [name for _, name in socket.if_nameindex()], "env": dict(os.environ)}
for name, path in {"repo": REPO, "home": HOME_CANARY, "hidden": HIDDEN, "munge": "/etc/munge"}.items():
    report[name] = os.path.exists(path)
sock = socket.socket()
sock.settimeout(2)
try:
    sock.connect(("127.0.0.1", PORT))
    report["loopback"] = "connected"
except OSError as exc:
    report["loopback"] = type(exc).__name__
for name, path in {"run": "out.txt", "usr": "/usr/pwned", "tmp": "/tmp/scb-apptainer-private"}.items():
    try:
        open(path, "w").write("x")
        report["wrote_" + name] = True
    except OSError:
        report["wrote_" + name] = False
json.dump(report, open("report.json", "w"))
"""


@pytest.fixture(scope="module")
def folder() -> Path:
    """The folder holding python.sif."""
    return images_folder("python")


def _probe_request(run_dir: Path, hidden: Path, port: int, home_canary: Path) -> RunRequest:
    """The probe, with the host paths it must not find: the repository, a file in the host's $HOME, a hidden file
    (the image has its own /root and /etc; the host's never appear)."""
    run_dir.mkdir(parents=True)
    header = f"REPO, HOME_CANARY, HIDDEN, PORT = {str(REPO)!r}, {str(home_canary)!r}, {str(hidden)!r}, {port}\n"
    (run_dir / "probe.py").write_text(header + PROBE)
    return RunRequest(command=["python", "probe.py"], run_dir=run_dir, wall_s=120.0, mem_mb=2048, cpus=2)


def test_image_carries_its_version_hash_and_runs_record_it(folder, tmp_path):
    image = str(folder / "python.sif")
    labels = images.image_labels(image)
    assert labels[images.HASH_LABEL] == images.environment_hash(environment_spec("python"))
    assert labels[images.ENVIRONMENT_LABEL] == "python"
    listed = subprocess.run(
        [str(Path(shutil.which("simcodebench") or REPO / ".venv/bin/simcodebench")), "images", "list"],
        capture_output=True,
        text=True,
        env={**os.environ, images.IMAGES_VARIABLE: str(folder)},
        check=True,
    ).stdout
    assert f"python\tcurrent\t{image}" in listed
    record = images.image_provenance(image, environment_spec("python"))
    assert record["current"] is True and len(str(record["sha256"])) == 64


@pytest.fixture
def home_canary() -> Iterator[Path]:
    """A file in the host's $HOME, removed afterwards."""
    canary = Path.home() / f".simcodebench-canary-{os.getpid()}"
    canary.write_text("host home")
    yield canary
    canary.unlink()


def test_a_run_sees_only_its_folder_and_loopback_as_root(folder, tmp_path, monkeypatch, home_canary):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-apptainer-canary")
    hidden = tmp_path / "hidden.json"
    hidden.write_text("{}")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        request = _probe_request(tmp_path / "run", hidden, listener.getsockname()[1], home_canary)
        result = run(request, "apptainer", str(folder / "python.sif"))
    assert result.status == "ok", (tmp_path / "run" / "stderr.txt").read_text()
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["cwd"] == "/work" and report["interfaces"] == ["lo"]
    assert report["loopback"] != "connected"
    assert not any(report[k] for k in ("repo", "home", "hidden", "munge"))
    assert report["wrote_run"] and not report["wrote_usr"] and report["wrote_tmp"]
    assert not Path("/tmp/scb-apptainer-private").exists()
    assert "sk-apptainer-canary" not in json.dumps(report["env"])
    assert report["env"]["OMP_NUM_THREADS"] == "2"


def test_limits_hold_inside_the_image(folder, tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "big.py").write_text("x = bytearray(3 * 1024**3)\n")
    (run_dir / "loop.py").write_text("while True:\n    pass\n")
    memory = run(
        RunRequest(["python", "big.py"], run_dir, wall_s=60.0, mem_mb=512), "apptainer", str(folder / "python.sif")
    )
    assert memory.status == "error" and "MemoryError" in (run_dir / "stderr.txt").read_text()
    loop = run(
        RunRequest(["python", "loop.py"], run_dir, wall_s=3.0, mem_mb=512), "apptainer", str(folder / "python.sif")
    )
    assert loop.status == "timeout"


CONVERT = """
import sys
from simcodebench.execution import images
print(images.fuse_usable(), images.runnable_image(sys.argv[1]))
"""


def test_a_user_without_fuse_runs_a_sandbox_folder(folder, home_canary):
    """A user who is not root and cannot open /dev/fuse gets the image converted once into a sandbox folder, and
    runs it: as root the test is that user ``nobody``; as any other user, the user itself."""
    nobody = pwd.getpwnam("nobody")
    become = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
    if os.geteuid() != 0:
        become = []
    shared = Path(tempfile.mkdtemp(prefix="simcodebench-nobody-"))
    try:
        shared.chmod(0o777)
        sif = shared / "python.sif"
        shutil.copy2(folder / "python.sif", sif)
        sif.chmod(0o644)
        env = {"PATH": os.environ["PATH"], "HOME": str(shared), "PYTHONPATH": str(REPO / "src")}
        convert = [*become, sys.executable, "-c", CONVERT, str(sif)]
        for _ in range(2):  # converted once, then found
            done = subprocess.run(convert, capture_output=True, text=True, timeout=600, env=env, cwd=shared)
            assert done.returncode == 0, done.stderr[-3000:]
            fuse, runnable = done.stdout.split()
            assert runnable == (str(sif) if fuse == "True" else str(shared / "python.sandbox"))
        if fuse == "True":  # this user mounts the .sif itself: the conversion is not its path
            return
        assert images.image_digest(shared / "python.sandbox") == images.image_digest(sif)
        run_dir = shared / "run"
        request = _probe_request(run_dir, shared / "absent", 9, home_canary)
        run_dir.chmod(0o777)
        argv = apptainer_command(request, str(shared / "python.sandbox"), gpu=False, executable="apptainer")
        done = subprocess.run([*become, *argv], cwd=run_dir, capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        report = json.loads((run_dir / "report.json").read_text())
        assert report["cwd"] == "/work" and report["interfaces"] == ["lo"] and report["wrote_run"]
        assert not any(report[k] for k in ("repo", "home", "munge")) and not report["wrote_usr"]
    finally:
        shutil.rmtree(shared, ignore_errors=True)


CASES = {"re4": ["hilbert", "sod"], "cfd-code": ["1D_Diffusion"]}
AGENTS = {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}}
SAME = ["agent", "suite", "case", "sample", "attempt", "failure_class", "passed", "mutant"]


@pytest.mark.skipif(not bwrap_available(), reason="bubblewrap unusable here (the verdicts are compared with it)")
def test_oracles_and_mutants_give_the_bubblewrap_verdicts(folder, tmp_path):
    runs = {}
    for runtime in ("apptainer", "bwrap"):
        config = {"suites": list(CASES), "cases": CASES, "agents": AGENTS, "runtime": runtime}
        work = make_workdir(tmp_path / runtime, config)
        snakemake(work, env={images.IMAGES_VARIABLE: str(folder)})  # nothing but `runtime` names the images
        runs[runtime] = scores(work).sort_values(["agent", "suite", "case", "sample", "attempt"])
    contained, confined = runs["apptainer"], runs["bwrap"]
    assert set(contained.runtime) == {"apptainer"} and set(confined.runtime) == {"bwrap"}
    assert (contained[contained.agent == "oracle"].failure_class == "Pass").all()
    mutants = contained[contained.agent == "mutants"]
    assert (mutants.failure_class == mutants.declared_class).all(), mutants[["case", "mutant", "failure_class"]]
    assert contained[SAME].reset_index(drop=True).equals(confined[SAME].reset_index(drop=True))
    run_record = json.loads(next((tmp_path / "apptainer").rglob("oracle/re4/hilbert/0/0/run/run.json")).read_text())
    assert run_record["provenance"]["image"]["current"] is True
