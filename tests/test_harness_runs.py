"""Where the harness's own solver programs run: in the run's image when its runtime puts the environment there,
else in the environment provisioned here; jobs set the runtime for all their threads."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.harness_runs import placement, python_request, using
from simcodebench.execution.runtime import apptainer


@pytest.fixture
def image(tmp_path, monkeypatch) -> Path:
    """An image file where the default images are, and apptainer 'on PATH'."""
    (tmp_path / "python.sif").write_bytes(b"")
    monkeypatch.setenv("SIMCODEBENCH_IMAGES", str(tmp_path))
    monkeypatch.setattr(apptainer, "apptainer_available", lambda: True)
    return tmp_path / "python.sif"


def test_outside_a_job_auto_uses_an_image_where_one_exists(image):
    assert placement("python") == ("apptainer", str(image))
    assert placement("dolfinx") == ("local", None)  # no dolfinx.sif: the environment provisioned here


def test_the_jobs_runtime_decides_for_the_job_and_its_threads(image):
    seen = []
    with using("bwrap", {}):
        assert placement("python") == ("local", None)
        with using("apptainer", {"python": str(image)}):
            worker = threading.Thread(target=lambda: seen.append(placement("python")))
            worker.start()
            worker.join()
        assert placement("python") == ("local", None)
    assert seen == [("apptainer", str(image))]
    with using("local", {"python": str(image)}):
        assert placement("python") == ("local", None)


def test_apptainer_without_the_image_says_what_is_missing(image, tmp_path):
    with using("apptainer", {"python": str(tmp_path / "nowhere.sif")}), pytest.raises(InfrastructureError) as error:
        placement("python")
    assert "nowhere.sif does not exist" in str(error.value) and "make images" in str(error.value)


def test_auto_without_apptainer_runs_the_harness_here(image, monkeypatch):
    monkeypatch.setattr(apptainer, "apptainer_available", lambda: False)
    assert placement("python") == ("local", None)


def test_requests_use_the_images_interpreter_or_the_local_one(image, tmp_path, python_env):
    with using("apptainer", {}):
        inside = python_request("python", ["solve.py", "job.json"], tmp_path, 60.0, 1024)
    assert inside.command == ["python", "solve.py", "job.json"] and inside.path_prefix == ()
    with using("bwrap", {}):
        here = python_request("python", ["solve.py"], tmp_path, 60.0, 1024)
    assert here.command == [str(python_env.python), "solve.py"] and here.path_prefix == (python_env.bin_dir,)
    assert here.extra_env["XDG_CACHE_HOME"].endswith("python-oracle-cache")
