"""Scorer of the physics suite: PhysCodeEval's code scores as the paper, our physics score beside them.

S_exec (25) is earned by a run that ends cleanly within the case's calibrated limit (:func:`timed_metrics`; the
limit is ``thresholds.time`` of suite.yaml, ``max(alpha x the oracle's time, floor_s)``, and a run over it is
F-Time); :func:`evaluate` alone, which knows no limit, gives a clean run 25. S_file (0-25) is the explicit rubric
of :mod:`.video`. The visual scores (S_clip, S_motion) need CLIP and AMT-S weights, which are not
installed here: the metrics carry ``code`` (S_exec + S_file, 0-50) and no visual number is invented.
Our physics score (0-100, :mod:`.checks`) is the share of the case's declared checks (``hidden.scoring.checks``)
that the recorded state passes; it is reported beside PhysCodeEval, never added to it.

Our gates (the failure class): non-finite recorded state -> F-NaN; no readable video -> F-Missing; a video off
the contract (size, resolution, frame rate, duration) -> F-Format; otherwise the error is the number of failed
physics checks, and the suite's fixed threshold (0.5) makes any failed check F-Acc. A script that never steps a
scene fails every check (F-Acc), as a script, not as a harness error.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case, Suite
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import ContextPiece
from simcodebench.core.references import Reference
from simcodebench.execution.environments import KERNEL_CACHE, get_environment
from simcodebench.suites.physics import context, strips, video
from simcodebench.suites.physics.checks import physics_score, run_checks
from simcodebench.suites.physics.metadata import case_metadata
from simcodebench.suites.physics.state import load_recording, nonfinite_entities

RUNNER = Path(__file__).with_name("runner.py")
S_EXEC = 25.0
CONTRACT_LINE = re.compile(r"^RES, FPS, SECONDS = .*$", re.MULTILINE)
"""The oracle's one line holding the video contract, rewritten from the suite's ``scoring.video``."""


def video_contract(case: Case) -> dict[str, Any]:
    """The video the suite (or its variant) asks for."""
    return {**video.PAPER_CONTRACT, **case.suite.data.get("scoring", {}).get("video", {})}


def generate_reference(case: Case) -> Reference:
    """The case's reference: its declared checks with their closed-form expected values (hidden)."""
    checks = case.hidden.scoring.get("checks", [])
    if not checks:
        raise KeyError(f"{case.key}: hidden.scoring.checks declares no physics check")
    return Reference(meta={"generator": case.hidden.reference["generator"], "checks": checks})


def measure(case: Case, run_dir: Path, reference: Reference) -> Measurement:
    """Score the run's video (S_file) and its recorded physics; see the module docstring for the gates."""
    contract = video_contract(case)
    rubric = video.file_rubric(Path(run_dir) / contract["filename"], contract)
    scene = None
    recording = load_recording(Path(run_dir))
    if recording is not None:
        scene = recording.main_scene()
    results = run_checks(scene, reference.meta["checks"])
    s_file = video.s_file(rubric)
    metrics: dict[str, float] = {
        "s_exec": S_EXEC,
        "s_file": s_file,
        "code": S_EXEC + s_file,
        "physics": physics_score(results),
        "physics_checks": float(len(results)),
        "physics_failed": float(sum(not r.passed for r in results)),
        "steps": float(scene.steps if scene else 0),
        **{f"s_file_{item}": points for item, points in rubric.items()},
        **{f"check_{i}_{r.name}": float(r.passed) for i, r in enumerate(results)},
    }
    failed = [f"{r.name}: {r.detail or f'{r.value} vs {r.expected}'}" for r in results if not r.passed]
    if scene is not None and nonfinite_entities(scene):
        return Measurement("nonfinite", f"non-finite state in entities {nonfinite_entities(scene)}", metrics=metrics)
    if rubric["exists"] == 0:
        return Measurement("missing", f"{contract['filename']} is missing or unreadable", metrics=metrics)
    off = [item for item, points in rubric.items() if points == 0]
    if off:
        return Measurement("format", f"{contract['filename']} is off the contract: {', '.join(off)}", metrics=metrics)
    message = "; ".join(failed) if scene is not None else "the script never stepped a recorded scene"
    return Measurement("ok", message, error=float(len(failed)), metrics=metrics)


def timed_metrics(
    case: Case, run: dict[str, Any], tau_time: float | None, metrics: dict[str, float]
) -> dict[str, float]:
    """PhysCodeEval's code scores of a scored attempt: S_exec 25 for a run that ended cleanly (``run.json``
    status ``ok``) within the calibrated limit ``tau_time`` (None: no limit), else 0; S_file as measured (0 for
    a run that failed, whose outputs are not read); ``code`` their sum (0-50); and the case's difficulty and
    domains (:func:`.metadata.case_metadata`), so the report's breakdowns need nothing but the scores."""
    clean = run.get("status") == "ok"
    in_time = clean and (tau_time is None or float(run["wall_s"]) <= tau_time)
    s_exec = S_EXEC if in_time else 0.0
    s_file = float(metrics.get("s_file", 0.0))
    return {"s_exec": s_exec, "s_file": s_file, "code": s_exec + s_file, **case_metadata(case)}


