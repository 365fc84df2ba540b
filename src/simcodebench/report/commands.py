"""The command line of finished runs: ``compare runs``, ``bundle`` and ``export inspect``."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from simcodebench.core.errors import InputError
from simcodebench.core.io import atomic_write_text


def _compare_runs(args: argparse.Namespace) -> int:
    from simcodebench.report.compare import compare_paths, comparison_markdown

    if args.resamples < 1:
        raise InputError("--resamples", "resamples", f"is {args.resamples}", "give at least 1 (default 10000)")
    with tempfile.TemporaryDirectory(prefix="simcodebench-compare-") as scratch:
        cmp = compare_paths(
            [Path(p) for p in args.runs], Path(scratch), args.compare_time_gates, args.seed, args.resamples
        )
        text = comparison_markdown(cmp)
    if args.out:
        atomic_write_text(Path(args.out), text, mode=0o644)
    print(text, end="")
    return 0


def _bundle(args: argparse.Namespace) -> int:
    from simcodebench.report.bundle import write_bundle

    out = write_bundle(Path(args.dir), Path(args.out) if args.out else None, args.configfile)
    print(f"bundle written: {out}")
    return 0


def _export_inspect(args: argparse.Namespace) -> int:
    from simcodebench.report.inspect_export import export_inspect
    from simcodebench.report.run_source import open_run

    with tempfile.TemporaryDirectory(prefix="simcodebench-export-") as scratch:
        logs = export_inspect(open_run(Path(args.dir), Path(scratch)), Path(args.out))
    for log in logs:
        print(log)
    print(f"{len(logs)} Inspect log(s) written; view them with: inspect view --log-dir {args.out}")
    return 0


def add_commands(commands: argparse._SubParsersAction, compare: argparse._SubParsersAction) -> None:
    """Add ``bundle`` and ``export`` to ``commands`` and ``runs`` to the ``compare`` group."""
    runs = compare.add_parser(
        "runs",
        help="set runs made apart side by side: agent x suite pass rates, paired tests of two agents on the same cases",
    )
    runs.add_argument("runs", nargs="+", metavar="RUN", help="a run's working directory (holding results/) or bundle")
    runs.add_argument(
        "--compare-time-gates",
        action="store_true",
        help="compare F-Time verdicts also where the runs' time gates were calibrated differently",
    )
    runs.add_argument("--seed", type=int, default=0, help="seed of the paired bootstrap (default 0)")
    runs.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    runs.add_argument("--out", help="also write the markdown to this file")
    runs.set_defaults(func=_compare_runs)

    bundle = commands.add_parser(
        "bundle", help="write a run (scores, calibrations, provenance, replies) as one .tar.gz file"
    )
    bundle.add_argument("dir", help="the run's working directory (holding results/)")
    bundle.add_argument("--out", help="the bundle file (default: results/bundle.tar.gz of DIR)")
    bundle.add_argument("--configfile", type=Path, help="the run's config (default: DIR/config/config.yaml)")
    bundle.set_defaults(func=_bundle)

    export = commands.add_parser("export", help="write a run in another tool's format")
    formats = export.add_subparsers(dest="format", required=True, metavar="FORMAT")
    inspect = formats.add_parser(
        "inspect", help="Inspect eval logs, one per agent and suite (needs the 'inspect' extra: inspect-ai)"
    )
    inspect.add_argument("dir", help="a run's working directory or a bundle")
    inspect.add_argument("--out", required=True, help="folder for the .eval logs")
    inspect.set_defaults(func=_export_inspect)
