"""The ``simcodebench`` command line: cases, environments, prompts and targets; finished runs compared, bundled
and exported (:mod:`simcodebench.report.commands`); the suites add their importers, replay and compare commands
through their plugins (the pipeline itself is Snakemake)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simcodebench.agents.prompts import messages_to_markdown, render_messages
from simcodebench.core.cases import validate_path
from simcodebench.core.errors import InfrastructureError, InputError
from simcodebench.core.project import cases_root
from simcodebench.core.registry import plugins
from simcodebench.execution.environments import environment_specs, setup_environment
from simcodebench.execution.images import default_images_dir, image_provenance
from simcodebench.report.commands import add_commands
from simcodebench.run.eval_command import add_eval_command


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


def _images_build(args: argparse.Namespace) -> int:
    from simcodebench.execution.image_builds import build_image, buildable_environments

    out = Path(args.out) if args.out else default_images_dir()
    for name in args.names or buildable_environments():
        built = build_image(name, out, args.mirror)
        size, seconds = f"{built.size_mb:.0f} MiB", f"{built.seconds:.0f} s"
        print(f"image '{name}': {built.path} ({size}, built in {seconds}, sha256 {built.sha256[:16]})")
    return 0


def _images_list(args: argparse.Namespace) -> int:
    from simcodebench.execution.image_builds import buildable_environments

    folder = Path(args.folder) if args.folder else default_images_dir()
    for name in buildable_environments():
        image = folder / f"{name}.sif"
        state = image_provenance(str(image), environment_specs().get(name)) if image.is_file() else None
        if state is None:
            print(f"{name}\tmissing\t{image}")
        else:
            print(f"{name}\t{'current' if state['current'] else 'STALE'}\t{image}\tsha256 {state['sha256']}")
    return 0


def _prompt(args: argparse.Namespace) -> int:
    suite, _, case_id = args.case.partition("/")
    matches = [c for c in validate_path(cases_root() / suite) if c.id == case_id]
    if not matches:
        raise InputError(cases_root() / suite, "case", f"'{case_id}' does not exist", "run 'simcodebench cases list'")
    print(messages_to_markdown(render_messages(matches[0])), end="")
    return 0


def _generate(args: argparse.Namespace) -> int:
    from simcodebench.pipeline.generate import GenerationFailed, generate

    suite = args.suite + (f"@{args.variant}" if args.variant else "")
    families = [name for name in (args.cases or "").split(",") if name] or None
    out = Path(args.out) if args.out else None
    try:
        done = generate(suite, args.count, args.seed, families, out=out, max_draws=args.max_draws)
    except GenerationFailed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    draws = done.report["draws"]
    print(
        f"{done.folder}: {draws['kept']} fresh case(s) of {done.report['fresh_of']} (seed {args.seed}), "
        f"{draws['made']} drawn, {draws['dropped']} dropped by verification; drawing {done.draw_seconds:.1f} s, "
        f"verifying {done.verify_seconds:.1f} s"
    )
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
    setup.add_argument("name", choices=sorted(environment_specs()))
    setup.add_argument("--force", action="store_true", help="rebuild even when up to date")
    setup.set_defaults(func=_env_setup)

    images = commands.add_parser("images", help="Apptainer images of the solver environments")
    image_actions = images.add_subparsers(dest="action", required=True)
    build = image_actions.add_parser("build", help="build <env>.sif from containers/<env>.def (make images)")
    build.add_argument("names", nargs="*", help="environments (default: every containers/*.def)")
    build.add_argument("--out", help="folder of the images (default: $SIMCODEBENCH_IMAGES, else containers/)")
    build.add_argument("--mirror", help="Debian mirror to bootstrap from (default: this machine's apt mirror)")
    build.set_defaults(func=_images_build)
    listing_images = image_actions.add_parser("list", help="each environment's image: missing, current or stale")
    listing_images.add_argument("--folder", help="folder of the images (default as for build --out)")
    listing_images.set_defaults(func=_images_list)

    prompt = commands.add_parser("prompt", help="print the first-attempt prompt of SUITE/CASE")
    prompt.add_argument("case", help="suite/case, e.g. re4/sod")
    prompt.set_defaults(func=_prompt)
    generate = commands.add_parser(
        "generate", help="write SUITE-fresh-sSEED: fresh instances of SUITE's cases with verified references"
    )
    generate.add_argument("suite", help="the published suite, e.g. fem")
    generate.add_argument("--count", type=int, required=True, help="how many fresh cases to keep")
    generate.add_argument("--seed", type=int, required=True, help="the seed (the same seed writes the same bytes)")
    generate.add_argument("--variant", help="read the suite under this variant (e.g. smoke)")
    generate.add_argument("--cases", help="comma-separated ids of the published cases to draw from (default: all)")
    generate.add_argument("--max-draws", type=int, default=5, help="draws per case before giving up (default 5)")
    generate.add_argument("--out", help="folder the fresh suite is written in (default: cases/)")
    generate.set_defaults(func=_generate)
    targets = commands.add_parser(
        "targets", help="print the batch records (every attempt) that hold one case and/or agent's samples"
    )
    targets.add_argument("--configfile", default="config/config.yaml")
    targets.add_argument("--case", help="suite/case")
    targets.add_argument("--agent", help="agent name")
    targets.set_defaults(func=_targets)
    groups = {
        "import": commands.add_parser("import", help="write an upstream benchmark's data as a suite of cases"),
        "replay": commands.add_parser("replay", help="write recorded upstream generations as a replay file"),
        "compare": commands.add_parser(
            "compare", help="set runs side by side (compare runs), or a replayed agent's scores beside upstream's"
        ),
    }
    subcommands = {
        name: group.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
        for name, group in groups.items()
    }
    add_commands(commands, subcommands["compare"])
    add_eval_command(commands)
    for plugin in plugins().values():  # each suite adds its importer, replay and compare commands
        plugin.add_commands(subcommands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; bad input is reported in one line and exit status 2."""
    args = build_parser().parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv  # the command line, as `eval` records it
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
