"""Physics on a cluster: the full cases ask SLURM for a GPU (the plugin's ``--gpus``) and Apptainer for the
driver (``--nv``); the smoke variant asks for neither. That a case asking for a GPU runs here on Genesis's CPU
backend, whatever the script asks, is checked through the workflow in ``test_pipeline_physics.py``."""

from __future__ import annotations

from types import SimpleNamespace

from snakemake_executor_plugin_slurm.utils import set_gres_string

from simcodebench.core.cases import get_case
from simcodebench.execution.runtime.apptainer import apptainer_command
from simcodebench.execution.sandbox import build_request
from simcodebench.pipeline.plan import Plan


class JobResources(dict):
    """A job's resources as the SLURM plugin reads them (``.get`` and attributes)."""

    __getattr__ = dict.get


def asked(suite: str) -> dict[str, object]:
    """What the workflow asks for the execution of ball_drop in ``suite`` (None: left out of the job)."""
    case = get_case(suite, "ball_drop")
    return Plan(agents={}, cases={(suite, "ball_drop"): case}, mpi="srun").resources(suite, "ball_drop")


def gpu_options(suite: str) -> str:
    """The GPU options the SLURM executor plugin puts on the sbatch line of that execution."""
    resources = {k: v for k, v in asked(suite).items() if v is not None}
    return set_gres_string(SimpleNamespace(resources=JobResources(resources)))


def test_full_physics_cases_ask_slurm_for_a_gpu_and_the_time_and_memory_of_a_run():
    case = get_case("physics", "ball_drop")
    assert (case.resources["gpu"], case.resources["wall_s"], case.resources["mem_mb"]) == (1, 1200, 8192)
    assert asked("physics").items() >= {"gpu": 1, "runtime": 21, "mem_mb": 8704, "cpus_per_task": 2}.items()
    assert gpu_options("physics") == " --gpus=1"


def test_the_smoke_variant_asks_for_no_gpu():
    assert asked("physics@smoke")["gpu"] is None
    assert gpu_options("physics@smoke") == ""


def test_apptainer_passes_the_gpu_through_only_for_gpu_cases(tmp_path):
    for suite, nv in (("physics", True), ("physics@smoke", False)):
        request = build_request(get_case(suite, "ball_drop"), tmp_path, runtime="apptainer")
        argv = apptainer_command(request, "genesis.sif", gpu=request.gpus > 0)
        assert ("--nv" in argv) is nv, (suite, argv)
