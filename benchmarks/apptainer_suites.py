"""Every suite's oracle and mutants in the Apptainer images, beside bubblewrap: the same verdicts?

For each suite (one or two small cases each), the embedded pipeline runs the oracle and every mutant twice in
fresh working directories: ``runtime: apptainer`` with the images of IMAGES (``make images``; no ``images``
key, the folder is given as ``$SIMCODEBENCH_IMAGES``) and ``runtime: bwrap`` with the environments provisioned
here. Printed per suite: the samples, whether the oracle passed and every mutant landed in its class under
apptainer, whether every verdict equals bubblewrap's, and the wall time of each whole run (references,
calibration and samples).

Usage: python benchmarks/apptainer_suites.py IMAGES [SUITE ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from _common import REPO, machine, snakemake, workdir

from simcodebench.execution.images import IMAGES_VARIABLE

SUITES = {
    "re4": ["hilbert", "sod"],
    "cfd-code": ["1D_Diffusion"],
    "fem": ["poisson_square_kappa"],
    "fem-dealii": ["poisson_cube"],
    "fea": ["example_torsion"],
    "foam": ["cavity-1"],
    "physics@smoke": ["ball_drop"],
}
"""Small cases of every suite that executes code (cfd-query executes none)."""
AGENTS = {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}}
SAME = ["agent", "case", "sample", "attempt", "failure_class", "passed", "mutant"]


def run_suite(suite: str, runtime: str, root: Path) -> tuple[pd.DataFrame, float]:
    """The scores of one run and its wall time."""
    config = {"suites": [suite], "cases": {suite: SUITES[suite]}, "agents": AGENTS, "runtime": runtime}
    work = workdir(root / runtime, {"cases_dir": str(REPO / "cases"), **config})
    started = time.perf_counter()
    snakemake(work, "--cores", "2")
    frame = pd.read_csv(work / "results" / "summary" / "scores.csv")
    return frame.sort_values(["agent", "case", "sample", "attempt"]).reset_index(
        drop=True
    ), time.perf_counter() - started


def main(images: str, *suites: str) -> None:
    os.environ[IMAGES_VARIABLE] = str(Path(images).resolve())
    print(f"machine: {machine()}")
    columns = ["samples", "apptainer: oracle passes, mutants in class", "same as bwrap", "apptainer (s)", "bwrap (s)"]
    print("| suite | " + " | ".join(columns) + " |")
    print("|---|---:|---|---|---:|---:|")
    for suite in suites or SUITES:
        with tempfile.TemporaryDirectory(prefix=f"apptainer-{suite}-") as tmp:
            contained, contained_s = run_suite(suite, "apptainer", Path(tmp))
            confined, confined_s = run_suite(suite, "bwrap", Path(tmp))
        assert set(contained.runtime) == {"apptainer"}, set(contained.runtime)
        oracle = contained[contained.agent == "oracle"]
        mutants = contained[contained.agent == "mutants"]
        self_check = (oracle.failure_class == "Pass").all() and (mutants.failure_class == mutants.declared_class).all()
        same = contained[SAME].equals(confined[SAME])
        print(f"| {suite} | {len(contained)} | {self_check} | {same} | {contained_s:.0f} | {confined_s:.0f} |")
        if not (self_check and same):
            print(contained[SAME].compare(confined[SAME]).to_string())


if __name__ == "__main__":
    main(*sys.argv[1:])
