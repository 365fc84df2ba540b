"""What every importer shares: read the upstream JSON, write a suite folder made of ordinary case files.

An imported suite copies the protocol (``suite.yaml`` and its prompt templates) of the suite it derives from,
renamed after its folder, and gets one case folder per upstream item; the result validates like any suite.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from simcodebench.core.cases import validate_path
from simcodebench.core.errors import InputError
from simcodebench.core.io import atomic_write_text, read_yaml
from simcodebench.core.plugin import CommandGroups
from simcodebench.core.project import cases_root


def read_json_input(path: Path) -> Any:
    """The upstream JSON file, or one :class:`InputError` line saying why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise InputError(
            path, "(file)", f"cannot be read ({exc.strerror})", "point at the downloaded JSON file"
        ) from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            path, "(file)", f"is not JSON ({exc.msg}, line {exc.lineno})", "use the upstream file"
        ) from exc


def write_yaml(path: Path, data: Any) -> None:
    """Write ``data`` as block-style YAML."""
    atomic_write_text(path, yaml.safe_dump(data, sort_keys=False, width=120, allow_unicode=True))


def write_suite(template: Path, out: Path, **overrides: Any) -> None:
    """Make ``out`` a suite with the protocol of the suite folder ``template``: its ``suite.yaml`` (named after
    ``out``, with ``overrides`` applied) and every prompt template it names, its variants' included."""
    data = read_yaml(template / "suite.yaml")
    data.update(name=out.name, **overrides)
    out.mkdir(parents=True, exist_ok=True)
    prompts = [data["prompt"], *((v.get("prompt") or {}) for v in (data.get("variants") or {}).values())]
    for name in {p[key] for p in prompts for key in ("system", "user", "guide") if p.get(key)}:
        shutil.copy2(template / name, out / name)
    write_yaml(out / "suite.yaml", data)


def write_case(folder: Path, case: dict[str, Any], files: dict[str, str]) -> None:
    """Write one case folder afresh: ``case.yaml`` and ``files`` (paths relative to the folder)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    write_yaml(folder / "case.yaml", case)
    for name, text in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        if text.startswith("#!"):
            target.chmod(0o755)


def validated(out: Path) -> int:
    """Validate the written suite like any other; return its number of cases."""
    return len(validate_path(out))


Importer = Callable[..., int]
"""``importer(path, out, **options) -> number of cases written``."""


def add_import_command(
    groups: CommandGroups,
    benchmark: str,
    importer: Importer,
    path_help: str,
    options: Callable[[argparse.Namespace], dict[str, Any]] | None = None,
) -> argparse.ArgumentParser:
    """Add ``simcodebench import BENCHMARK PATH [--out FOLDER]``: the upstream data written by ``importer`` as a
    suite of cases (default folder ``cases/<benchmark>``); ``options`` turns the parsed arguments into the
    importer's keyword options. Returns the subcommand's parser, for options of its own."""
    parser = groups["import"].add_parser(benchmark, help=f"write {benchmark}'s upstream data as a suite of cases")
    parser.add_argument("path", help=path_help)
    parser.add_argument("--out", help=f"suite folder to write (default: cases/{benchmark})")

    def run(args: argparse.Namespace) -> int:
        out = Path(args.out) if args.out else cases_root() / benchmark
        count = importer(Path(args.path), out, **(options(args) if options else {}))
        print(f"ok: {count} case(s) written to {out}")
        return 0

    parser.set_defaults(func=run)
    return parser
