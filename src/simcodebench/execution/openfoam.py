"""OpenFOAM as a solver environment: where its bashrc is, how a case is run, and when a run counts as executed.

Two environments run OpenFOAM cases: ``openfoam`` (Debian's ``openfoam`` package, OpenFOAM v1912 of
openfoam.com, provisioned by ``simcodebench env setup openfoam``) and ``openfoam10`` (Foundation OpenFOAM 10, the
version FoamBench was made with, from ``containers/openfoam10.def`` or a host install under ``/opt/openfoam10``).

A case runs as ``bash ./Allrun`` in its directory after the environment's ``etc/bashrc`` is sourced; then the
harness writes the cell centres of the latest time (``postProcess -func writeCellCentres -latestTime``) so the
scorer can compare fields in physical coordinates. As in FoamBench's released code, the run counts as executed
when the solver log ends in ``End``: the log ``log.<application>`` of the application that ``system/controlDict``
names (any ``log.*Foam`` when it names none), anywhere under the case, whose last non-blank line is ``End``
(``Finalising parallel run`` may follow it). The script's exit status is recorded but does not decide.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import replace
from pathlib import Path

from simcodebench.core.errors import InfrastructureError
from simcodebench.execution.runtime import RunResult

ENVIRONMENTS = ("openfoam", "openfoam10")
BASHRC_CANDIDATES: dict[str, tuple[str, ...]] = {
    "openfoam": ("/usr/share/openfoam/etc/bashrc", "/usr/lib/openfoam/openfoam1912/etc/bashrc"),
    "openfoam10": ("/opt/openfoam10/etc/bashrc",),
}
BASHRC_VARIABLE = "SIMCODEBENCH_OPENFOAM_BASHRC"
"""Overrides the bashrc of a host install outside the usual places (local runtimes only)."""
NO_BASHRC_STATUS = 97
CELL_CENTRES_LOG = "log.writeCellCentres"
TRAILERS = ("Finalising parallel run",)
_APPLICATION = re.compile(r"^\s*application\s+([A-Za-z0-9_]+)\s*;", re.MULTILINE)


def find_bashrc(environment: str) -> Path | None:
    """The OpenFOAM bashrc of ``environment`` on this machine (``$SIMCODEBENCH_OPENFOAM_BASHRC`` first)."""
    override = os.environ.get(BASHRC_VARIABLE)
    candidates = ([override] if override else []) + list(BASHRC_CANDIDATES[environment])
    return next((Path(c) for c in candidates if Path(c).is_file()), None)


def require_bashrc(environment: str) -> Path:
    """:func:`find_bashrc`, or an :class:`InfrastructureError` that says how to get OpenFOAM."""
    bashrc = find_bashrc(environment)
    if bashrc is None:
        fix = (
            "run: simcodebench env setup openfoam (apt-get install openfoam, as root)"
            if environment == "openfoam"
            else "use the apptainer runtime (containers/openfoam10.def) or install OpenFOAM 10 under /opt/openfoam10"
        )
        raise InfrastructureError(
            f"no OpenFOAM bashrc for environment '{environment}' (looked at {list(BASHRC_CANDIDATES[environment])} "
            f"and ${BASHRC_VARIABLE}); {fix}"
        )
    return bashrc


def run_script(bashrc_candidates: tuple[str, ...], entrypoint: str) -> str:
    """The shell script that sources the first bashrc found, runs ``entrypoint`` and writes the cell centres."""
    candidates = " ".join(shlex.quote(c) for c in bashrc_candidates)
    script = shlex.quote(entrypoint)
    return (
        f'for rc in {candidates}; do if [ -f "$rc" ]; then . "$rc" >/dev/null 2>&1; break; fi; done\n'
        f'[ -n "$WM_PROJECT_DIR" ] || {{ echo "harness: no OpenFOAM bashrc found" >&2; exit {NO_BASHRC_STATUS}; }}\n'
        f'[ -f {script} ] || {{ echo "harness: the case has no {entrypoint} script" >&2; exit 127; }}\n'
        f"bash ./{script}\nstatus=$?\n"
        f"postProcess -func writeCellCentres -latestTime > {CELL_CENTRES_LOG} 2>&1\n"
        'exit "$status"\n'
    )


def command(environment: str, entrypoint: str, runtime: str) -> list[str]:
    """The argv that runs a case of ``environment`` in its directory (inside an image, its own bashrc)."""
    inside_image = runtime == "apptainer"
    candidates = BASHRC_CANDIDATES[environment] if inside_image else (str(require_bashrc(environment)),)
    return ["bash", "--noprofile", "--norc", "-c", run_script(candidates, entrypoint)]


def mpi_environment() -> dict[str, str]:
    """Variables Open MPI needs to start ranks as root (``mpirun`` of an Allrun); empty for other users."""
    if os.geteuid() != 0:
        return {}
    return {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def application(case_dir: Path) -> str | None:
    """The solver that ``system/controlDict`` names, or None."""
    control = case_dir / "system" / "controlDict"
    if not control.is_file():
        return None
    match = _APPLICATION.search(control.read_text(errors="replace"))
    return match.group(1) if match else None


def log_ends_in_end(path: Path) -> bool:
    """Whether the last non-blank line of the log is ``End`` (``Finalising parallel run`` may follow)."""
    lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    while lines and lines[-1] in TRAILERS:
        lines.pop()
    return bool(lines) and lines[-1] == "End"


def solver_logs(case_dir: Path) -> list[Path]:
    """The logs that decide execution: ``log.<application>``, or every ``log.*Foam`` when none is named."""
    name = application(case_dir)
    pattern = f"log.{name}" if name else "log.*Foam"
    return sorted(p for p in case_dir.rglob(pattern) if p.is_file())


def judge_run(result: RunResult, case_dir: Path) -> RunResult:
    """The run's result with its status decided by the solver log (a timeout or a kill stays as it is)."""
    if result.status in ("timeout", "killed", "infra"):
        return result
    if result.rc == NO_BASHRC_STATUS:
        return replace(result, status="infra", message="no OpenFOAM bashrc in the run's environment")
    logs = solver_logs(case_dir)
    finished = [p for p in logs if log_ends_in_end(p)]
    if finished:
        note = "" if result.rc == 0 else f" (the script exited with code {result.rc})"
        return replace(result, status="ok", message=f"{finished[0].relative_to(case_dir)} ends in End{note}")
    name = application(case_dir)
    wanted = f"log.{name}" if name else "a log.*Foam file"
    found = ", ".join(str(p.relative_to(case_dir)) for p in logs) or "none"
    return replace(
        result,
        status="error",
        message=f"the solver log does not end in End (looked for {wanted}; found: {found}; exit code {result.rc})",
    )
