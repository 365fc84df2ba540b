"""``simcodebench eval``: resolve the config, check the endpoint (and say what it serves at once and its context
window), write the config beside the results, run the workflow (Ctrl-C stops asking and still writes the summary)
and exit with its status."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from simcodebench.core.errors import InfrastructureError, InputError
from simcodebench.core.layout import Layout
from simcodebench.core.project import project_root
from simcodebench.execution.environments import get_environment
from simcodebench.execution.images import image_present
from simcodebench.execution.runtime.apptainer import apptainer_available
from simcodebench.execution.sandbox import NO_ENVIRONMENT
from simcodebench.pipeline.plan import Plan
from simcodebench.run.endpoint_report import describe_endpoint
from simcodebench.run.eval_config import COMMAND_LINE, config_text, default_config, resolve_config, write_config
from simcodebench.run.preflight import preflight
from simcodebench.run.reply_limits import reply_limit_lines
from simcodebench.run.stopping import run_stoppable

DEFAULT_ENDPOINT = "llm_openai"
"""The Snakemake resource that caps an ``openai`` agent's requests in flight (its ``endpoint`` default)."""


def _at_least(minimum: float, option: str, value: float | None) -> None:
    """One line naming ``option`` when ``value`` is below ``minimum``."""
    if value is not None and value < minimum:
        raise InputError(COMMAND_LINE, option, f"is {value}", f"give a value of at least {minimum:g}")


def _check_numbers(args: argparse.Namespace) -> None:
    """Each numeric option within its range (one line naming the first that is not)."""
    for option, minimum in (
        ("limit", 1),
        ("samples", 1),
        ("max_tokens", 1),
        ("cores", 1),
        ("max_connections", 1),
        ("context_tokens", 1),
        ("timeout_s", 1),
        ("max_minutes", 0),
        ("temperature", 0),
        ("max_cost_usd", 0),
    ):
        _at_least(minimum, "--" + option.replace("_", "-"), getattr(args, option))
    for price in args.price or ():
        _at_least(0, "--price", price)


def check_environments(plan: Plan) -> None:
    """Every solver environment the selected suites run in is provisioned here (or has an Apptainer image)."""
    for (suite, _), case in sorted(plan.cases.items()):
        environment = case.suite.environment
        image = plan.images.get(environment)
        if environment == NO_ENVIRONMENT or (image and image_present(image) and apptainer_available()):
            continue
        try:
            get_environment(environment)
        except InfrastructureError:
            raise InputError(
                COMMAND_LINE,
                "--suites",
                f"suite '{suite}' runs in the solver environment '{environment}', which is not provisioned here",
                f"run: simcodebench env setup {environment} (or make envs), or leave the suite out",
            ) from None


def profile_folder(profile: str) -> Path:
    """A profile by name (a folder of the repository's ``profiles/``) or by path."""
    named = project_root() / "profiles" / profile
    folder = named if named.is_dir() else Path(profile)
    if not (folder / "config.yaml").is_file():
        choices = sorted(p.name for p in (project_root() / "profiles").iterdir() if p.is_dir())
        raise InputError(COMMAND_LINE, "--profile", f"'{profile}' is not a profile", f"use one of {choices}")
    return folder.resolve()


def snakemake_command(
    args: argparse.Namespace, config_file: Path, run_dir: Path, in_flight: int | None = None
) -> list[str]:
    """The Snakemake command line that runs the workflow on ``config_file`` in ``run_dir``, with at most
    ``in_flight`` requests at once to the endpoint when given (else ``--max-connections``, else the profile's)."""
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(project_root() / "Snakefile"),
        "--directory",
        str(run_dir),
        "--profile",
        str(profile_folder(args.profile)),
        "--configfile",
        str(config_file),
        "--replace-workflow-config",
    ]
    if args.cores:
        command += ["--cores", str(args.cores)]
    if in_flight or args.max_connections:
        command += ["--resources", f"{DEFAULT_ENDPOINT}={in_flight or args.max_connections}"]
    if args.dry_run:
        command.append("--dry-run")
    return command


