"""``simcodebench generate SUITE --count N --seed S``: a suite of fresh, never-published cases with verified
references (docs/fresh-variants.md).

The driver asks the suite's plugin for draws (:meth:`~simcodebench.core.plugin.SuitePlugin.fresh_case`), one
family after the other in the order of the published cases (round robin; ``families`` narrows them), each draw
with its own random stream (:func:`~simcodebench.core.fresh.draw_rng` of the seed and the draw's number). A draw
is written as a case folder and loaded like any case (schema, files); its parameters must lie in its stated
ranges; its prompt must differ from the published case's; the plugin then verifies its reference
(:meth:`~simcodebench.core.plugin.SuitePlugin.verify_fresh_case`). A draw that fails the check is dropped and the
next draw takes its place (at most ``max_draws`` per case). A parameter out of its range or a case file that does
not load is a generator bug and stops the generation.

The suite ``<out>/<suite>-fresh-s<seed>/`` holds the parent's ``suite.yaml`` (renamed, with ``fresh: {of, seed,
variant}``), the parent folder's shared files (templates, guides, shared oracles), one folder per kept case, and
``generate_report.json``. It is built in a hidden folder beside it and renamed into place when complete, so a
crash leaves no half suite that looks finished. Nothing in it depends on the clock or the checkout's location:
the same seed writes the same bytes. Times are returned (:class:`Generated`), never written into the suite.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import simcodebench
from simcodebench.agents.prompts import render_messages
from simcodebench.core.cases import Case, load_case, load_suite, load_suite_cases, split_suite_name
from simcodebench.core.errors import InputError
from simcodebench.core.fresh import (
    FreshCheck,
    FreshDraw,
    draw_rng,
    fresh_case_id,
    fresh_suite_name,
    out_of_range,
    parent_of,
    rounded,
)
from simcodebench.core.io import read_yaml
from simcodebench.core.plugin import SuitePlugin
from simcodebench.core.project import cases_root
from simcodebench.core.registry import plugin

REPORT = "generate_report.json"
"""The generation's record, in the fresh suite's folder."""
SKIPPED = frozenset({"suite.yaml", "README.md", REPORT, "__pycache__"})
"""Entries of the parent suite folder that are not copied."""


class GenerationFailed(RuntimeError):
    """A case's draws kept failing verification (``max_draws`` in a row): the generator needs fixing."""


@dataclass
class Generated:
    """What one generation did: the suite folder, its report, and the seconds spent drawing (the plugin's
    ``fresh_case`` and writing the case) and verifying."""

    folder: Path
    report: dict[str, Any]
    draw_seconds: float = 0.0
    verify_seconds: float = 0.0


class _Dumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so a fresh case reads like a published one."""


def _literal(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style = "|" if "\n" in text and not any(line != line.rstrip() for line in text.splitlines()) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _literal)


def _dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)


def _parent(suite: str, root: Path) -> tuple[Path, str | None]:
    folder_name, variant = split_suite_name(suite)
    folder = root / folder_name
    if not (folder / "suite.yaml").is_file():
        known = sorted(p.parent.name for p in root.glob("*/suite.yaml") if parent_of(p.parent.name) is None)
        raise InputError(root, "SUITE", f"'{suite}' is not a suite folder of {root}", f"use one of {known}")
    if parent_of(folder_name) is not None:
        raise InputError(
            folder / "suite.yaml", "fresh", f"'{folder_name}' is itself a fresh suite", "generate from its parent"
        )
    return folder, variant


def _families(published: tuple[Case, ...], wanted: list[str] | None, folder: Path) -> list[Case]:
    if not wanted:
        return list(published)
    by_id = {case.id: case for case in published}
    unknown = [name for name in wanted if name not in by_id]
    if unknown:
        raise InputError(folder, "--cases", f"names {unknown}, not cases of the suite", f"use ids of {sorted(by_id)}")
    return [by_id[name] for name in dict.fromkeys(wanted)]


def _copy_shared(parent: Path, target: Path) -> None:
    """The parent folder's own files and folders that are not cases (templates, guides, shared oracles)."""
    for entry in sorted(parent.iterdir()):
        if entry.name in SKIPPED or entry.name.startswith(".") or (entry / "case.yaml").is_file():
            continue
        if entry.is_dir():
            shutil.copytree(entry, target / entry.name, ignore=shutil.ignore_patterns("__pycache__", ".*"))
        else:
            shutil.copyfile(entry, target / entry.name)


