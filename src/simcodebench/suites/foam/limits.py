"""Resource limits of an imported FoamBench case, per family, from the measured runs of our own cases.

``cases/foam/family_runs.yaml`` (written by ``benchmarks/foam_family_runs.py``) holds, per family of our foam
cases, the slowest wall time per cell and time step and the largest peak memory of their runs. An upstream entry
``<case>/<i>`` gets the family whose name its case name is or starts with, case aside (``damBreakWithObstacle``:
damBreak), else the slowest family running the application its ``controlDict`` names, else the slowest and
largest of all (``unknown``). Its size, cells of the ``blockMeshDict`` times the ``controlDict``'s time steps,
scales the family's rate (:mod:`.case_size`). The rule, stated in ``cases/foam/README.md``:

- wall: 3 x rate x cells x steps, rounded up to 10 s, at least 60 s (1800 s when the size cannot be read);
- memory: 3 x the family's peak + 1 MB per 1000 cells (OpenFOAM's rule of thumb of about 1 GB per million
  cells), rounded up to 512 MB, at least 2048 MB (8192 MB when the cells cannot be read);
- cores: the ranks of the case's own parallel ``Allrun`` (``numberOfSubdomains``), else 1, as our cases run;
- the reference run (the expert case, untimed): 4 x the wall limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcodebench.core.io import read_yaml
from simcodebench.core.project import cases_root
from simcodebench.suites.foam import case_size

FAMILY_RUNS = "family_runs.yaml"
WALL_FACTOR, WALL_FLOOR_S, WALL_STEP_S, WALL_UNREAD_S = 3.0, 60, 10, 1800
MEM_FACTOR, MB_PER_KILO_CELL, MEM_FLOOR_MB, MEM_STEP_MB, MEM_UNREAD_MB = 3.0, 1.0, 2048, 512, 8192
REFERENCE_WALL_FACTOR = 4
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Limits:
    """An imported case's resources and its reference run's wall limit, with where they come from."""

    family: str
    matched_by: str
    cpus: int
    mem_mb: int
    wall_s: int
    reference_wall_s: int

    def resources(self) -> dict[str, int]:
        """``visible.resources`` of the case (the ranks as MPI tasks, each on its core)."""
        return {"cpus": self.cpus, "tasks": self.cpus, "mem_mb": self.mem_mb, "wall_s": self.wall_s}


def family_runs(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The measured families (``cases/foam/family_runs.yaml``): name -> solver, rate and peak memory."""
    return read_yaml(path or cases_root() / "foam" / FAMILY_RUNS)["families"]


def match_family(name: str, solver: str | None, families: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """(family, how it was matched: ``name``, ``solver`` or ``unknown``) of an upstream case name."""
    lowered = name.lower()
    by_name = [family for family in families if lowered.startswith(family.lower())]
    if by_name:
        return max(by_name, key=len), "name"
    by_solver = [family for family, run in families.items() if run["solver"] == solver]
    if by_solver:
        return max(by_solver, key=lambda family: families[family]["seconds_per_cell_step"]), "solver"
    return UNKNOWN, UNKNOWN


def _round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step - 1e-9) * step)


def limits_for(name: str, files: dict[str, str], families: dict[str, dict[str, Any]]) -> Limits:
    """The limits of the upstream case ``name`` (its case name, without ``/<i>``) holding ``files``."""
    family, matched_by = match_family(name, case_size.application(files), families)
    runs = [families[family]] if family in families else list(families.values())
    rate = max(run["seconds_per_cell_step"] for run in runs)
    peak = max(run["peak_rss_mb"] for run in runs)
    cells, steps = case_size.block_cells(files), case_size.time_steps(files)
    if cells is None or steps is None:
        wall = WALL_UNREAD_S
    else:
        wall = max(WALL_FLOOR_S, _round_up(WALL_FACTOR * rate * cells * steps, WALL_STEP_S))
    if cells is None:
        mem = MEM_UNREAD_MB
    else:
        mem = max(MEM_FLOOR_MB, _round_up(MEM_FACTOR * peak + MB_PER_KILO_CELL * cells / 1000, MEM_STEP_MB))
    return Limits(family, matched_by, case_size.mpi_ranks(files), mem, wall, REFERENCE_WALL_FACTOR * wall)
