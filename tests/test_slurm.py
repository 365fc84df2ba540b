"""`snakemake --profile slurm` on a real one-node SLURM cluster reproduces the local scores; `make rerun` works
there too, a job cancelled with scancel is retried per the profile, and inside an allocation an MPI case's
ranks start with the launcher of its `mpi` resource.

The cluster (munged, slurmctld, slurmd on localhost, see ``slurm_cluster.py``) is installed with apt-get when
missing; where that cannot happen (not root, no apt-get, install failed) the module fails, saying why, unless
``SIMCODEBENCH_ALLOW_MISSING`` lists slurm (then it skips; likewise mpi for the MPI test).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import mpi_env
import numpy as np
import pytest
from missing import require_or_skip
from pipeline import REPO, SNAKEMAKE, make_workdir, scores, snakemake
from rerun import make_rerun, rerun_scope, snapshot, stray_changes
from slurm_cluster import SlurmCluster, provision

pytestmark = pytest.mark.slow

SMOKE = {
    "suites": ["re4"],
    "cases": {"re4": ["hilbert", "keyhole"]},
    "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
}
"""Mutants (7 per case) and oracle (1 per case) on two cases: 16 short samples, one ``evaluate`` batch of the
default ``samples_per_job`` (20) for both agents."""
# No accounting on the test cluster, so squeue answers status queries (MinJobAge=600 keeps finished jobs);
# and a quick first status check instead of the plugin's 40 s.
STATUS_ARGS = ("--slurm-status-command", "squeue", "--slurm-init-seconds-before-status-checks", "2")
SAME = ["agent", "case", "sample", "attempt", "status", "failure_class", "passed", "final", "mutant"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[SlurmCluster]:
    """A started one-node cluster, stopped after the module (also when a test fails)."""
    reason = provision()
    if reason:
        require_or_skip("slurm", reason)
    slurm = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    try:
        slurm.start()
        yield slurm
    finally:
        slurm.stop()


def run_on_slurm(work: Path, cluster: SlurmCluster, *args: str) -> subprocess.CompletedProcess:
    """The workflow in ``work`` with ``--profile slurm``, submitting to ``cluster``."""
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work)]
    command += ["--profile", str(REPO / "slurm"), *STATUS_ARGS, *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200, env=cluster.env)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}\n{cluster.logs()}"
    return done


def listed_jobs(cluster: SlurmCluster) -> dict[str, str]:
    """Every job ``squeue`` still lists, finished ones included (``MinJobAge``): id -> ``"<state> <comment>"``."""
    done = subprocess.run(
        ["squeue", "-h", "-t", "all", "-o", "%i %T %k"], capture_output=True, text=True, env=cluster.env, check=True
    )
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if line.strip())


@pytest.fixture(scope="module")
def smoke(cluster, tmp_path_factory, python_env) -> tuple[Path, Path, list[str]]:
    """The smoke config run locally and on the cluster: the two working directories, and the states and comments
    of the jobs the cluster run submitted (none of another test's, whichever ran first)."""
    local = make_workdir(tmp_path_factory.mktemp("local"), SMOKE, wall_s=10.0)
    snakemake(local)
    on_slurm = make_workdir(tmp_path_factory.mktemp("on-slurm"), SMOKE, wall_s=10.0)
    earlier = listed_jobs(cluster)
    run_on_slurm(on_slurm, cluster)
    return local, on_slurm, [job for key, job in listed_jobs(cluster).items() if key not in earlier]


def assert_same_scores(local: Path, on_slurm: Path) -> None:
    """Failure classes, pass flags and errors (to 1e-9 relative) agree, row by row."""
    a, b = (scores(w).sort_values(SAME[:4]).reset_index(drop=True) for w in (local, on_slurm))
    assert a[SAME].equals(b[SAME]), a[SAME].compare(b[SAME])
    assert np.allclose(a.error.astype(float), b.error.astype(float), rtol=1e-9, atol=0, equal_nan=True)


def test_slurm_profile_reproduces_the_local_scores(smoke):
    local, on_slurm, jobs = smoke
    assert_same_scores(local, on_slurm)
    frame = scores(on_slurm)
    assert (frame[frame.agent == "oracle"].failure_class == "Pass").all()
    assert (frame[frame.agent == "mutants"].failure_class == frame[frame.agent == "mutants"].declared_class).all()
    assert sum("evaluate" in job for job in jobs) == 1, jobs  # the 16 executions ran as one batch: one sbatch
    assert jobs and all(job.split()[0] == "COMPLETED" for job in jobs), jobs
    status = json.loads((on_slurm / "results" / "status.json").read_text())  # refreshed by the node's job too
    ran = ~frame.failure_class.isin(["F-NoResponse", "F-Context", "F-Extract", "F-Budget", "F-Case"])
    counts = {row["agent"]: (row["planned"], row["executed"], row["passed"]) for row in status["rows"]}
    assert counts == {
        agent: (len(rows), int(ran[rows.index].sum()), int(rows.passed.sum())) for agent, rows in frame.groupby("agent")
    }


def test_slurm_with_apptainer_gives_the_local_verdicts(smoke, cluster, tmp_path):
    """The smoke config with `runtime: apptainer` (and no images key) on the cluster: the verdicts of the local run
    under bubblewrap, every sample run in the image."""
    from apptainer_images import images_folder

    from simcodebench.execution.images import IMAGES_VARIABLE

    folder = images_folder("python")
    local, _, _ = smoke
    work = make_workdir(tmp_path, {**SMOKE, "runtime": "apptainer"}, wall_s=10.0)
    command = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(work)]
    command += ["--profile", str(REPO / "slurm"), *STATUS_ARGS]
    env = {**cluster.env, IMAGES_VARIABLE: str(folder)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200, env=env)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}\n{cluster.logs()}"
    a, b = (scores(w).sort_values(SAME[:4]).reset_index(drop=True) for w in (local, work))
    assert a[SAME].equals(b[SAME]), a[SAME].compare(b[SAME])
    assert np.allclose(a.error.astype(float), b.error.astype(float), rtol=1e-6, atol=0, equal_nan=True)
    assert set(b.runtime.dropna()) == {"apptainer"}


