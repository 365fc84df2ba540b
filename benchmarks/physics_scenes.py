"""Every physics case's oracle (or second solution) run on real Genesis, timed and scored (all its checks must
pass), mutants optional.

All scenes run in ONE Genesis session (the suite's ``session_worker.py`` in the genesis environment): one ``gs.init``
and import for the whole table, as the tests do. Per case: build s (``scene.build``), simulate s (from the
end of the build to the end of the script, less render s), render s (in the cameras' recording: rendering and
encoding each frame, closing the file), total s (the whole script), the
worker's peak RSS so far (a high-water mark: the largest scene run up to then sets it), the checks passed and,
with ``--mutants``, how many mutants landed in their declared class (each mutant is one more script run).
Prints a markdown table for benchmarks/results/physics.md and exits non-zero when an oracle fails a check or a
mutant misses.

``--solution alternative`` runs each case's second solution (``hidden.alternative``, with the variant's video
contract as the alternative agent gets it) instead of its oracle, and with ``--mutants`` the mutants built on it
(``<name>@alternative``); a mutant whose edit does not occur in the second solution is counted as not applicable.

``--fresh`` starts a new worker per case (import s is then that case's own import of Genesis) with the
environment's kernel cache, as a job does after the first run (warm cache); ``--cold`` does the same with an
empty kernel cache per case, as the very first run after provisioning (Genesis compiles its kernels anew).

Usage: python benchmarks/physics_scenes.py [--variant smoke|full] [--cases a,b,...] [--mutants | --only-mutants a,b]
       [--details]
       [--solution oracle|alternative] [--fresh | --cold]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import REPO, machine

from simcodebench.agents.backends.alternative import alternative_artifact, has_alternative
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.core.cases import Case, load_suite_cases
from simcodebench.execution.environments import get_environment
from simcodebench.pipeline.gates import OUTCOME_CLASS
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.checks import run_checks
from simcodebench.suites.physics.state import load_recording

WORKER = Path(scorer.__file__).with_name("session_worker.py")


class Session:
    """The worker process holding the Genesis session."""

    def __init__(self, log: Path, kernel_cache: Path | None = None) -> None:
        env = get_environment("genesis")
        self.log = log
        environment = {
            **os.environ,
            "XDG_CACHE_HOME": str(kernel_cache or env.prefix / scorer.KERNEL_CACHE),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        self.process = subprocess.Popen(
            [str(env.python), str(WORKER), str(scorer.RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
            env=environment,
        )

    def run(self, source: str, run_dir: Path) -> dict:
        """Run ``source`` as the solution in ``run_dir``; the worker's timed answer."""
        run_dir.mkdir(parents=True, exist_ok=True)
        script = run_dir / "genesis_solution.py"
        script.write_text(source, encoding="utf-8")
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"cwd": str(run_dir), "script": str(script)}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the Genesis worker died:\n{self.log.read_text()[-4000:]}")
        return json.loads(line)

    def close(self) -> None:
        """End the worker."""
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=120)


def failure_class(case: Case, answer: dict, run_dir: Path) -> tuple[str, str]:
    """The class our gates give a run (F-Exec for a script that raised) and the scorer's message."""
    if not answer["ok"]:
        return "F-Exec", answer["error"].strip().splitlines()[-1] if answer["error"] else ""
    evaluation = scorer.measure(case, run_dir, scorer.generate_reference(case))
    if evaluation.outcome != "ok":
        return OUTCOME_CLASS[evaluation.outcome], evaluation.message
    passed = evaluation.error <= case.threshold_policy()["accuracy"]["value"]
    return ("Pass" if passed else "F-Acc"), evaluation.message


