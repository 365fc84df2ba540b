"""Acceptance of the fresh suites of cfd-code, re4 and physics: generate, regenerate, run the gates.

For one suite: ``simcodebench generate SUITE --count N --seed S`` into a scratch copy of the cases (timed; the
report's dropped draws counted), again with the same seed (the folders must be byte-identical) and with seed
S + 1 (they must differ); then the real workflow on the fresh suite with the oracle and the suite's mutants
(``--mutants`` narrows them): the oracle must pass every case and each mutant land in its declared class.
Prints a markdown entry for benchmarks/results/fresh-variants-cfd-re4-physics.md (re4's 2-D families:
benchmarks/results/fresh-variants-re4.md); exits non-zero on a miss.

The scratch copy gets the test suite's re4 settings (tests/pipeline.py: a 30 s wall limit, a 3 s time-gate
floor, 3 calibration repeats), so re4's ``slow`` mutant costs seconds, not minutes. re4's 2-D cases keep their
own 120 s wall limit, which their ``hang`` mutants wait out, and each verification runs a DOLFINx reference.

Usage: python benchmarks/fresh_variants_cfd_re4_physics.py SUITE[@variant] [--count 3] [--seed 11]
       [--cases a,b] [--mutants a,b] [--wall-s S] [--work DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml
from _common import REPO, machine, snakemake, workdir

from simcodebench.core.cases import load_suite, split_suite_name
from simcodebench.core.registry import plugin
from simcodebench.pipeline.generate import generate


def _timed_verification(suite: str, cases: Path) -> list[tuple[str, float, bool]]:
    """Time each call of the suite plugin's ``verify_fresh_case`` (case id, seconds, kept) from now on."""
    folder, variant = split_suite_name(suite)
    suite_plugin = plugin(load_suite(cases / folder, variant).data["plugin"])
    verify, timings = suite_plugin.verify_fresh_case, []

    def timed(case, workdir):
        start = time.perf_counter()
        check = verify(case, workdir)
        timings.append((case.id, time.perf_counter() - start, check.ok))
        return check

    suite_plugin.verify_fresh_case = timed
    return timings


def _same_tree(a: Path, b: Path) -> bool:
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.diff_files or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not mismatch and not errors and all(_same_tree(a / d, b / d) for d in compared.common_dirs)