def run_eval(args: argparse.Namespace) -> int:
    """Resolve and check everything, then run the workflow; its exit status is returned. Bad options, a missing
    key or an endpoint that cannot answer raise :class:`InputError` before anything is written or asked."""
    argv = list(args.argv)
    _check_numbers(args)
    config = resolve_config(args, default_config())
    run_dir = Path(args.run_dir).resolve()
    config_file = Path(Layout.of(run_dir).eval_config)
    plan = Plan.from_config(config, str(config_file))
    check_environments(plan)
    profile_folder(args.profile)
    (agent,) = config["agents"].values()
    served = preflight(agent)
    listed = f"{len(served)} model(s) listed"
    print(f"preflight: {agent['base_url']} ({listed}) answered a 1-token chat request of '{agent['model']}'")
    endpoint = describe_endpoint(agent, args.max_connections)
    for line in endpoint.lines:
        print(line)
    notes = [*endpoint.lines, *reply_limit_lines(plan)]
    command = snakemake_command(args, config_file, run_dir, endpoint.in_flight)
    if args.dry_run:
        with tempfile.TemporaryDirectory(prefix="simcodebench-eval-") as scratch:
            scratch_file = Path(scratch) / "eval_config.yaml"
            planned = snakemake_command(args, scratch_file, run_dir, endpoint.in_flight)
            scratch_file.write_text(config_text(config, argv, planned, notes))
            print(scratch_file.read_text(), end="", flush=True)
            return subprocess.run(planned).returncode
    write_config(config_file, config, argv, command, notes)
    print(f"config: {config_file}", flush=True)
    status = run_stoppable(command, Layout.of(run_dir))
    summary = Layout.of(run_dir).summary
    if status == 0:
        print(f"scores: {summary}/scores.csv  tables: {summary}/summary.md  config: {config_file}")
    else:
        print(f"the workflow exited with status {status} (its log is above); config: {config_file}", file=sys.stderr)
    return status


def add_eval_command(commands: argparse._SubParsersAction) -> None:
    """Add ``eval`` to the subcommands."""
    parser = commands.add_parser(
        "eval",
        help="evaluate one model on an OpenAI-compatible endpoint: preflight, resolved config, the workflow",
        description=(
            "Evaluate one model: check the endpoint (one model listing, one 1-token chat request), write the "
            "resolved config to RUN_DIR/results/eval_config.yaml, run the workflow and exit with its status."
        ),
    )
    model = parser.add_argument_group("model")
    model.add_argument("--model", required=True, help="the model's name as the server serves it")
    model.add_argument(
        "--base-url", required=True, help="the OpenAI-compatible endpoint, e.g. http://localhost:8000/v1"
    )
    model.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="the environment variable holding the API key (default: OPENAI_API_KEY where it is set, else no key)",
    )
    model.add_argument("--agent", help="the agent's name in the results (default: the model's, sanitised)")
    model.add_argument("--temperature", type=float, help="sampling temperature (default: the server's)")
    model.add_argument(
        "--max-tokens",
        type=int,
        help="the reply's token limit (default: the paper's where --protocol paper sets one, else the suite's "
        "default; lowered to what the context window leaves after the prompt)",
    )
    model.add_argument(
        "--context-tokens",
        type=int,
        metavar="N",
        help="the model's context window (default: what the server says, else what its first refusal states)",
    )
    model.add_argument("--seed", type=int, help="the request's seed (default: none)")
    model.add_argument(
        "--timeout-s",
        type=float,
        help="seconds the server may stay silent before a request fails (default 600); a streamed reply may run "
        "as long as its tokens keep coming",
    )
    model.add_argument(
        "--price",
        type=float,
        nargs=2,
        metavar=("PROMPT", "COMPLETION"),
        help="USD per million prompt and completion tokens (key price; needed by --max-cost-usd)",
    )
    model.add_argument("--max-cost-usd", type=float, help="the agent's spending cap in USD (key max_cost_usd)")
    model.add_argument(
        "--protocol",
        choices=["default", "paper"],
        help="paper: each suite's published settings (default: the harness's own)",
    )
    run = parser.add_argument_group("run")
    run.add_argument("--suites", nargs="+", metavar="S", help="suites to run (default: the default config's, re4)")
    run.add_argument("--limit", type=int, metavar="N", help="only the first N cases of each suite, by sorted id")
    run.add_argument("--samples", type=int, default=1, metavar="K", help="samples per case (default 1)")
    run.add_argument("--run-dir", default=".", help="the run's working directory; results go to RUN_DIR/results")
    run.add_argument("--profile", default="local", help="Snakemake profile: local, slurm or a folder (default local)")
    run.add_argument("--cores", type=int, help="cores of the local run (default: the profile's)")
    run.add_argument(
        "--max-connections",
        type=int,
        help="requests in flight to the endpoint (default: the server's capacity where it says it, else the "
        "profile's, 8)",
    )
    run.add_argument(
        "--max-minutes",
        type=float,
        metavar="M",
        help="ask nothing new after M minutes (key max_minutes): the samples left are counted apart, the summary "
        "is written, and the next run asks them",
    )
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="check the endpoint, print the resolved config and the jobs; write nothing under results",
    )
    parser.set_defaults(func=run_eval)