def prepare_run(case: Case, run_dir: Path) -> None:
    """Put the runner next to the solution, under the suite's entrypoint name, and give the run a copy of the
    environment's kernel cache (the sandbox's ``XDG_CACHE_HOME`` is the run's ``.cache``; a cold cache costs
    about 90 s of kernel compilation per run, and a copy keeps one run's cache from reaching the next)."""
    Path(run_dir, case.suite.entrypoint).write_text(RUNNER.read_text(encoding="utf-8"), encoding="utf-8")
    try:
        cache = get_environment(case.suite.environment).prefix / KERNEL_CACHE
    except InfrastructureError:  # no local environment (an Apptainer image brings its own)
        return
    if cache.is_dir():
        shutil.copytree(cache, Path(run_dir) / ".cache", dirs_exist_ok=True)


def oracle_source(case: Case) -> str:
    """The case's oracle with its video contract line set to the suite's (the smoke variant's is smaller)."""
    return with_contract(case, (case.folder / case.hidden.oracle).read_text(encoding="utf-8"), "the oracle")


def run_oracle(case: Case, workdir: Path) -> Any:
    """Run the case's oracle (at its suite variant's video contract) in Genesis under the physics runner, in
    ``workdir``, as the pipeline runs a solution; the recorded main scene, or a string saying why there is none."""
    from simcodebench.execution.harness_runs import python_request, run_harness_program

    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "genesis_solution.py").write_text(oracle_source(case), encoding="utf-8")
    shutil.copyfile(RUNNER, workdir / case.suite.entrypoint)
    wall = float(case.resources.get("wall_s", 600))
    request = python_request(
        case.suite.environment, [case.suite.entrypoint], workdir, wall, int(case.resources.get("mem_mb", 8192))
    )
    result = run_harness_program(case.suite.environment, request)
    recording = load_recording(workdir)
    scene = recording.main_scene() if recording is not None else None
    if result.status != "ok" or scene is None:
        return f"the oracle's Genesis run ended {result.status} (rc {result.rc}): {result.message[:300]}"
    return scene


def with_contract(case: Case, source: str, what: str = "the second solution") -> str:
    """``source`` (the oracle, a second solution) with its one line ``RES, FPS, SECONDS = ...`` set to the video
    contract of the suite or its variant (the smoke variant's is smaller)."""
    if len(CONTRACT_LINE.findall(source)) != 1:
        raise ValueError(f"{case.key}: {what} needs exactly one line 'RES, FPS, SECONDS = ...'")
    contract = video_contract(case)
    line = (
        f"RES, FPS, SECONDS = ({contract['width']}, {contract['height']}), {contract['fps']}, {contract['duration_s']}"
    )
    return CONTRACT_LINE.sub(line, source)


def suite_context(suite: Suite) -> context.PromptContext:
    """The Genesis context of the suite (reference and examples) within its budget, built from the suite alone
    (so no case's hidden part can reach it)."""
    options = dict(suite.data.get("scoring", {}).get("context", {}))
    extra = Path(options["examples_dir"]) if options.get("examples_dir") else None
    examples = context.example_files(suite.folder / "examples", extra)
    return context.build_context(context.api_reference(suite.environment), examples, options)


def prompt_context(case: Case) -> dict[str, Any]:
    """The template's fixed slots beyond the visible spec: the suite's video contract."""
    return {"video": {**video.PAPER_CONTRACT, **case.suite.data.get("scoring", {}).get("video", {})}}


def optional_context(case: Case) -> list[ContextPiece]:
    """The Genesis context as pieces ranked for the case (:func:`.context.context_pieces`): dropped, least relevant
    first, where the model's window cannot hold them all."""
    return context.context_pieces(suite_context(case.suite), dict(case.visible.spec))


def plot_comparison(case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
    """The report's frame strip (:mod:`.strips`): evenly spaced frames of the sample's video above those of
    the oracle's (the run's oracle agent, when it has one); False when neither video can be read."""
    filename = video_contract(case)["filename"]
    rows: list[tuple[str, Path | None]] = [("sample", Path(run_dir) / filename)]
    oracle = strips.oracle_video(Path(run_dir), filename)
    if oracle is not None and oracle != Path(run_dir) / filename:
        rows.append(("oracle", oracle))
    return strips.draw_strip(rows, png)
