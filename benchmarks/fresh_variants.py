"""Fresh variants (issue 39): generate each suite's fresh cases, time the drawing and the verification, count
the dropped draws, check that the same seed writes the same bytes and another seed other cases, and run the
pipeline's oracle and mutants on the fresh suites (the oracle must pass every case, every mutant land in its
declared class).

Writes a dated entry at the top of benchmarks/results/fresh-variants.md (``--out``) and exits non-zero when a
check fails. Each generation runs in a scratch folder (never under cases/).

``--details`` adds each kept case's verification (observed rates and errors, or the gap to the closed form or the
twin); ``--no-repeat`` skips the second generations (same seed, other seed), for a large count.

Usage: python benchmarks/fresh_variants.py [--suites fem,fea] [--count 3] [--seed 11] [--other-seed 12]
       [--no-pipeline] [--details] [--no-repeat] [--max-draws 5] [--cases a,b] [--cores 2]
       [--out benchmarks/results/fresh-variants.md] [--title "Fresh variants (issue 39)"]

``--title`` heads a results page the run creates (fea's: ``--out benchmarks/results/fresh-variants-fea.md
--title "Fresh variants of fea (issue 39)"``).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from _common import REPO, machine, snakemake, workdir

from simcodebench.pipeline.generate import Generated, generate

TITLE = "Fresh variants (issue 39)"
SHOWN = {True: "yes", False: "NO", None: "not checked"}


def tree(folder: Path) -> dict[str, bytes]:
    """Every file of a folder by relative name."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def commit() -> str:
    """The checkout's commit (short)."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO).stdout


def generation_rows(args: argparse.Namespace, cases: Path, scratch: Path) -> list[dict]:
    """Generate each suite three times (seed, seed again, other seed; once with ``--no-repeat``) and time the
    first."""
    rows = []
    for suite in args.suites:
        started = time.perf_counter()
        done: Generated = generate(suite, args.count, args.seed, args.cases, out=cases, max_draws=args.max_draws)
        wall = time.perf_counter() - started
        mine = tree(done.folder)
        case_files = [name for name in mine if name.endswith("/case.yaml")]
        same = other = None
        if not args.no_repeat:
            again = generate(suite, args.count, args.seed, args.cases, out=scratch / "again", max_draws=args.max_draws)
            different = generate(
                suite, args.count, args.other_seed, args.cases, out=scratch / "other", max_draws=args.max_draws
            )
            theirs = tree(different.folder)
            same = mine == tree(again.folder)
            other = all(mine.get(n) != theirs.get(n) for n in case_files) and bool(case_files)
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
                "same_seed_identical": same,
                "other_seed_differs": other,
                "folder": done.folder.name,
                "report": done.report,
            }
        )
    return rows


def pipeline_rows(work: Path, cases: Path, fresh: list[str], cores: int = 2) -> tuple[list[dict], float]:
    """The oracle and the mutants on every fresh case through the real workflow (``cores`` jobs at a time)."""
    config = {
        "cases_dir": str(cases),
        "runtime": "auto",
        "suites": fresh,
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    started = time.perf_counter()
    snakemake(workdir(work, config), "--cores", str(cores))
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
        f"`python benchmarks/fresh_variants.py {shlex.join(sys.argv[1:])}`: drawing is the plugin's `fresh_case` "
        "and writing the case; verifying is the "
        "plugin's `verify_fresh_case` (fem: the oracle at three refinements, fem-dealii at two, a refined family at "
        "its reference's three levels; fea: the scikit-fem refinement study against the closed form or the "
        "independent solver: a DOLFINx twin or the case's own second solution)."
        + (
            ""
            if args.no_repeat
            else f" Same seed: a second generation compared byte for byte; other seed "
            f"{args.other_seed}: every case file differs."
        )
        + "\n",
        "| suite | fresh cases | drawn | dropped | drawing s | verifying s | wall s | same seed identical "
        "| other seed differs |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in generated:
        lines.append(
            f"| {r['suite']} | {r['cases']} | {r['drawn']} | {r['dropped']} | {r['draw_s']:.1f} | "
            f"{r['verify_s']:.1f} | {r['wall_s']:.1f} | {SHOWN[r['same_seed_identical']]} | "
            f"{SHOWN[r['other_seed_differs']]} |"
        )
    if args.details:
        lines += [
            "\nEach kept case's verification (fem: the grid error at each level and the observed rates, or a refined "
            "family's gaps between its levels; fea: "
            "the gap of the finest scikit-fem level to the closed form or the twin):\n",
            "| case | levels | errors or values | rates | gap |",
            "|---|---|---|---|---|",
        ]
        for r in generated:
            for case in r["report"]["cases"]:
                check = case["verification"]
                levels = " / ".join(
                    str(level.get("resolution") or level.get("char_length"))
                    if isinstance(level, dict)
                    else f"{level:g}"
                    for level in check.get("levels", [])
                )
                errors = " / ".join(f"{e:.3g}" for e in check.get("errors", []))
                if "g12" in check:  # a refined fem family: the gaps between its three levels
                    errors = f"g01 {check['g01']:.3g}, g12 {check['g12']:.3g}, e_base {check['e_base_estimate']:.3g}"
                rates = " / ".join(f"{x:.2f}" for x in check.get("rates", []))
                lines.append(f"| {case['id']} | {levels} | {errors} | {rates} | {check.get('gap', '')} |")
            for drop in r["report"]["dropped"]:
                lines.append(
                    f"| dropped: {drop['family']} (draw {drop['draw']}) | | | | "
                    f"{drop['verification'].get('reason', '')} |"
                )
    if ran:
        lines += [
            f"\nThe pipeline on the fresh suites (oracle and mutants agents, `--cores {args.cores}`, "
            f"{pipeline_s:.0f} s in all, references and calibrations included):\n",
            "| fresh suite | oracle passed | mutants in their class | missed |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {r['suite']} | {r['oracle_passed']}/{r['oracle_n']} | {r['mutants_landed']}/{r['mutants_n']} | "
            f"{r['missed']} |"
            for r in ran
        ]
    return "\n".join(lines) + "\n"


def write_entry(out: Path, text: str, title: str = TITLE) -> None:
    """Put the entry at the top of the results page (newest first), creating the page under ``title``."""
    old = (
        out.read_text()
        if out.is_file()
        else f"# {title}\n\nNewest entry first. Index: [BENCHMARKS.md](../../BENCHMARKS.md).\n"
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
    parser.add_argument("--no-repeat", action="store_true")
    parser.add_argument("--details", action="store_true")
    parser.add_argument("--max-draws", type=int, default=5)
    parser.add_argument("--cores", type=int, default=2, help="the pipeline's jobs at a time (1: one solve at a time)")
    parser.add_argument("--cases", type=lambda s: s.split(","), help="published case ids to draw from (all suites)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "fresh-variants.md")
    parser.add_argument("--title", default=TITLE, help="the heading of a results page the run creates")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fresh-variants-") as scratch:
        root = Path(scratch)
        cases = root / "work" / "cases"
        generated = generation_rows(args, cases, root)
        ran, wall = (
            ([], None)
            if args.no_pipeline
            else pipeline_rows(root / "work", cases, [r["folder"] for r in generated], args.cores)
        )
    text = entry(args, generated, ran, wall)
    print(text)
    write_entry(args.out, text, args.title)
    ok = all(r["same_seed_identical"] is not False and r["other_seed_differs"] is not False for r in generated)
    ok &= all(r["oracle_passed"] == r["oracle_n"] and r["mutants_landed"] == r["mutants_n"] for r in ran)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
