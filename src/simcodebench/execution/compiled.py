"""Programs the harness compiles before running them (a suite's ``build`` in ``suite.yaml``).

The build runs in the same runtime and sandbox as the program, in the run directory, under its own wall-clock
limit (``build.wall_s``); its output goes to ``build_stdout.txt`` and ``build_stderr.txt`` (and stays in
``stdout.txt`` and ``stderr.txt`` when it fails, as the run's output). It is timed apart:
the run's ``wall_s`` (the time gate) covers the program alone, and ``extra.compile_s`` records the build.
A sample is compiled once: the built program is cached under ``.envs/<environment>-builds/<hash of the run
directory's sources and, in an image, the image>``, so calibration repeats and infrastructure retries reuse it
(``extra.compile_cached``).
A build that fails is the run's result (F-Exec: the code does not compile).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

from simcodebench.core.cases import Case
from simcodebench.execution.environments import envs_root
from simcodebench.execution.runtime import RunRequest, RunResult, run


def source_hash(run_dir: Path, toolchain: str = "") -> str:
    """SHA-256 over the names and bytes of every file the build can see (the prepared run directory) and the
    toolchain it is built with (an image's path: a program built in an image is kept apart from one built here)."""
    digest = hashlib.sha256(toolchain.encode() + b"\0")
    for path in sorted(p for p in run_dir.rglob("*") if p.is_file() and ".tmp" not in p.parts):
        digest.update(str(path.relative_to(run_dir)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dir(case: Case) -> Path:
    """Where the environment's built programs are kept."""
    return envs_root() / f"{case.suite.environment}-builds"


def build_program(case: Case, request: RunRequest, runtime: str, image: str | None = None) -> RunResult | None:
    """Compile the program of a prepared run directory (None when the suite has no build step)."""
    spec = case.suite.data.get("build")
    if spec is None:
        return None
    run_dir, output = request.run_dir, spec["output"]
    cached = cache_dir(case) / source_hash(run_dir, image if runtime == "apptainer" and image else "")
    if (cached / "program").is_file():
        (run_dir / output).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached / "program", run_dir / output)
        compile_s = json.loads((cached / "build.json").read_text())["compile_s"]
        return RunResult(status="ok", rc=0, wall_s=compile_s, peak_rss_mb=None, runtime=runtime, extra={"cached": True})
    limits = {"command": list(spec["command"]), "wall_s": float(spec.get("wall_s", 900))}
    result = run(replace(request, **limits), runtime, image)
    if result.status == "ok" and not (run_dir / output).is_file():
        result.status, result.message = "error", f"the build wrote no {output}"
    for stream in ("stdout", "stderr"):  # a failed build's output stays the run's own (what feedback shows)
        if (run_dir / f"{stream}.txt").is_file():
            move = shutil.move if result.status == "ok" else shutil.copy2
            move(run_dir / f"{stream}.txt", run_dir / f"build_{stream}.txt")
    if result.status != "ok":
        result.message = f"compilation failed: {result.message}"
        return result
    cached.mkdir(parents=True, exist_ok=True)
    shutil.copy2(run_dir / output, cached / "program")
    (cached / "build.json").write_text(json.dumps({"compile_s": result.wall_s}))
    result.extra["cached"] = False
    return result
