from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from simcodebench.execution.runtime import RunRequest, run


def _request(tmp_path: Path, code: str, **limits) -> RunRequest:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "main.py").write_text(code)
    settings = {"wall_s": 20.0, "mem_mb": 1024, "cpus": 1, **limits}
    return RunRequest(command=[sys.executable, "main.py"], run_dir=run_dir, **settings)


def test_success_records_rc_time_memory_and_output(tmp_path):
    result = run(_request(tmp_path, "print('hello')\n"), "local")
    assert (result.status, result.rc) == ("ok", 0)
    assert result.wall_s > 0 and result.peak_rss_mb and result.peak_rss_mb > 1
    assert (tmp_path / "run" / "stdout.txt").read_text() == "hello\n"


def test_nonzero_exit_is_an_error(tmp_path):
    result = run(_request(tmp_path, "import sys\nsys.exit(3)\n"), "local")
    assert (result.status, result.rc) == ("error", 3)


def test_timeout_kills_the_whole_process_group(tmp_path):
    code = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "open('child.pid', 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    started = time.perf_counter()
    result = run(_request(tmp_path, code, wall_s=2.0), "local")
    assert result.status == "timeout"
    assert time.perf_counter() - started < 60  # back before the child's sleep ends: killed, not waited for
    pid = int((tmp_path / "run" / "child.pid").read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_environment_has_no_secrets_and_pinned_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret")
    code = "import os, json\njson.dump(dict(os.environ), open('env.json', 'w'))\n"
    result = run(_request(tmp_path, code, cpus=2), "local")
    assert result.status == "ok"
    text = (tmp_path / "run" / "env.json").read_text()
    assert "sk-secret-value" not in text and "aws-secret" not in text
    assert '"OMP_NUM_THREADS": "2"' in text and '"OPENBLAS_NUM_THREADS": "2"' in text
    assert os.environ["OPENAI_API_KEY"] == "sk-secret-value"


def test_output_is_capped_but_drained(tmp_path):
    code = "import sys\nfor _ in range(200):\n    sys.stdout.write('x' * 10000)\n"
    result = run(_request(tmp_path, code, output_cap_bytes=50_000), "local")
    assert result.status == "ok"
    assert result.stdout_bytes == 2_000_000 and result.output_truncated
    assert (tmp_path / "run" / "stdout.txt").stat().st_size == 50_000


def test_memory_limit_stops_a_large_allocation(tmp_path):
    code = "x = bytearray(3 * 1024**3)\nprint(len(x))\n"
    result = run(_request(tmp_path, code, mem_mb=512), "local")
    assert result.status == "error"
    assert "MemoryError" in (tmp_path / "run" / "stderr.txt").read_text()


def test_missing_interpreter_is_an_infrastructure_failure(tmp_path):
    request = _request(tmp_path, "")
    broken = RunRequest(command=["/nonexistent/python", "main.py"], run_dir=request.run_dir, wall_s=5, mem_mb=256)
    result = run(broken, "local")
    # prlimit starts but cannot exec the interpreter: a non-zero exit, never a hang
    assert result.status in ("error", "infra")
