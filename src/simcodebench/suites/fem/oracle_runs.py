"""Running the fem oracle outside the pipeline's sandbox runs: for numerical references and the refinement filter.

A run lays out a directory exactly as the execute step does (the oracle as ``solver.py`` or ``solver.cc``, the
runner or the CMake project, ``case_spec.json``), with the oracle configured by ``config``, compiles it where the
suite has a build step, and starts it in the case's environment (local runtime, the case's MPI ranks). Unlike a
timed run it keeps compiled forms in a cache shared by every oracle run (:func:`jit_cache`), since nothing here
is timed and the oracle is trusted.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.measurement import Measurement
from simcodebench.execution.compiled import build_program
from simcodebench.execution.environments import compiled_form_cache
from simcodebench.suites.fem import grid, harness
from simcodebench.suites.fem.outputs import load_field

UNTIMED_WALL_FACTOR = 10
"""An untimed run's wall limit, in multiples of the case's ``wall_s`` (an agent's limit): a reference level is up
to twice as fine in each direction and of a higher degree than the calibration's discretisation. Upstream
``reaction_diffusion_no_exact_oscillatory_rhs_cubic``'s intermediate level (P2 on 184^2 cells, 60 Newton steps)
ran past the 300 s an agent gets."""


def run_oracle(case: Case, config: dict[str, Any], keep: Path | None = None) -> np.ndarray:
    """The oracle's grid field under ``config`` (a discretisation); raise when the run fails."""
    from simcodebench.execution.harness_runs import placement
    from simcodebench.execution.runtime import run
    from simcodebench.execution.sandbox import build_request

    work = Path(tempfile.mkdtemp(prefix=f"fem-{case.id}-")) if keep is None else keep
    try:
        work.mkdir(parents=True, exist_ok=True)
        (work / case.suite.data["extraction"]["filename"]).write_text(
            harness.configured_oracle(case, config), encoding="utf-8"
        )
        harness.prepare_run(case, work)
        runtime, image = placement(case.suite.environment)  # the run's image, or the environment provisioned here
        request = build_request(case, work, runtime=runtime)
        request = replace(
            request,
            extra_env={**request.extra_env, "XDG_CACHE_HOME": str(jit_cache(case))},
            mem_mb=max(request.mem_mb, reference_mem_mb()),
            wall_s=request.wall_s * UNTIMED_WALL_FACTOR,
        )
        built = build_program(case, request, runtime, image)
        result = built if built is not None and built.status != "ok" else run(request, runtime, image)
        if result.status != "ok":
            stderr = (work / "stderr.txt").read_text(errors="replace")[-3000:]
            raise InfrastructureError(f"{case.key}: oracle run with {config} ended {result.status}: {stderr}")
        field = load_field(work, grid.shape(harness.case_spec(case)["eval_grid"]))
        if isinstance(field, Measurement):
            raise InfrastructureError(f"{case.key}: the oracle's outputs with {config}: {field.message}")
        return field
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


def reference_mem_mb() -> int:
    """The memory limit of the oracle's untimed runs: three quarters of the machine's memory. The finest level
    (P3 Taylor-Hood on 240^2 cells: 1.3M unknowns, 3.4 GB of LU factors) outgrows an agent's limit, and MUMPS,
    refused the memory, returns NaN rather than an error."""
    return int(0.75 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)


def jit_cache(case: Case) -> Path:
    """The compiled-form cache of the oracle's untimed runs
    (:func:`~simcodebench.execution.environments.compiled_form_cache`)."""
    return compiled_form_cache(case.suite.environment)


def level_configs(case: Case) -> list[dict[str, Any]]:
    """L0 (the calibration configuration), L1 and L2 (the reference) of a ``refined`` case."""
    params = case.hidden.reference["params"]
    return [params["oracle"], params["intermediate"], params["reference"]]