def _cancel_first_execution(cluster: SlurmCluster, cancelled: list[str], stop: threading.Event) -> None:
    """scancel the first evaluate job seen running, once."""
    while not stop.is_set():
        running = subprocess.run(
            ["squeue", "-h", "-t", "R", "-o", "%i %k"], capture_output=True, text=True, env=cluster.env
        ).stdout.split()
        ids = [running[i] for i in range(0, len(running) - 1, 2) if "evaluate" in running[i + 1]]
        if ids:
            time.sleep(1.0)  # let the job step start: cancel it mid-run, not at the door
            subprocess.run(["scancel", ids[0]], check=True, env=cluster.env)
            cancelled.append(ids[0])
            return
        time.sleep(0.2)


def test_rerun_on_slurm_touches_one_case_and_survives_scancel(smoke, cluster):
    local, on_slurm, _ = smoke
    before = snapshot(on_slurm)
    cancelled: list[str] = []
    stop = threading.Event()
    canceller = threading.Thread(target=_cancel_first_execution, args=(cluster, cancelled, stop), daemon=True)
    canceller.start()
    try:
        make_rerun(on_slurm, "re4/hilbert", "oracle", *STATUS_ARGS, profile="slurm", env=cluster.env)
    finally:
        stop.set()
        canceller.join()
    assert cancelled, "no evaluate job was seen running"
    states = subprocess.run(
        ["squeue", "-h", "-t", "all", "-o", "%i %T %k"], capture_output=True, text=True, env=cluster.env
    ).stdout.splitlines()
    assert any(line.split()[:2] == [cancelled[0], "CANCELLED"] for line in states), states
    retried = [line for line in states if "evaluate" in line and int(line.split()[0]) > int(cancelled[0])]
    assert retried and all(" COMPLETED " in f" {line} " for line in retried), states
    after = snapshot(on_slurm)
    changed = {path for path in before if after.get(path, (None,))[0] != before[path][0]}
    assert {"runs/oracle/re4/hilbert/0/0/run/run.json", "runs/oracle/re4/hilbert/0/0/score.json"} <= changed
    stray = stray_changes(before, after, rerun_scope(on_slurm, "oracle", "re4/hilbert"))
    assert not stray, sorted(stray)
    assert_same_scores(local, on_slurm)


RANKS = """
import dataclasses, json, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
import mpi_env
from simcodebench.execution import sandbox as execution
from simcodebench.core.cases import load_suite_cases
from simcodebench.execution.runtime import run

run_dir, mpi = Path(sys.argv[1]), sys.argv[2]
case = next(c for c in load_suite_cases(Path({cases!r})) if c.id == "hilbert")
case = dataclasses.replace(case, resources={{**case.resources, "tasks": 2}})
execution.get_environment = lambda name: mpi_env.environment()
run_dir.mkdir(parents=True)
mpi_env.write_program(run_dir / "solution.py")
request = execution.build_request(case, run_dir, mpi)
print(json.dumps({{"command": request.command, **run(request, "local").to_dict()}}))
"""


@pytest.mark.parametrize("mpi", ["mpiexec", "srun --mpi=pmi2"])
def test_mpi_ranks_start_inside_the_allocation_with_the_mpi_resource(cluster, tmp_path, mpi):
    reason = mpi_env.missing()
    if reason:
        require_or_skip("mpi", reason)
    script = tmp_path / "ranks.py"
    script.write_text(RANKS.format(tests=str(REPO / "tests"), cases=str(REPO / "cases" / "re4")))
    run_dir, out = tmp_path / "run", tmp_path / "job.out"
    submit = ["sbatch", "--wait", "--ntasks=2", f"--output={out}", "--wrap"]
    subprocess.run([*submit, f"{sys.executable} {script} {run_dir} '{mpi}'"], check=True, env=cluster.env, timeout=300)
    record = json.loads(out.read_text().splitlines()[-1])
    assert record["command"][0].endswith(mpi.split()[0]) and record["command"][-4:-2] == ["-n", "2"], record
    assert (record["status"], record["rc"]) == ("ok", 0), (run_dir / "stderr.txt").read_text()
    assert sorted(p.read_text() for p in run_dir.glob("rank*.txt")) == ["0 2 3", "1 2 3"]