def _suite_yaml(parent: Path, name: str, seed: int, variant: str | None) -> str:
    data = read_yaml(parent / "suite.yaml")
    data["name"] = name
    data["description"] = f"Fresh instances of {parent.name}'s cases drawn with seed {seed}. " + str(
        data.get("description", "")
    )
    data["fresh"] = {"of": parent.name, "seed": seed, "variant": variant}
    return _dump_yaml(data)


def _write_case(family: Case, draw: FreshDraw, folder: Path) -> None:
    """The family's own files (an oracle in its folder, inputs), then the draw's files and ``case.yaml``.

    The family's second solution (``hidden.alternative``) is copied only when the draw's case still names it:
    each plugin decides (one in the case folder solves the published numbers; fem's shared one reads the spec)."""
    folder.mkdir()
    dropped = family.hidden.alternative if "alternative" not in draw.case["hidden"] else None
    for entry in sorted(family.folder.iterdir()):
        if (
            entry.name != dropped
            and entry.name not in ("case.yaml", "README.md", "__pycache__")
            and not entry.name.startswith(".")
        ):
            (shutil.copytree if entry.is_dir() else shutil.copyfile)(entry, folder / entry.name)
    for name, content in sorted(draw.files.items()):
        path = (folder / name).resolve()
        if Path(name).is_absolute() or folder.resolve() not in path.parents:
            raise ValueError(f"fresh case {folder.name}: file '{name}' lies outside the case folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    data = {**draw.case, "id": folder.name}
    data["tags"] = [*[t for t in draw.case.get("tags", []) if t != "fresh"], "fresh"]
    (folder / "case.yaml").write_text(_dump_yaml(data), encoding="utf-8")


def _versions(suite_plugin: SuitePlugin) -> dict[str, Any]:
    return {
        "simcodebench": simcodebench.__version__,
        "python": platform.python_version(),
        "environments": {spec.name: list(spec.packages) for spec in suite_plugin.environments()},
    }


def _no_generator(suite_plugin: SuitePlugin, folder: Path, families: list[Case]) -> InputError:
    return InputError(
        folder / "suite.yaml",
        "plugin",
        f"suite {folder.name} (plugin {suite_plugin.name}) has no generator for "
        f"{'any of its cases' if len(families) != 1 else families[0].id}: {suite_plugin.fresh_note}",
        "generate a suite whose plugin implements fresh_case (fem, fem-dealii, fea, cfd-code, re4, physics, foam), "
        "or other --cases",
    )


class _Drawer:
    """The round robin over the families: draws, checks and verifies until ``count`` cases are kept."""

    def __init__(self, suite_plugin: SuitePlugin, seed: int, max_draws: int, target: Path, scratch: Path) -> None:
        self.plugin, self.seed, self.max_draws = suite_plugin, seed, max_draws
        self.target, self.scratch = target, scratch
        self.draws = 0
        self.kept: list[dict[str, Any]] = []
        self.dropped: list[dict[str, Any]] = []
        self.result = Generated(folder=target, report={})

    def one(self, family: Case, index: int, variant: str | None) -> bool | None:
        """Draw instances of ``family`` until one is kept as case ``index``: True; None when the family has no
        generator. Raises when ``max_draws`` draws in a row were dropped."""
        for _ in range(self.max_draws):
            number = self.draws
            started = time.perf_counter()
            draw = self.plugin.fresh_case(family, draw_rng(self.seed, number))
            if draw is None:
                return None
            self.draws += 1
            bad = out_of_range(draw.params, draw.ranges)
            if bad:
                raise ValueError(f"generator of {family.key}: drawn parameters outside their ranges: {bad}")
            case_id = fresh_case_id(family.id, index)
            folder = self.target / case_id
            if folder.exists():
                shutil.rmtree(folder)
            _write_case(family, draw, folder)
            case = load_case(load_suite(self.target, variant), folder)
            drawn = time.perf_counter()
            check = self._check(family, case, number)
            verified = time.perf_counter()
            self.result.draw_seconds += drawn - started
            self.result.verify_seconds += verified - drawn
            entry = {"family": family.id, "draw": number, "params": draw.params}
            if check.ok:
                ranges = {k: list(v) for k, v in sorted(draw.ranges.items())}
                self.kept.append({"id": case_id, **entry, "ranges": ranges, "verification": check.detail})
                return True
            shutil.rmtree(folder)
            self.dropped.append({**entry, "verification": check.detail})
        raise GenerationFailed(
            f"generator of {self.plugin.name}: {self.max_draws} draws of {family.key} in a row failed verification "
            f"(last: {json.dumps(rounded(self.dropped[-1]['verification']))}); raise --max-draws or fix the generator"
        )

    def _check(self, family: Case, case: Case, number: int) -> FreshCheck:
        if render_messages(case) == render_messages(family):
            return FreshCheck(ok=False, detail={"reason": "the prompt is the published case's"})
        workdir = self.scratch / f"draw{number}"
        workdir.mkdir()
        try:
            return self.plugin.verify_fresh_case(case, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)


def generate(
    suite: str,
    count: int,
    seed: int,
    families: list[str] | None = None,
    root: Path | None = None,
    out: Path | None = None,
    max_draws: int = 5,
) -> Generated:
    """Write ``<out>/<suite>-fresh-s<seed>/`` with ``count`` fresh cases of ``suite`` (``<suite>@<variant>``:
    drawn from the variant's view of the cases) from ``root`` (default ``cases/``; ``out`` defaults to
    ``root``), replacing an earlier one; see the module's docstring."""
    root = root or cases_root()
    out = out or root
    if count < 1:
        raise InputError("--count", "count", f"is {count}", "give at least 1 case to generate")
    if seed < 0:
        raise InputError("--seed", "seed", f"is {seed}", "give a seed >= 0")
    if max_draws < 1:
        raise InputError("--max-draws", "max_draws", f"is {max_draws}", "give at least 1")
    folder, variant = _parent(suite, root)
    published = load_suite_cases(folder, variant)
    pool = _families(published, families, folder)
    suite_plugin = plugin(load_suite(folder, variant).data["plugin"])
    name = fresh_suite_name(folder.name, seed)
    out.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{name}.partial-", dir=out))
    try:
        target = building / name
        target.mkdir()
        _copy_shared(folder, target)
        (target / "suite.yaml").write_text(_suite_yaml(folder, name, seed, variant), encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="simcodebench-verify-") as scratch:
            drawer = _Drawer(suite_plugin, seed, max_draws, target, Path(scratch))
            without: list[str] = []
            index = 0
            while index < count:
                if not pool:
                    raise _no_generator(suite_plugin, folder, _families(published, families, folder))
                family = pool[index % len(pool)]
                if drawer.one(family, index, variant) is None:
                    without.append(family.id)
                    pool.remove(family)
                    continue
                index += 1
        report = {
            "suite": name,
            "fresh_of": folder.name,
            "variant": variant,
            "seed": seed,
            "count": count,
            "generator": {
                "plugin": suite_plugin.name,
                "class": type(suite_plugin).__module__ + "." + type(suite_plugin).__qualname__,
            },
            "versions": _versions(suite_plugin),
            "draws": {"made": drawer.draws, "kept": len(drawer.kept), "dropped": len(drawer.dropped)},
            "families_without_generator": sorted(without),
            "cases": rounded(drawer.kept),
            "dropped": rounded(drawer.dropped),
        }
        (target / REPORT).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        final = out / name
        _replace(target, final)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    result = drawer.result
    result.folder, result.report = final, report
    return result


def _replace(built: Path, final: Path) -> None:
    """Move the finished suite into place; an earlier suite of the same name is renamed aside first, then
    removed."""
    old = None
    if final.exists():
        old = final.parent / f".{final.name}.old-{os.getpid()}"
        final.rename(old)
    built.rename(final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
