"""MPI: a case asking for N ranks runs as ``<launcher> -n N python <entrypoint>``; shown with mpi4py on 2 ranks,
unconfined and in the bubblewrap sandbox."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import mpi_env
import pytest
from missing import require_or_skip

from simcodebench.core.cases import Case, load_suite_cases
from simcodebench.core.errors import InfrastructureError
from simcodebench.execution import sandbox as execution
from simcodebench.execution.environments import SolverEnvironment
from simcodebench.execution.mpi import launcher, launcher_environment
from simcodebench.execution.runtime import run
from simcodebench.execution.runtime.bwrap import bwrap_available


def _case(repo: Path, tasks: int) -> Case:
    case = next(c for c in load_suite_cases(repo / "cases" / "re4") if c.id == "hilbert")
    return dataclasses.replace(case, resources={**case.resources, "tasks": tasks, "wall_s": 60.0})


def _fake_environment(tmp_path: Path) -> SolverEnvironment:
    env = SolverEnvironment("python", tmp_path / "env")
    env.bin_dir.mkdir(parents=True)
    for tool in ("python", "mpiexec"):
        (env.bin_dir / tool).touch(mode=0o755)
    return env


@pytest.fixture
def outside_slurm(monkeypatch):
    for name in ("SLURM_JOB_ID", "SLURM_JOBID"):
        monkeypatch.delenv(name, raising=False)


def test_one_task_needs_no_launcher(tmp_path, outside_slurm):
    assert launcher(1, tmp_path, "srun") == []
    assert launcher_environment(1) == {}


def test_outside_slurm_the_environments_own_mpiexec_starts_the_ranks(tmp_path, outside_slurm):
    env = _fake_environment(tmp_path)
    expected = [str(env.bin_dir / "mpiexec"), "-n", "4"]
    assert launcher(4, env.bin_dir, None) == expected
    assert launcher(4, env.bin_dir, "srun") == expected  # srun means nothing without an allocation
    assert launcher_environment(4) == {}


def test_mpiexec_falls_back_to_path_then_fails_clearly(tmp_path, outside_slurm, monkeypatch):
    on_path = tmp_path / "path"
    on_path.mkdir()
    (on_path / "mpiexec").touch(mode=0o755)
    monkeypatch.setenv("PATH", str(on_path))
    assert launcher(2, tmp_path / "no-env", None) == [str(on_path / "mpiexec"), "-n", "2"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(InfrastructureError, match="no mpiexec"):
        launcher(2, tmp_path / "no-env", None)


def test_inside_slurm_the_mpi_resource_is_the_launcher(tmp_path, monkeypatch):
    env = _fake_environment(tmp_path)
    monkeypatch.setenv("SLURM_JOB_ID", "42")
    monkeypatch.setenv("SLURM_CONF", "/etc/slurm/x.conf")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-for-the-child")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert launcher(3, env.bin_dir, "srun --mpi=pmi2") == ["srun", "--mpi=pmi2", "-n", "3"]
    assert launcher(3, env.bin_dir, "mpiexec") == [str(env.bin_dir / "mpiexec"), "-n", "3"]
    assert launcher_environment(3) == {"SLURM_JOB_ID": "42", "SLURM_CONF": "/etc/slurm/x.conf"}


def test_build_request_wraps_the_command_for_several_tasks(repo, tmp_path, outside_slurm, monkeypatch):
    env = _fake_environment(tmp_path)
    monkeypatch.setattr(execution, "get_environment", lambda name: env)
    single = execution.build_request(_case(repo, 1), tmp_path / "run", "srun")
    assert single.command == [str(env.python), "solution.py"]
    multi = execution.build_request(_case(repo, 2), tmp_path / "run", "srun")
    assert multi.command == [str(env.bin_dir / "mpiexec"), "-n", "2", str(env.python), "solution.py"]


@pytest.mark.parametrize("runtime", ["local", "bwrap"])
def test_mpi4py_program_runs_on_two_ranks_through_the_runtime(repo, tmp_path, outside_slurm, monkeypatch, runtime):
    reason = mpi_env.missing()
    if reason:
        require_or_skip("mpi", reason)
    if runtime == "bwrap" and not bwrap_available():
        pytest.skip("bubblewrap is not usable")
    monkeypatch.setattr(execution, "get_environment", lambda name: mpi_env.environment())
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    mpi_env.write_program(run_dir / "solution.py")
    result = run(execution.build_request(_case(repo, 2), run_dir, None, runtime), runtime)
    assert (result.status, result.rc) == ("ok", 0), (run_dir / "stderr.txt").read_text()
    assert sorted(p.read_text() for p in run_dir.glob("rank*.txt")) == ["0 2 3", "1 2 3"]
