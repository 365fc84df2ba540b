"""The execute step: lay out the sandbox working directory, run the artifact, record ``run.json``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import write_json
from simcodebench.core.registry import plugin_of
from simcodebench.execution import openfoam
from simcodebench.execution.compiled import build_program
from simcodebench.execution.environments import SolverEnvironment, environment_specs, get_environment
from simcodebench.execution.images import image_provenance
from simcodebench.execution.mpi import host_launcher, launcher, launcher_environment
from simcodebench.execution.provenance import provenance
from simcodebench.execution.runtime import RunRequest, RunResult, run

INFRA_RETRIES = 1
NO_ENVIRONMENT = "none"
NOTHING_TO_RUN = "nothing to run: the suite scores the artifact itself (environment none)"


def prepare_run_dir(case: Case, solution_dir: Path, run_dir: Path) -> None:
    """Empty ``run_dir``, then copy in the solution files, the case's visible inputs and whatever the suite
    plugin's ``prepare_run`` adds (nothing else)."""
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    for item in solution_dir.iterdir():
        if item.is_dir():
            shutil.copytree(item, run_dir / item.name)
        elif item.name != "manifest.json":
            shutil.copy2(item, run_dir / item.name)
    for name in case.visible.inputs:
        shutil.copy2(case.folder / name, run_dir / Path(name).name)
    plugin_of(case).prepare_run(case, run_dir)  # the suite's own files (a runner, the visible spec)


def seed_caches(environment: SolverEnvironment, run_dir: Path) -> dict[str, str]:
    """Give the run its own copy of the environment's prebuilt Matplotlib font cache (a shared writable one
    could be poisoned by one run for the next; a read-only one is rebuilt at every import)."""
    mplconfig = run_dir / ".cache" / "matplotlib"
    seed = environment.prefix / "mplconfig"
    if seed.is_dir():
        shutil.copytree(seed, mplconfig, dirs_exist_ok=True)
    return {"MPLCONFIGDIR": str(mplconfig.resolve())}


def build_request(case: Case, run_dir: Path, mpi: str | None = None, runtime: str = "local") -> RunRequest:
    """The run request of a case: its environment's interpreter and its entrypoint (or the suite's ``command``,
    for a compiled program) and its resources; a case asking for several ranks (``tasks``) is started by the MPI
    launcher (see :mod:`simcodebench.execution.mpi`).
    Under ``apptainer`` the image brings the environment: its own ``python`` (and ``mpiexec``) on its PATH."""
    resources = case.resources
    tasks = int(resources["tasks"])
    outer: tuple[str, ...] = ()
    if case.suite.environment in openfoam.ENVIRONMENTS:  # the case's Allrun starts its own ranks
        command = openfoam.command(case.suite.environment, case.suite.entrypoint, runtime)
        path_prefix, extra_env = (), openfoam.mpi_environment()
    elif runtime == "apptainer":  # the launcher stays outside the image (host MPI, or srun on a cluster)
        outer = tuple(host_launcher(tasks, mpi))
        command = case.suite.data.get("command", ["python", case.suite.entrypoint])
        path_prefix, extra_env = (), {}
    else:
        environment = get_environment(case.suite.environment)
        launch = launcher(tasks, environment.bin_dir, mpi)
        command = [*launch, *case.suite.data.get("command", [str(environment.python), case.suite.entrypoint])]
        path_prefix, extra_env = (environment.bin_dir,), seed_caches(environment, run_dir)
    return RunRequest(
        command=command,
        run_dir=run_dir,
        wall_s=float(resources["wall_s"]),
        mem_mb=int(resources["mem_mb"]),
        cpus=int(resources["cpus"]),
        gpus=int(resources.get("gpu", 0)),
        path_prefix=path_prefix,
        extra_env={**extra_env, **launcher_environment(tasks)},
        outer_launcher=outer,
    )


def execute_solution(
    case: Case,
    solution_dir: Path,
    run_dir: Path,
    runtime: str,
    mpi: str | None = None,
    images: dict[str, str] | None = None,
) -> RunResult:
    """Run one solution (``mpi``: the job's MPI launcher; ``images``: apptainer image per environment); an
    infrastructure failure is retried once, then recorded as ``infra``."""
    image = (images or {}).get(case.suite.environment)
    if case.suite.environment == NO_ENVIRONMENT:
        prepare_run_dir(case, solution_dir, run_dir)
        return RunResult(status="ok", rc=None, wall_s=0.0, peak_rss_mb=None, runtime=runtime, message=NOTHING_TO_RUN)
    result: RunResult | None = None
    for _ in range(INFRA_RETRIES + 1):
        try:
            prepare_run_dir(case, solution_dir, run_dir)
            request = build_request(case, run_dir, mpi, runtime)
            built = build_program(case, request, runtime, image)  # a compiled suite's build, timed apart
            result = built if built is not None and built.status != "ok" else run(request, runtime, image)
            if built is not None:
                result.extra.update(compile_s=built.wall_s, compile_cached=built.extra.get("cached", False))
            if case.suite.environment in openfoam.ENVIRONMENTS:
                result = openfoam.judge_run(result, run_dir)
            if runtime == "apptainer" and image is not None:
                result.extra["image"] = image_provenance(image, environment_specs().get(case.suite.environment))
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
    image = result.extra.get("image") if result is not None else None
    record["provenance"] = provenance(case.suite.environment, runtime, image)
    write_json(path, record)
    return record
