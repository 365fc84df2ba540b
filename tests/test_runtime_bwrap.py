"""The bubblewrap runtime: what a program inside can and cannot see, write, reach and leave behind."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.runtime import RunRequest, run
from simcodebench.execution.runtime.bwrap import bwrap_available, bwrap_command, environment_paths

pytestmark = pytest.mark.skipif(not bwrap_available(), reason="bubblewrap unusable here")

REPO = Path(__file__).resolve().parents[1]


def _request(env, tmp_path: Path, code: str, **limits) -> RunRequest:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "main.py").write_text(code)
    settings = {"wall_s": 20.0, "mem_mb": 1024, "cpus": 1, **limits}
    return RunRequest(command=[str(env.python), "main.py"], run_dir=run_dir, path_prefix=(env.bin_dir,), **settings)


def _report(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "run" / "report.json").read_text())


def _processes_with(marker: str) -> list[str]:
    """Host processes whose command line holds ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(proc.name)
        except OSError:
            continue
    return found


def test_sandbox_sees_only_loopback_and_no_host_files(python_env, tmp_path):
    hidden = tmp_path / "hidden.json"
    hidden.write_text('{"secret": 1}')
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    code = f"""
import json, os, socket
report = {{"interfaces": [name for _, name in socket.if_nameindex()]}}
for name, path in {{"hidden": {str(hidden)!r}, "repo": {str(REPO / "pyproject.toml")!r},
                    "cases": {str(REPO / "cases")!r}, "munge": "/etc/munge", "shadow": "/etc/shadow"}}.items():
    report[name] = os.path.exists(path)
report["root_entries"] = sorted(os.listdir("/"))
for name, kind, address in (("loopback", socket.SOCK_STREAM, ("127.0.0.1", {port})),
                            ("outside", socket.SOCK_DGRAM, ("1.1.1.1", 53))):  # a UDP connect sends nothing
    sock = socket.socket(socket.AF_INET, kind)
    sock.settimeout(2)
    try:
        sock.connect(address)
        report[name] = "connected"
    except OSError as exc:
        report[name] = type(exc).__name__
json.dump(report, open("report.json", "w"))
"""
    with listener:
        result = run(_request(python_env, tmp_path, code), "bwrap")
    assert result.status == "ok", (tmp_path / "run" / "stderr.txt").read_text()
    report = _report(tmp_path)
    assert report["interfaces"] == ["lo"]
    assert report["loopback"] != "connected" and report["outside"] != "connected"
    assert not any(report[k] for k in ("hidden", "repo", "cases", "munge", "shadow"))
    assert not {"home", "opt", "var", "srv", "mnt"} & set(report["root_entries"])


def test_run_dir_is_the_only_writable_place(python_env, tmp_path):
    code = f"""
import json
report = {{}}
for name, path in {{"run": "out.txt", "usr": "/usr/pwned", "env": {str(python_env.prefix / "pwned")!r},
                    "tmp": "/tmp/scb-bwrap-test-private"}}.items():
    try:
        open(path, "w").write("x")
        report[name] = "written"
    except OSError as exc:
        report[name] = type(exc).__name__
json.dump(report, open("report.json", "w"))
"""
    result = run(_request(python_env, tmp_path, code), "bwrap")
    assert result.status == "ok"
    assert _report(tmp_path) == {"run": "written", "usr": "OSError", "env": "OSError", "tmp": "written"}
    assert not Path("/tmp/scb-bwrap-test-private").exists()  # the sandbox's /tmp is its own
    assert not (python_env.prefix / "pwned").exists()


def test_environment_holds_no_secret_even_in_proc(python_env, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-bwrap-secret")
    code = """
import glob, json, os
seen = [dict(os.environ)]
for path in glob.glob("/proc/*/environ"):
    try:
        seen.append(open(path, "rb").read().decode(errors="replace"))
    except OSError:
        pass
json.dump(seen, open("report.json", "w"))
"""
    result = run(_request(python_env, tmp_path, code, cpus=2), "bwrap")
    assert result.status == "ok"
    text = (tmp_path / "run" / "report.json").read_text()
    assert "sk-bwrap-secret" not in text
    assert _report(tmp_path)[0]["OMP_NUM_THREADS"] == "2"


DAEMON = """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open("daemon.started", "w").write(str(os.getpid()))
        os.execv("/bin/sleep", ["sleep", "{marker}"])
    os._exit(0)
time.sleep(0.5)
"""


@pytest.mark.parametrize("ending", ["exits", "hangs"])
def test_no_process_outlives_the_run(python_env, tmp_path, ending):
    marker = f"{4000 + os.getpid() % 1000}.{1 if ending == 'exits' else 2}17"
    code = DAEMON.format(marker=marker) + ("while True:\n    pass\n" if ending == "hangs" else "")
    started = time.perf_counter()
    result = run(_request(python_env, tmp_path, code, wall_s=3.0), "bwrap")
    assert result.status == ("ok" if ending == "exits" else "timeout")
    assert time.perf_counter() - started < 600  # the daemon sleeps over an hour: it was killed, not waited for
    assert (tmp_path / "run" / "daemon.started").is_file()
    time.sleep(0.3)
    assert _processes_with(marker) == []


def test_memory_limit_and_peak_memory_apply_to_the_program(python_env, tmp_path):
    code = "x = bytearray(200 * 1024**2)\nx[::4096] = b'1' * len(x[::4096])\ny = bytearray(3 * 1024**3)\n"
    result = run(_request(python_env, tmp_path, code, mem_mb=768), "bwrap")
    assert result.status == "error"
    assert "MemoryError" in (tmp_path / "run" / "stderr.txt").read_text()
    assert result.peak_rss_mb is not None and result.peak_rss_mb > 150


def test_a_crash_is_recorded_as_killed_by_its_signal(python_env, tmp_path):
    result = run(_request(python_env, tmp_path, "import ctypes\nctypes.string_at(0)\n"), "bwrap")
    assert (result.status, result.signal) == ("killed", "SIGSEGV")


def test_environment_paths_include_the_interpreter_a_venv_links_to(python_env, tmp_path):
    base = subprocess.run(
        [str(python_env.python), "-c", "import sys; print(sys.base_prefix)"], capture_output=True, text=True
    ).stdout.strip()
    request = _request(python_env, tmp_path, "")
    paths = environment_paths(request)
    assert python_env.prefix in paths
    assert any(Path(base).resolve().is_relative_to(p.resolve()) for p in paths) or base.startswith("/usr")
    argv = bwrap_command(request)
    assert argv.count("--bind") == 1 and argv[argv.index("--bind") + 1] == str(request.run_dir)
    assert {"--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1"} <= set(argv)


def test_an_environment_around_the_run_dir_is_refused(tmp_path):
    env_bin = tmp_path / "bin"
    env_bin.mkdir()
    request = RunRequest(command=[str(env_bin / "python"), "main.py"], run_dir=tmp_path / "run", wall_s=1, mem_mb=64)
    with pytest.raises(InfrastructureError, match="would expose"):
        environment_paths(request)
    repo_wide = RunRequest(command=[str(REPO / "bin" / "python")], run_dir=tmp_path / "run", wall_s=1, mem_mb=64)
    with pytest.raises(InfrastructureError, match="would expose"):
        environment_paths(repo_wide)
