"""Fresh variants (issue 39): generate each suite's fresh cases, time the drawing and the verification, count
the dropped draws, check that the same seed writes the same bytes and another seed other cases, and run the
pipeline's oracle and mutants on the fresh suites (the oracle must pass every case, every mutant land in its
declared class).

Writes a dated entry at the top of benchmarks/results/fresh-variants.md (``--out``) and exits non-zero when a
check fails. Each generation runs in a scratch folder (never under cases/).

Usage: python benchmarks/fresh_variants.py [--suites fem,fea] [--count 3] [--seed 11] [--other-seed 12]
       [--no-pipeline] [--out benchmarks/results/fresh-variants.md]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from _common import REPO, machine, snakemake, workdir

from simcodebench.pipeline.generate import Generated, generate

HEADER = "# Fresh variants (issue 39)\n"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file of a folder by relative name."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def commit() -> str:
    """The checkout's commit (short)."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO).stdout


def generation_rows(suites: list[str], count: int, seed: int, other: int, cases: Path, scratch: Path) -> list[dict]:
    """Generate each suite three times (seed, seed again, other seed) and time the first."""
    rows = []
    for suite in suites:
        started = time.perf_counter()
        done: Generated = generate(suite, count, seed, out=cases)
        wall = time.perf_counter() - started
        again = generate(suite, count, seed, out=scratch / "again")
        different = generate(suite, count, other, out=scratch / "other")
        mine, theirs = tree(done.folder), tree(different.folder)
        case_files = [name for name in mine if name.endswith("/case.yaml")]
        draws = done.report["draws"]
        rows.append(
            {
                "suite": suite,
                "cases": ", ".join(entry["id"] for entry in done.report["cases"]),
                "drawn": draws["made"],
                "dropped": draws["dropped"],
                "draw_s": done.draw_seconds,
                "verify_s": done.verify_seconds,
                "wall_s": wall,
                "same_seed_identical": mine == tree(again.folder),
                "other_seed_differs": all(mine.get(n) != theirs.get(n) for n in case_files) and bool(case_files),
                "folder": done.folder.name,
            }
        )
    return rows


def pipeline_rows(work: Path, cases: Path, fresh: list[str]) -> tuple[list[dict], float]:
    """The oracle and the mutants on every fresh case through the real workflow."""
    config = {
        "cases_dir": str(cases),
        "runtime": "auto",
        "suites": fresh,
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    started = time.perf_counter()
    snakemake(workdir(work, config), "--cores", "2")
    wall = time.perf_counter() - started
    frame = pd.read_csv(work / "results" / "summary" / "scores.csv")
    final = frame[frame["final"]]
    rows = []
    for suite, at in final.groupby("suite"):
        oracle = at[at["agent"] == "oracle"]
        mutants = at[at["agent"] == "mutants"]
        missed = mutants[mutants["failure_class"] != mutants["declared_class"]]
        rows.append(
            {
                "suite": suite,
                "oracle_passed": int((oracle["failure_class"] == "Pass").sum()),
                "oracle_n": len(oracle),
                "mutants_landed": len(mutants) - len(missed),
                "mutants_n": len(mutants),
                "missed": "; ".join(f"{r.case}/{r.mutant}: {r.failure_class}" for r in missed.itertuples()) or "none",
            }
        )
    return rows, wall


def entry(args: argparse.Namespace, generated: list[dict], ran: list[dict], pipeline_s: float | None) -> str:
    """The markdown entry."""
    lines = [
        f"## generate --count {args.count} --seed {args.seed} ({', '.join(args.suites)})\n",
        f"*Measured on {machine()}; commit {commit().strip()}.*\n",
        f"`python benchmarks/fresh_variants.py --suites {','.join(args.suites)} --count {args.count} "
        f"--seed {args.seed}`: drawing is the plugin's `fresh_case` and writing the case; verifying is the "
        "plugin's `verify_fresh_case` (fem: the oracle at three refinements, fem-dealii at two; fea: the "
        "scikit-fem refinement study against the closed form or the DOLFINx twin). Same seed: a second "
        "generation compared byte for byte; other seed "
        f"{args.other_seed}: every case file differs.\n",
        "| suite | fresh cases | drawn | dropped | drawing s | verifying s | wall s | same seed identical "
        "| other seed differs |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in generated:
        lines.append(
            f"| {r['suite']} | {r['cases']} | {r['drawn']} | {r['dropped']} | {r['draw_s']:.1f} | "
            f"{r['verify_s']:.1f} | {r['wall_s']:.1f} | {r['same_seed_identical']} | {r['other_seed_differs']} |"
        )
    if ran:
        lines += [
            f"\nThe pipeline on the fresh suites (oracle and mutants agents, `--cores 2`, {pipeline_s:.0f} s in "
            "all, references and calibrations included):\n",
            "| fresh suite | oracle passed | mutants in their class | missed |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {r['suite']} | {r['oracle_passed']}/{r['oracle_n']} | {r['mutants_landed']}/{r['mutants_n']} | "
            f"{r['missed']} |"
            for r in ran
        ]
    return "\n".join(lines) + "\n"


def write_entry(out: Path, text: str) -> None:
    """Put the entry at the top of the results page (newest first)."""
    old = (
        out.read_text()
        if out.is_file()
        else HEADER + "\nNewest entry first. Index: [BENCHMARKS.md](../../BENCHMARKS.md).\n"
    )
    head, _, rest = old.partition("\n## ")
    out.write_text(f"{head.rstrip()}\n\n{text}\n" + (f"## {rest}" if rest else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", default="fem,fea", type=lambda s: s.split(","))
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--other-seed", type=int, default=12)
    parser.add_argument("--no-pipeline", action="store_true")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "fresh-variants.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fresh-variants-") as scratch:
        root = Path(scratch)
        cases = root / "work" / "cases"
        generated = generation_rows(args.suites, args.count, args.seed, args.other_seed, cases, root)
        ran, wall = (
            ([], None) if args.no_pipeline else pipeline_rows(root / "work", cases, [r["folder"] for r in generated])
        )
    text = entry(args, generated, ran, wall)
    print(text)
    write_entry(args.out, text)
    ok = all(r["same_seed_identical"] and r["other_seed_differs"] for r in generated)
    ok &= all(r["oracle_passed"] == r["oracle_n"] and r["mutants_landed"] == r["mutants_n"] for r in ran)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
