"""Imported FoamBench cases get per-family limits (wall, memory, cores) from our own cases' measured runs and
their size, and the reference run a longer wall limit; the case sizes are read as OpenFOAM counts them."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from simcodebench.agents.multifile import read_tree
from simcodebench.cli import main
from simcodebench.core.cases import validate_path
from simcodebench.suites.foam import case_size
from simcodebench.suites.foam.limits import family_runs, limits_for
from simcodebench.suites.foam.scorer import reference_case

# cells as OpenFOAM's runs of our cases count them (cases/foam/README.md; benchmarks/results/foam.md, "foam references")
CELLS = {
    "cavity": 400,
    "cylinder": 2000,
    "damBreak": 2268,
    "forwardStep": 1008,
    "obliqueShock": 800,
    "pitzDaily": 1352,
    "squareBend": 1525,
    "wedge": 1200,
}
FAMILIES = {  # made-up measurements, so that every limit below is worked out by hand
    "cavity": {"solver": "pisoFoam", "seconds_per_cell_step": 1e-5, "peak_rss_mb": 100},
    "damBreak": {"solver": "interFoam", "seconds_per_cell_step": 2e-5, "peak_rss_mb": 200},
    "pitzDaily": {"solver": "pimpleFoam", "seconds_per_cell_step": 1e-6, "peak_rss_mb": 100},
    "cylinder": {"solver": "pimpleFoam", "seconds_per_cell_step": 3e-6, "peak_rss_mb": 900},
}


def _case(nx: int, ny: int, nz: int, end: str, dt: str, solver: str) -> dict[str, str]:
    return {
        "system/blockMeshDict": (
            f"/* two blocks */ blocks\n(\n    hex (0 1 2 3 4 5 6 7) ({nx} {ny} {nz}) simpleGrading (1 1 1)\n"
            "    hex (1 8 9 2 5 10 11 6) lower (10 10 1) simpleGrading (1 1 1) // a zone name\n);\n"
        ),
        "system/controlDict": f"application {solver};\nstartTime 0;\nendTime {end};\ndeltaT {dt};\n",
        "Allrun": "#!/bin/sh\nblockMesh\n# runParallel is not used here\n",
    }


def test_case_sizes_are_the_cells_openfoam_counts(repo):
    for folder in sorted((repo / "cases" / "foam").glob("*-1")):
        files = read_tree(folder / "oracle")
        assert case_size.block_cells(files) == CELLS[folder.name[:-2]], folder.name
    files = read_tree(repo / "cases" / "foam" / "cavity-1" / "oracle")
    assert case_size.time_steps(files) == pytest.approx(200)  # endTime 1, deltaT 0.005
    assert case_size.mpi_ranks(files) == 1
    assert case_size.mpi_ranks(read_tree(repo / "cases" / "foam" / "cavity-4" / "oracle")) == 2


def test_limits_by_name_solver_or_unknown_worked_by_hand():
    # 100 x 100 + 100 cells, 2000 steps: 3 x 1e-5 x 10100 x 2000 = 606 s -> 610 s; 3 x 100 MB + 10.1 MB -> 512
    # steps, at least 2048 MB; reference 4 x 610 s
    cavity = limits_for("Cavity", _case(100, 100, 1, "2", "0.001", "icoFoam"), FAMILIES)
    assert (cavity.family, cavity.matched_by, cavity.wall_s, cavity.mem_mb) == ("cavity", "name", 610, 2048)
    assert cavity.reference_wall_s == 2440 and cavity.resources() == {
        "cpus": 1,
        "tasks": 1,
        "mem_mb": 2048,
        "wall_s": 610,
    }
    # damBreakWithObstacle -> damBreak; 3-D 100^3 + 100 cells, 50 steps: 3 x 2e-5 x 1000100 x 50 = 3000.3 s ->
    # 3010 s; 3 x 200 + 1000.1 = 1600.1 MB -> 2048 MB
    dam = limits_for("damBreakWithObstacle", _case(100, 100, 100, "0.5", "0.01", "interFoam"), FAMILIES)
    assert (dam.family, dam.wall_s, dam.mem_mb) == ("damBreak", 3010, 2048)
    # no such name; pimpleFoam is pitzDaily's and cylinder's solver: the slower rate (cylinder, 3e-6) and its
    # peak: 3 x 3e-6 x 200100 x 10000 = 18009 s -> 18010 s; 3 x 900 + 200.1 = 2900.1 MB -> 3072 MB
    flow = limits_for("myChannel", _case(1000, 200, 1, "1", "0.0001", "pimpleFoam"), FAMILIES)
    assert (flow.family, flow.matched_by, flow.wall_s, flow.mem_mb) == ("cylinder", "solver", 18010, 3072)
    # unknown family and solver: the slowest rate (2e-5) and the largest peak (900 MB); 200 cells, 10 steps:
    # 0.12 s -> the 60 s floor; 3 x 900 + 0.2 = 2700.2 MB -> 3072 MB
    bernard = limits_for("BernardCells", _case(10, 10, 1, "10", "1", "buoyantFoam"), FAMILIES)
    assert (bernard.family, bernard.matched_by, bernard.wall_s, bernard.mem_mb) == ("unknown", "unknown", 60, 3072)


def test_unreadable_sizes_get_the_stated_defaults_and_parallel_cases_their_ranks():
    files = _case(10, 10, 1, "1", "0.01", "pisoFoam")
    files["system/blockMeshDict"] = "blocks ( hex (0 1 2 3 4 5 6 7) ($nx $ny 1) simpleGrading (1 1 1) );"
    files["system/decomposeParDict"] = "numberOfSubdomains 4;\nmethod scotch;\n"
    files["Allrun"] = "#!/bin/sh\nrunApplication decomposePar\nrunParallel pisoFoam\n"
    limits = limits_for("Cavity", files, FAMILIES)
    assert (limits.wall_s, limits.mem_mb, limits.cpus, limits.reference_wall_s) == (1800, 8192, 4, 7200)
    assert limits.resources()["tasks"] == 4


def test_imported_cases_carry_their_limits_and_the_reference_runs_longer(tmp_path):
    data = {
        "Cavity/1": {"usr_requirement": "A cavity.", **_case(20, 20, 1, "0.5", "0.005", "icoFoam")},
        "pitzDaily/3": {"usr_requirement": "A step.", **_case(200, 60, 1, "2000", "1", "simpleFoam")},
    }
    path = tmp_path / "FoamBench_basic.json"
    path.write_text(json.dumps(data))
    assert main(["import", "foambench", str(path), "--out", str(tmp_path / "basic")]) == 0
    measured = family_runs()
    for case in validate_path(tmp_path / "basic"):
        key = case.id.replace("-", "/")
        files = {k: v for k, v in data[key].items() if k != "usr_requirement"}
        expected = limits_for(key.split("/")[0], files, measured)
        assert case.resources == {**expected.resources(), "gpu": 0}
        assert case.hidden.scoring["limits_from"] == {"family": expected.family, "by": "name"}
        assert expected.family == {"Cavity": "cavity", "pitzDaily": "pitzDaily"}[key.split("/")[0]]
        assert reference_case(case).resources["wall_s"] == 4 * case.resources["wall_s"]


def test_upstream_foambench_files_import_with_limits(upstream, tmp_path):
    path = upstream / "cfdllmbench" / "FoamBench_basic.json"
    if not path.is_file():
        pytest.skip(f"upstream FoamBench data absent: {path}")
    assert main(["import", "foambench", str(path), "--out", str(tmp_path / "basic")]) == 0
    cases = validate_path(tmp_path / "basic")
    assert len(cases) == 110
    by = Counter(case.hidden.scoring["limits_from"]["by"] for case in cases)
    assert by["name"] >= 70  # 8 of the 11 tutorials are our families
    assert all(case.resources["wall_s"] >= 60 for case in cases)