def _scratch_cases(root: Path, wall_s: float | None, mutants: list[str] | None, suite: str) -> Path:
    cases = root / "cases"
    shutil.copytree(REPO / "cases", cases, ignore=shutil.ignore_patterns("*-fresh-s*", "__pycache__"))
    re4 = cases / "re4" / "suite.yaml"
    data = yaml.safe_load(re4.read_text())
    data["defaults"]["resources"]["wall_s"] = 30.0
    data["thresholds"]["time"] = {"alpha": 3.0, "floor_s": 3.0}
    data["calibration"]["repeats"] = 3
    re4.write_text(yaml.safe_dump(data, sort_keys=False))
    folder, variant = split_suite_name(suite)
    protocol_file = cases / folder / "suite.yaml"
    protocol = yaml.safe_load(protocol_file.read_text())
    if mutants is not None:
        protocol["mutants"] = [m for m in protocol["mutants"] if m["name"] in mutants]
        if variant and "mutants" in protocol["variants"][variant]:
            kept = protocol["variants"][variant]["mutants"]
            protocol["variants"][variant]["mutants"] = [m for m in kept if m["name"] in mutants]
        for case_file in protocol_file.parent.glob("*/case.yaml"):  # a case's adjustments of mutants left out go too
            case = yaml.safe_load(case_file.read_text())
            if case.get("hidden", {}).get("mutants"):
                case["hidden"]["mutants"] = {k: v for k, v in case["hidden"]["mutants"].items() if k in mutants}
                case_file.write_text(yaml.safe_dump(case, sort_keys=False, allow_unicode=True))
    if wall_s is not None:
        target = protocol["variants"][variant] if variant else protocol
        target.setdefault("defaults", {}).setdefault("resources", {})["wall_s"] = wall_s
    protocol_file.write_text(yaml.safe_dump(protocol, sort_keys=False))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cases", help="comma-separated published cases to draw from (default: all, round robin)")
    parser.add_argument("--mutants", help="comma-separated mutant names to keep (default: all of the suite's)")
    parser.add_argument("--wall-s", type=float, help="the suite's wall limit in the scratch copy")
    parser.add_argument("--work", help="scratch folder (default: a temporary one, removed)")
    args = parser.parse_args()
    mutants = args.mutants.split(",") if args.mutants else None
    root = Path(args.work or tempfile.mkdtemp(prefix="fresh-acceptance-"))
    cases = _scratch_cases(root, args.wall_s, mutants, args.suite)
    started = time.perf_counter()
    families = args.cases.split(",") if args.cases else None
    timings = _timed_verification(args.suite, cases)
    first = generate(args.suite, args.count, args.seed, families, root=cases, out=cases)
    generate_s = time.perf_counter() - started
    timings = list(timings)  # the first generation's only
    again = generate(args.suite, args.count, args.seed, families, root=cases, out=root / "again")
    other = generate(args.suite, args.count, args.seed + 1, families, root=cases, out=root / "other")
    identical = _same_tree(first.folder, again.folder)
    # every case of the other seed is another case: its case.yaml differs from the first seed's same-place case
    differs = all(
        (first.folder / c["id"] / "case.yaml").read_bytes() != (other.folder / o["id"] / "case.yaml").read_bytes()
        for c, o in zip(first.report["cases"], other.report["cases"], strict=True)
    )
    _, variant = split_suite_name(args.suite)
    fresh_suite = first.folder.name + (f"@{variant}" if variant else "")
    config = {
        "cases_dir": str(cases),
        "runtime": "auto",
        "suites": [fresh_suite],
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    started = time.perf_counter()
    snakemake(workdir(root, config), "--cores", "2", "--rerun-incomplete")
    pipeline_s = time.perf_counter() - started
    frame = pd.read_csv(root / "results" / "summary" / "scores.csv", keep_default_na=False)  # a mutant named "nan"
    oracle = frame[frame.agent == "oracle"]
    mutated = frame[frame.agent == "mutants"]
    wrong = mutated[mutated.failure_class != mutated.declared_class]
    failed = oracle[oracle.failure_class != "Pass"]
    draws = first.report["draws"]
    print(f"### {args.suite}, seed {args.seed}, {args.count} cases\n\n{machine()}\n")
    print("| case | drawn parameters | oracle | mutants in their class |")
    print("|---|---|---|---|")
    for entry in first.report["cases"]:
        case_oracle = oracle[oracle.case == entry["id"]].failure_class.tolist()
        case_mutants = mutated[mutated.case == entry["id"]]
        landed = int((case_mutants.failure_class == case_mutants.declared_class).sum())
        print(
            f"| {entry['id']} | {json.dumps(entry['params'])} | {', '.join(case_oracle) or 'not run'} | "
            f"{landed} / {len(case_mutants)} |"
        )
    print(
        f"\ngenerate: {draws['made']} drawn, {draws['dropped']} dropped; draw {first.draw_seconds:.1f} s, verify "
        f"{first.verify_seconds:.1f} s, in all {generate_s:.1f} s. Same seed again: "
        f"{'identical' if identical else 'DIFFERENT'}; seed {args.seed + 1}: {'different' if differs else 'SAME'}. "
        f"Pipeline (oracle + {mutated.mutant.nunique()} mutants per case, calibration included): {pipeline_s:.0f} s."
    )
    for case_id, seconds, kept in timings:
        print(f"- {case_id}: verify {seconds:.1f} s, {'kept' if kept else 'dropped'}")
    if not failed.empty:
        print(failed[["case", "failure_class", "message"]].to_string(), file=sys.stderr)
    if not wrong.empty:
        print(wrong[["case", "mutant", "declared_class", "failure_class", "message"]].to_string(), file=sys.stderr)
    if not args.work:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if identical and differs and failed.empty and wrong.empty and len(oracle) == args.count else 1


if __name__ == "__main__":
    raise SystemExit(main())