def evaluation_checks(case: Case) -> list[dict]:
    """The case's declared checks, as the scorer's reference holds them."""
    return scorer.generate_reference(case).meta["checks"]


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def bench_case(
    session: Session,
    case: Case,
    work: Path,
    mutants: list[str] | None,
    details: bool,
    solution: str = "oracle",
) -> tuple[str, list[str]]:
    """One table row for ``case`` run as ``solution`` (its oracle or its second solution) and the problems found
    (a failed check, a mutant off its class); ``mutants``: the names of those to run too (None: none)."""
    source = scorer.oracle_source(case) if solution == "oracle" else alternative_artifact(case)
    answer = session.run(source, work / case.id / solution)
    problems = []
    checks = "-"
    if answer["ok"]:
        evaluation = scorer.measure(case, work / case.id / solution, scorer.generate_reference(case))
        total = int(evaluation.metrics["physics_checks"])
        checks = f"{total - int(evaluation.metrics['physics_failed'])}/{total}"
        if details:
            for result in run_checks(load_recording(work / case.id / solution).main_scene(), evaluation_checks(case)):
                print(
                    f"  {case.id} {result.name}: {result.value} vs {result.expected} {result.detail}", file=sys.stderr
                )
        if evaluation.outcome != "ok" or evaluation.error:
            problems.append(f"{case.id}: {solution} {evaluation.outcome}: {evaluation.message}")
    else:
        problems.append(f"{case.id}: {solution} raised: {answer['error'][-2000:]}")
    landed = "-"
    if mutants is not None:
        hits, skipped = 0, 0
        names = mutant_names(case, mutants, base=solution)
        for index, name in enumerate(names):
            try:
                mutant = build_mutant(case, index, None, mutants, base=solution)
            except ValueError as exc:  # an edit that does not occur in this solution
                if solution == "oracle":
                    problems.append(f"{case.id}: mutant {name}: {exc}")
                skipped += 1
                continue
            run_dir = work / case.id / mutant.name
            got, message = failure_class(case, session.run(mutant.source, run_dir), run_dir)
            hits += got == mutant.declared_class
            if got != mutant.declared_class:
                problems.append(f"{case.id}: mutant {mutant.name} landed {got}, not {mutant.declared_class}: {message}")
        landed = f"{hits}/{len(names) - skipped}" + (f" ({skipped} n/a)" if skipped else "")
    spec = case.visible.spec
    simulate = None if answer["after_build_s"] is None else answer["after_build_s"] - answer["render_s"]
    row = (
        f"| {case.id} | {', '.join(spec.get('domains', []))} | {spec.get('difficulty', '')} "
        f"| {_seconds(answer['import_s'])} | {_seconds(answer['build_s'])} | {_seconds(simulate)} "
        f"| {answer['render_s']:.1f} | {answer['total_s']:.1f} "
        f"| {answer['peak_rss_mib']:.0f} | {checks} | {landed} |"
    )
    return row, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="smoke", help="suite variant (smoke, default; 'full' for the paper's)")
    parser.add_argument("--cases", default="", help="comma-separated case ids (default: every physics case)")
    parser.add_argument("--mutants", action="store_true", help="also run every mutant of each case")
    parser.add_argument("--only-mutants", default="", help="comma-separated mutant names to run (only these)")
    parser.add_argument("--details", action="store_true", help="print each check's value of each oracle (stderr)")
    parser.add_argument(
        "--solution", choices=("oracle", "alternative"), default="oracle", help="what to run (default: the oracle)"
    )
    fresh = parser.add_mutually_exclusive_group()
    fresh.add_argument("--fresh", action="store_true", help="a new worker per case, warm kernel cache")
    fresh.add_argument("--cold", action="store_true", help="a new worker per case, empty kernel cache")
    args = parser.parse_args()
    variant = None if args.variant == "full" else args.variant
    cases = load_suite_cases(REPO / "cases" / "physics", variant)
    wanted = [c for c in args.cases.split(",") if c]
    unknown = sorted(set(wanted) - {c.id for c in cases})
    if unknown:
        raise SystemExit(f"--cases: {unknown} are not physics cases; known: {[c.id for c in cases]}")
    only = [name for name in args.only_mutants.split(",") if name]
    chosen = only or ([m["name"] for m in cases[0].suite.mutants] if args.mutants else None)
    runnable = [c for c in cases if args.solution == "oracle" or has_alternative(c)]
    selected = [c for c in runnable if not wanted or c.id in wanted]
    mode = "cold kernel cache" if args.cold else "warm kernel cache" if args.fresh else "one session"
    print(
        f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}; variant {args.variant}; {mode}; "
        f"solution {args.solution}"
    )
    print()
    print(
        "| case | domain | difficulty | import s | build s | simulate s | render s | total s | peak RSS MiB "
        "| checks | mutants |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        session = None
        try:
            for case in selected:
                if session is None or args.fresh or args.cold:
                    if session is not None:
                        session.close()
                    cache = Path(tempfile.mkdtemp(dir=tmp, prefix="kernel-cache-")) if args.cold else None
                    # Genesis's own output goes to the log, not into the table
                    session = Session(Path(tmp) / f"worker-{case.id}.log", cache)
                row, found = bench_case(session, case, Path(tmp), chosen, args.details, args.solution)
                print(row, flush=True)
                problems += found
        finally:
            if session is not None:
                session.close()
    for problem in problems:
        print(f"PROBLEM {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
