"""The execute step: lay out the sandbox working directory, run the artifact, record ``run.json``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .cases import Case
from .envs import get_environment
from .errors import InfrastructureError
from .io import write_json
from .provenance import provenance
from .runtime import RunRequest, RunResult, run

INFRA_RETRIES = 1


def prepare_run_dir(case: Case, solution_dir: Path, run_dir: Path) -> None:
    """Empty ``run_dir``, then copy in the solution files and the case's visible inputs (nothing else)."""
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    for item in solution_dir.iterdir():
        if item.name != "manifest.json":
            shutil.copy2(item, run_dir / item.name)
    for name in case.visible.inputs:
        shutil.copy2(case.folder / name, run_dir / Path(name).name)


def build_request(case: Case, run_dir: Path) -> RunRequest:
    """The run request of a case: its environment's interpreter, its entrypoint and its resources."""
    environment = get_environment(case.suite.environment)
    resources = case.resources
    return RunRequest(
        command=[str(environment.python), case.suite.entrypoint],
        run_dir=run_dir,
        wall_s=float(resources["wall_s"]),
        mem_mb=int(resources["mem_mb"]),
        cpus=int(resources["cpus"]),
        path_prefix=(environment.bin_dir,),
        extra_env={"MPLCONFIGDIR": str(environment.prefix / "mplconfig")},
    )


def execute_solution(case: Case, solution_dir: Path, run_dir: Path, runtime: str) -> RunResult:
    """Run one solution; an infrastructure failure is retried once, then recorded as ``infra``."""
    result: RunResult | None = None
    for _ in range(INFRA_RETRIES + 1):
        try:
            prepare_run_dir(case, solution_dir, run_dir)
            result = run(build_request(case, run_dir), runtime)
        except InfrastructureError as exc:
            result = RunResult(status="infra", rc=None, wall_s=0.0, peak_rss_mb=None, runtime=runtime, message=str(exc))
        if result.status != "infra":
            break
    assert result is not None
    return result


def write_run_record(
    path: Path, result: RunResult | None, case: Case, runtime: str, not_run_reason: str | None = None
) -> dict[str, Any]:
    """Write ``run.json``: the run's result, or why nothing was run."""
    if result is None:
        record: dict[str, Any] = {"status": "not_run", "reason": not_run_reason}
    else:
        record = result.to_dict()
    record["provenance"] = provenance(case.suite.environment, runtime)
    write_json(path, record)
    return record
