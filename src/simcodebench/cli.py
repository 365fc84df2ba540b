"""The ``simcodebench`` command line: cases, environments and prompts (the pipeline itself is Snakemake)."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from simcodebench.agents.prompts import messages_to_markdown, render_messages
from simcodebench.core.cases import validate_path
from simcodebench.core.errors import InfrastructureError, InputError
from simcodebench.core.project import cases_root
from simcodebench.execution.environments import ENVIRONMENTS, setup_environment


def _cases_validate(args: argparse.Namespace) -> int:
    cases = validate_path(Path(args.path) if args.path else cases_root())
    print(f"ok: {len(cases)} case(s) valid")
    return 0


def _cases_list(args: argparse.Namespace) -> int:
    for case in validate_path(cases_root() / args.suite if args.suite else cases_root()):
        print(f"{case.key}\t{case.suite.environment}\t{case.title}")
    return 0


def _env_setup(args: argparse.Namespace) -> int:
    env = setup_environment(args.name, force=args.force)
    print(f"environment '{args.name}' ready at {env.prefix}")
    return 0


def _prompt(args: argparse.Namespace) -> int:
    suite, _, case_id = args.case.partition("/")
    matches = [c for c in validate_path(cases_root() / suite) if c.id == case_id]
    if not matches:
        raise InputError(cases_root() / suite, "case", f"'{case_id}' does not exist", "run 'simcodebench cases list'")
    print(messages_to_markdown(render_messages(matches[0])), end="")
    return 0


def _targets(args: argparse.Namespace) -> int:
    from simcodebench.core.io import read_yaml
    from simcodebench.pipeline.plan import Plan

    config = read_yaml(Path(args.configfile))
    plan = Plan.from_config(config, args.configfile)
    if args.case:
        suite, _, case_id = args.case.partition("/")
        if (suite, case_id) not in plan.cases:
            raise InputError(
                args.configfile,
                "cases",
                f"'{args.case}' is not selected by this config",
                "name a suite/case that 'simcodebench cases list' shows and the config runs",
            )
    if args.agent and args.agent not in plan.agents:
        raise InputError(
            args.configfile,
            "agents",
            f"'{args.agent}' is not an agent of this config",
            f"use one of {sorted(plan.agents)}",
        )
    case = tuple(args.case.partition("/")[::2]) if args.case else None
    print(" ".join(plan.batch_targets(args.agent, case)))
    return 0


IMPORTERS = {
    "cfdquery": "simcodebench.suites.cfd_query.importer:import_cfdquery",
    "feabench": "simcodebench.suites.fea.importer:import_feabench",
    "foambench": "simcodebench.suites.foam.importer:import_foambench",
    "pdeagent-bench": "simcodebench.suites.fem.importer:import_pdeagent_bench",
}
"""Importers of upstream data, as ``module:function(path, out) -> number of cases``."""


def _import(args: argparse.Namespace) -> int:
    if args.benchmark == "re4-transcripts":
        return _import_re4_transcripts(args)
    module, _, function = IMPORTERS[args.benchmark].partition(":")
    importer = getattr(importlib.import_module(module), function)
    out = Path(args.out) if args.out else cases_root() / args.benchmark
    if args.upstream_tolerance and args.benchmark != "pdeagent-bench":
        raise InputError("(command line)", "--upstream-tolerance", "applies to pdeagent-bench only", "drop it")
    options = {"upstream_tolerance": True} if args.upstream_tolerance else {}
    count = importer(Path(args.path), out, **options)
    print(f"ok: {count} case(s) written to {out}")
    return 0


def _import_re4_transcripts(args: argparse.Namespace) -> int:
    from simcodebench.suites.re4.transcripts import import_re4_transcripts

    if not args.out:
        raise InputError("(command line)", "--out", "is missing", "give the folder for the <programmer>.jsonl files")
    counts, unknown = import_re4_transcripts(Path(args.path), Path(args.out))
    written = ", ".join(f"{programmer}.jsonl ({count} replies)" for programmer, count in counts.items())
    print(f"ok: {written} written to {args.out}" + (f"; not Re^4 problems: {', '.join(unknown)}" if unknown else ""))
    return 0


def _cfd_code_cases() -> set[str]:
    return {case.id for case in validate_path(cases_root() / "cfd-code")}


def _replay_cfdcodebench(args: argparse.Namespace) -> int:
    from simcodebench.suites.cfd_code.upstream import write_replay

    count, skipped = write_replay(Path(args.folder), Path(args.out), _cfd_code_cases())
    print(
        f"ok: {count} replies written to {args.out}"
        + (f"; not cases of cfd-code: {', '.join(skipped)}" if skipped else "")
    )
    return 0


def _compare_cfdcodebench(args: argparse.Namespace) -> int:
    from simcodebench.suites.cfd_code import upstream

    tasks = _cfd_code_cases()
    logs = {}
    for name in ("comparison_log", "execution_log"):
        path = getattr(args, name)
        try:
            logs[name] = Path(path).read_text(encoding="utf-8", errors="replace") if path else ""
        except OSError as exc:
            raise InputError(path, "(file)", f"cannot be read ({exc.strerror})", "point at the upstream log") from exc
    scores = upstream.read_scores(Path(args.results) / "runs", args.agent, args.suite)
    if not scores:
        raise InputError(
            Path(args.results) / "runs" / args.agent / args.suite,
            "(folder)",
            "holds no score.json",
            "run the replay agent on the suite first (see cases/cfd-code/README.md)",
        )
    rows = upstream.compare(
        upstream.parse_comparison_log(logs["comparison_log"], tasks),
        upstream.parse_execution_log(logs["execution_log"]),
        scores,
    )
    print(upstream.markdown(rows), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="simcodebench", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    cases = commands.add_parser("cases", help="validate and list cases").add_subparsers(dest="action", required=True)
    validate = cases.add_parser("validate", help="validate a case, a suite or the whole cases/ tree")
    validate.add_argument("path", nargs="?", help="case folder, suite folder or cases/ (default: cases/)")
    validate.set_defaults(func=_cases_validate)
    listing = cases.add_parser("list", help="list cases as suite/case, environment, title")
    listing.add_argument("--suite", help="only this suite")
    listing.set_defaults(func=_cases_list)

    env = commands.add_parser("env", help="solver environments").add_subparsers(dest="action", required=True)
    setup = env.add_parser("setup", help="provision a solver environment on this machine")
    setup.add_argument("name", choices=sorted(ENVIRONMENTS))
    setup.add_argument("--force", action="store_true", help="rebuild even when up to date")
    setup.set_defaults(func=_env_setup)

    prompt = commands.add_parser("prompt", help="print the first-attempt prompt of SUITE/CASE")
    prompt.add_argument("case", help="suite/case, e.g. re4/sod")
    prompt.set_defaults(func=_prompt)
    targets = commands.add_parser(
        "targets", help="print the batch records (every attempt) that hold one case and/or agent's samples"
    )
    targets.add_argument("--configfile", default="config/config.yaml")
    targets.add_argument("--case", help="suite/case")
    targets.add_argument("--agent", help="agent name")
    targets.set_defaults(func=_targets)
    importing = commands.add_parser("import", help="write an upstream benchmark's data as a suite of cases")
    importing.add_argument("benchmark", choices=sorted([*IMPORTERS, "re4-transcripts"]))
    importing.add_argument(
        "path", help="the upstream JSON file (feabench: benchmark.zip; re4-transcripts: the released replies' folder)"
    )
    importing.add_argument(
        "--out", help="suite folder to write (default: cases/<benchmark>; re4-transcripts: the replay files' folder)"
    )
    importing.add_argument(
        "--upstream-tolerance",
        action="store_true",
        help="pdeagent-bench: each record's own alpha_acc (the released code's quirk) instead of the paper's 10",
    )
    importing.set_defaults(func=_import)

    replay = commands.add_parser("replay", help="write recorded upstream generations as a replay file")
    replay.add_argument("benchmark", choices=["cfdcodebench"])
    replay.add_argument("folder", help="the upstream folder of <task>.py scripts (solver/<model>/prompts)")
    replay.add_argument("--out", required=True, help="replay JSONL file to write")
    replay.set_defaults(func=_replay_cfdcodebench)
    compare = commands.add_parser("compare", help="set our scores of a replayed agent beside the upstream logs")
    compare.add_argument("benchmark", choices=["cfdcodebench"])
    compare.add_argument("--agent", required=True, help="the replay agent's name in the config")
    compare.add_argument("--comparison-log", required=True, help="compare/comparison_results_<model>_prompts.log")
    compare.add_argument("--execution-log", help="report/execution_results_<model>_prompts_*.log")
    compare.add_argument("--suite", default="cfd-code@legacy", help="the suite the agent ran (default cfd-code@legacy)")
    compare.add_argument("--results", default="results", help="the results folder (default results)")
    compare.set_defaults(func=_compare_cfdcodebench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; bad input is reported in one line and exit status 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except InfrastructureError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
