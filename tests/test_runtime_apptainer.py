"""The apptainer runtime's command line, and how ``runtime: auto`` chooses among apptainer, bwrap and local."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from simcodebench.core.errors import InfrastructureError, InputError
from simcodebench.execution import runtime
from simcodebench.execution.images import image_present, image_table
from simcodebench.execution.runtime import RunRequest, apptainer, bwrap, resolve_runtime
from simcodebench.execution.runtime.apptainer import apptainer_command, container_environment
from simcodebench.pipeline.plan import Plan

REPO = Path(__file__).resolve().parents[1]


def _request(tmp_path: Path, **fields) -> RunRequest:
    settings = {"command": ["python", "solver.py"], "run_dir": tmp_path / "run", "wall_s": 60.0, "mem_mb": 2048}
    return RunRequest(**{**settings, **fields})


def _options(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, word in enumerate(argv) if word == flag]


def test_command_contains_the_process_and_runs_in_work(tmp_path):
    request = _request(tmp_path, cpus=4)
    argv = apptainer_command(request, "/images/dolfinx.sif", gpu=False)
    image_at = argv.index("/images/dolfinx.sif")
    assert argv[:7] == ["apptainer", "exec", "--containall", "--cleanenv", "--net", "--network", "none"]
    assert _options(argv, "--bind") == [f"{(tmp_path / 'run').resolve()}:/work"]
    assert _options(argv, "--pwd") == ["/work"]
    assert "--nv" not in argv
    limits = ["prlimit", f"--as={2048 * 1024 * 1024}", "--core=0", "--nproc=1024", "--"]
    assert argv[image_at + 1 :] == [*limits, "python", "solver.py"]


def test_environment_inside_points_at_work_and_pins_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-inside")
    request = _request(tmp_path, cpus=4, extra_env={"MPLCONFIGDIR": "/host/env/mplconfig"})
    argv = apptainer_command(request, "docker://dolfinx/dolfinx:v0.11.0", gpu=False)
    env = dict(item.split("=", 1) for item in _options(argv, "--env"))
    assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "4"
    inside = str(apptainer.WORK)  # the container's mount point of the run directory
    assert env["TMPDIR"] == f"{inside}/.tmp"
    for name in ("XDG_CACHE_HOME", "MPLCONFIGDIR", "NUMBA_CACHE_DIR", "PYOP2_CACHE_DIR", "TRITON_CACHE_DIR"):
        assert env[name].startswith(f"{inside}/"), name
    assert "PATH" not in env and "HOME" not in env  # the image's PATH finds its interpreter
    assert "sk-never-inside" not in " ".join(argv)
    assert str(tmp_path) not in " ".join(_options(argv, "--env"))


def test_gpu_runs_get_nv_and_their_devices(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    request = _request(tmp_path, gpus=1)
    argv = apptainer_command(request, "genesis.sif", gpu=True, extra_binds=["/data/meshes:/meshes:ro"])
    assert "--nv" in argv and argv.index("--nv") < argv.index("genesis.sif")
    assert _options(argv, "--bind")[1:] == ["/data/meshes:/meshes:ro"]
    assert "CUDA_VISIBLE_DEVICES=1" in _options(argv, "--env")
    assert "CUDA_VISIBLE_DEVICES" not in container_environment(request, gpu=False)


def test_images_resolve_against_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMCODEBENCH_IMAGES", raising=False)
    configured = {"python": "docker://python:3.11.7-slim-bookworm", "dolfinx": "images/dolfinx.sif"}
    table = image_table(configured, {"python", "dolfinx", "fea"}, tmp_path)
    assert table["python"] == "docker://python:3.11.7-slim-bookworm"
    assert table["dolfinx"] == str(tmp_path / "images" / "dolfinx.sif")
    assert table["fea"] == str(REPO / "containers" / "fea.sif")  # not configured: the checkout's default
    assert image_table("/shared/images", {"python"}, tmp_path) == {"python": "/shared/images/python.sif"}
    monkeypatch.setenv("SIMCODEBENCH_IMAGES", str(tmp_path / "site"))
    assert image_table(None, {"python"}, tmp_path) == {"python": str(tmp_path / "site" / "python.sif")}
    assert image_present("docker://python:3.11.7-slim-bookworm")
    assert not image_present(str(tmp_path / "missing.sif"))


@pytest.fixture
def available(monkeypatch, caplog):
    """Set which sandboxes exist here; forget what was already announced."""
    monkeypatch.setattr(runtime, "_announced", set())
    caplog.set_level(logging.INFO, logger="simcodebench")

    def set_available(apptainer_on_path: bool, bwrap_works: bool) -> None:
        monkeypatch.setattr(apptainer, "apptainer_available", lambda: apptainer_on_path)
        monkeypatch.setattr(bwrap, "bwrap_available", lambda: bwrap_works)

    return set_available


def test_auto_prefers_apptainer_with_an_image(available, caplog):
    available(apptainer_on_path=True, bwrap_works=True)
    assert resolve_runtime("auto", "python", {"python": "docker://python:3.11.7-slim-bookworm"}) == "apptainer"
    assert "runtime apptainer for environment 'python'" in caplog.text


@pytest.mark.parametrize(
    ("apptainer_on_path", "images", "why"),
    [
        (False, {"python": "docker://x"}, "apptainer is not on PATH"),
        (True, {}, "no image is configured for environment 'python'"),
        (True, {"python": "/nonexistent/python.sif"}, "does not exist"),
    ],
)
def test_auto_falls_back_to_bwrap_and_says_why(available, caplog, apptainer_on_path, images, why):
    available(apptainer_on_path=apptainer_on_path, bwrap_works=True)
    assert resolve_runtime("auto", "python", images) == "bwrap"
    assert why in caplog.text


def test_auto_never_falls_back_to_running_unconfined(available, caplog):
    available(apptainer_on_path=False, bwrap_works=False)
    with pytest.raises(InfrastructureError) as refused:
        resolve_runtime("auto", "python", {})
    message = str(refused.value)
    assert "\n" not in message and "runtime: local" in message and "bubblewrap" in message
    assert "make images" in message
    assert "UNCONFINED" not in caplog.text  # nothing ran


def test_configured_local_warns_too(available, caplog):
    available(apptainer_on_path=True, bwrap_works=True)
    assert resolve_runtime("local", "python", {"python": "docker://x"}) == "local"
    assert "UNCONFINED" in caplog.text


def test_configured_runtimes_that_cannot_work_are_refused(available):
    available(apptainer_on_path=False, bwrap_works=False)
    with pytest.raises(InfrastructureError, match="bubblewrap"):
        resolve_runtime("bwrap", "python", {})
    with pytest.raises(InfrastructureError, match="not on PATH"):
        resolve_runtime("apptainer", "python", {"python": "docker://x"})
    available(apptainer_on_path=True, bwrap_works=False)
    with pytest.raises(InfrastructureError, match="no image for environment 'python'"):
        resolve_runtime("apptainer", "python", {})
    with pytest.raises(ValueError, match="unknown runtime"):
        resolve_runtime("docker", "python", {})


def test_plan_finds_the_images_by_default_and_names_the_fix_when_absent(tmp_path, monkeypatch):
    config = {"suites": ["re4"], "cases": {"re4": ["hilbert"]}, "agents": {"o": {"backend": "oracle"}}}
    monkeypatch.setenv("SIMCODEBENCH_IMAGES", str(tmp_path / "images"))
    with pytest.raises(InputError, match=r"field 'images'.*python.sif.*make images"):
        Plan.from_config({**config, "runtime": "apptainer"})
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "python.sif").write_bytes(b"")  # what make images leaves there
    assert Plan.from_config({**config, "runtime": "apptainer"}).images == {
        "python": str(tmp_path / "images/python.sif")
    }
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"field 'images.python'"):
        Plan.from_config({**config, "runtime": "apptainer", "images": {"python": "elsewhere/python.sif"}})
    plan = Plan.from_config({**config, "runtime": "apptainer", "images": "images"})
    assert plan.images == {"python": str(tmp_path / "images" / "python.sif")}


def test_mpi_launcher_stays_outside_the_image(tmp_path, monkeypatch):
    """Several ranks: the host's launcher (the job's `mpi` resource inside SLURM) starts apptainer, not the reverse."""
    from simcodebench.core.cases import get_case
    from simcodebench.execution.sandbox import build_request

    case = get_case("re4", "hilbert")
    monkeypatch.setitem(case.resources, "tasks", 4)
    monkeypatch.setenv("SLURM_JOB_ID", "42")
    request = build_request(case, tmp_path, mpi="srun --mpi=pmi2", runtime="apptainer")
    argv = apptainer_command(request, "img.sif", gpu=False)
    assert Path(argv[0]).name == "srun" and argv[1:4] == ["--mpi=pmi2", "-n", "4"]
    assert argv[4] == "apptainer" and argv[5] == "exec"
    assert "mpiexec" not in argv and "srun" not in argv[5:]
    assert argv[argv.index("img.sif") + 1 :][-2:] == ["python", "solution.py"]
