"""Where the harness's own solver programs run: reference solves, refinement studies, untimed oracle runs.

They are the harness's code, not a model's, so they need no confinement; what they need is the solver
environment. The ``reference``, ``calibration`` and ``evaluate`` jobs set the run's runtime and images
(:func:`using`); where that runtime resolves to ``apptainer`` for an environment, its programs run in the
environment's image, so a cluster user needs neither ``.envs/`` nor root; elsewhere they run in the environment
provisioned here (``simcodebench env setup``), as they always did. Outside a job (a test, a benchmark script) the
runtime is ``auto`` with the default images.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from simcodebench.execution.environments import compiled_form_cache, get_environment
from simcodebench.execution.images import image_present, image_table
from simcodebench.execution.runtime import RunRequest, RunResult, apptainer, resolve_runtime, run


@dataclass(frozen=True)
class HarnessRuntime:
    """The configured runtime and images of the run the harness's programs belong to."""

    runtime: str = "auto"
    images: Mapping[str, str] = field(default_factory=dict)


_current = [HarnessRuntime()]
"""The setting of this process (a job is one process; its worker threads share it)."""


@contextlib.contextmanager
def using(runtime: str, images: Mapping[str, str]) -> Iterator[None]:
    """Run the harness's programs inside the block (and its threads) with the run's ``runtime`` and ``images``."""
    _current.append(HarnessRuntime(runtime, dict(images)))
    try:
        yield
    finally:
        _current.pop()


def placement(environment: str) -> tuple[str, str | None]:
    """``("apptainer", image)`` when the run's runtime puts ``environment`` in an image (``apptainer``, or
    ``auto`` where Apptainer and the image exist), else ``("local", None)``: the environment provisioned here.
    The harness's own code needs no confinement, so ``auto`` without any sandbox still runs it here."""
    setting = _current[-1]
    if setting.runtime in ("local", "bwrap"):
        return "local", None
    images = {**image_table(None, {environment}, Path.cwd()), **setting.images}
    if setting.runtime == "apptainer":
        resolve_runtime("apptainer", environment, images)  # says what is missing, if anything
        return "apptainer", images[environment]
    image = images.get(environment)
    if image and apptainer.apptainer_available() and image_present(image):
        return "apptainer", image
    return "local", None


def python_request(environment: str, argv: list[str], run_dir: Path, wall_s: float, mem_mb: int) -> RunRequest:
    """A request that runs ``python argv...`` in ``run_dir`` (the script and its inputs inside it) in
    ``environment``: the image's interpreter, or the local environment's with its compiled-form cache."""
    runtime, _ = placement(environment)
    if runtime == "apptainer":
        return RunRequest(command=["python", *argv], run_dir=run_dir, wall_s=wall_s, mem_mb=mem_mb)
    env = get_environment(environment)
    return RunRequest(
        command=[str(env.python), *argv],
        run_dir=run_dir,
        wall_s=wall_s,
        mem_mb=mem_mb,
        path_prefix=(env.bin_dir,),
        extra_env={"XDG_CACHE_HOME": str(compiled_form_cache(environment))},
    )


def run_harness_program(environment: str, request: RunRequest) -> RunResult:
    """Run ``request`` (from :func:`python_request`, or a suite's own) where ``environment`` lives for this run."""
    runtime, image = placement(environment)
    if runtime == "apptainer":  # the image's interpreter, caches inside the run folder
        request = replace(request, path_prefix=(), extra_env={})
    return run(request, runtime, image)
