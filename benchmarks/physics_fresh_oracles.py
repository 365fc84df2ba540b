"""Fresh physics scenes in Genesis: one run of each fresh oracle, its checks evaluated on the recording.

The parameter-level verification of a fresh physics case (``fresh_verify.py``) runs the oracle against a recording
stand-in for Genesis; this script runs it in Genesis itself (CPU, under the physics runner, as the pipeline runs a
solution) and reports each declared check, for the families named. It is the oracle gate of the acceptance runs
without the workflow around it (no calibration, no mutants), so it costs one Genesis process per case.

Usage: python benchmarks/physics_fresh_oracles.py --cases ball_drop,box_drop [--seed 11] [--variant smoke]
       [--out benchmarks/results/fresh-variants-physics-genesis.md]

Writes a dated entry at the top of ``--out`` and exits non-zero when an oracle fails a check.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, machine

from simcodebench.core.cases import load_suite_cases
from simcodebench.pipeline.generate import generate
from simcodebench.suites.physics.checks import run_checks
from simcodebench.suites.physics.scorer import run_oracle

TITLE = "Fresh physics scenes in Genesis (issue 39)"
RESULTS = "fresh-variants-physics-genesis.md"


def run_case(case, scratch: Path) -> dict:
    """One Genesis run of ``case``'s oracle; its checks' verdicts and the wall time."""
    started = time.perf_counter()
    scene = run_oracle(case, scratch / case.id)
    wall = time.perf_counter() - started
    if isinstance(scene, str):
        return {"case": case.id, "passed": False, "detail": scene, "wall": wall}
    results = run_checks(scene, case.hidden.scoring["checks"])
    failed = [f"{r.name}: {r.detail or r.value}" for r in results if not r.passed]
    detail = "; ".join(failed) if failed else f"{len(results)} of {len(results)} checks pass"
    return {"case": case.id, "passed": not failed, "detail": detail, "wall": wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", required=True, type=lambda s: s.split(","))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--variant", default="smoke")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / RESULTS)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        done = generate(f"physics@{args.variant}", len(args.cases), args.seed, args.cases, out=scratch)
        for case in load_suite_cases(done.folder, args.variant):
            row = run_case(case, scratch / "runs")
            print(f"{row['case']}: {'Pass' if row['passed'] else 'FAIL'} ({row['detail']}), {row['wall']:.0f} s")
            rows.append(row)
    table = "\n".join(
        f"| {r['case']} | {'Pass' if r['passed'] else '**FAIL**'} | {r['detail']} | {r['wall']:.0f} |" for r in rows
    )
    command = " ".join(["python", "benchmarks/physics_fresh_oracles.py", *sys.argv[1:]])
    passed = sum(r["passed"] for r in rows)
    entry = (
        f"## physics@{args.variant}, seed {args.seed}: {passed} of {len(rows)} fresh oracles pass\n\n"
        f"*{machine()}.*\n\n`{command}`: one Genesis run (CPU) of each fresh oracle, its declared checks evaluated on "
        "the recording.\n\n| case | oracle | checks | wall s |\n|---|---|---|---|\n"
        f"{table}\n"
    )
    head = f"# {TITLE}\n\nNewest entry first. Index: [BENCHMARKS.md](../../BENCHMARKS.md).\n\n"
    old = args.out.read_text(encoding="utf-8").split("\n\n", 2)[-1] if args.out.exists() else ""
    args.out.write_text(head + entry + ("\n" + old if old else ""), encoding="utf-8")
    return 0 if all(r["passed"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
