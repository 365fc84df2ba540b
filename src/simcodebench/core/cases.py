"""Suites and cases: loading, validation, and the split between what an agent sees and what it never sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from simcodebench.core.errors import InputError
from simcodebench.core.io import read_yaml
from simcodebench.core.project import cases_root, schema_path

DEFAULT_RESOURCES: dict[str, Any] = {"cpus": 1, "tasks": 1, "mem_mb": 2048, "wall_s": 600, "gpu": 0}


@dataclass(frozen=True)
class VisibleSpec:
    """Everything an agent may see: rendered into prompts and copied into the sandbox."""

    problem: str
    contract: dict[str, Any]
    inputs: tuple[str, ...] = ()
    spec: dict[str, Any] = field(default_factory=dict)
    released_problem: str | None = None


@dataclass(frozen=True)
class HiddenSpec:
    """Everything an agent must never see: reference, oracle, scoring rules, thresholds, mutants."""

    reference: dict[str, Any]
    oracle: str
    scoring: dict[str, Any]
    thresholds: dict[str, Any] = field(default_factory=dict)
    mutants: dict[str, Any] = field(default_factory=dict)
    alternative: str | None = None


VARIANT_SEPARATOR = "@"
"""``<suite>@<variant>`` names a suite run under one of its ``variants`` (e.g. ``cfd-code@legacy``)."""


@dataclass(frozen=True)
class Suite:
    """A suite's protocol (``suite.yaml``), with a variant's keys merged in when it names one."""

    name: str
    folder: Path
    data: dict[str, Any]

    @property
    def base(self) -> str:
        """The suite folder's name, without the variant."""
        return split_suite_name(self.name)[0]

    @property
    def environment(self) -> str:
        """Solver environment every case of the suite runs in."""
        return self.data["environment"]

    @property
    def entrypoint(self) -> str:
        """File the runtime executes."""
        return self.data["entrypoint"]

    @property
    def mutants(self) -> list[dict[str, Any]]:
        """Mutant declarations (name, expected failure class, operation)."""
        return list(self.data.get("mutants", []))


def declared_mutant_names(suite: Suite) -> set[str]:
    """Every mutant name the suite folder declares, its own and its variants': a case may adjust any of them
    (``hidden.mutants``), also when it runs under a variant that leaves the mutant out."""
    raw = read_yaml(suite.folder / "suite.yaml")
    declarations = list(raw.get("mutants", []))
    for variant in (raw.get("variants") or {}).values():
        declarations += variant.get("mutants", [])
    return {m["name"] for m in declarations}


@dataclass(frozen=True)
class Case:
    """One case: its suite, its folder, and its visible and hidden parts kept apart."""

    suite: Suite
    id: str
    folder: Path
    title: str
    visible: VisibleSpec
    hidden: HiddenSpec
    resources: dict[str, Any]

    @property
    def key(self) -> str:
        """``suite/case``, as used on the command line."""
        return f"{self.suite.name}/{self.id}"

    def threshold_policy(self) -> dict[str, Any]:
        """The suite's threshold policy with this case's overrides applied; a suite (variant) whose gate has
        policy ``none`` keeps it whatever the case says (``re4@paper`` has no accuracy gate)."""
        policy = {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.suite.data["thresholds"].items()}
        for gate, override in self.hidden.thresholds.items():
            if (policy.get(gate) or {}).get("policy") == "none":
                continue
            if override is None:
                policy[gate] = None
            else:
                policy[gate] = {**(policy.get(gate) or {}), **override}
        return policy


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    case_schema = read_yaml(schema_path("case"))
    registry = Registry().with_resource("case.schema.yaml", Resource.from_contents(case_schema))
    schema = case_schema if name == "case" else read_yaml(schema_path(name))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def validate_document(data: Any, schema: str, path: Path) -> None:
    """Validate ``data`` against a schema; raise one :class:`InputError` for the first problem found."""
    errors = sorted(_validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    error = errors[0]
    where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        where = f"{where}.{missing}" if where != "(top level)" else missing
        raise InputError(path, where, "is missing", f"add '{missing}' (see workflow/schemas/{schema}.schema.yaml)")
    if error.validator == "additionalProperties":
        raise InputError(path, where, error.message, f"remove or rename it (see workflow/schemas/{schema}.schema.yaml)")
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    fix = f"expected {described}" if described else f"see workflow/schemas/{schema}.schema.yaml"
    raise InputError(path, where, error.message, fix)


def _load_yaml_document(path: Path) -> Any:
    try:
        return read_yaml(path)
    except Exception as exc:  # yaml.YAMLError and OSError both deserve one line
        raise InputError(
            path, "(file)", f"cannot be read as YAML ({str(exc).splitlines()[0]})", "fix the YAML syntax"
        ) from exc


def merge_variant(data: dict[str, Any], variant: str, path: Path) -> dict[str, Any]:
    """``data`` with the top-level keys of ``variants.<variant>`` merged over it (one level deep for mappings)."""
    variants = data.get("variants") or {}
    if variant not in variants:
        raise InputError(
            path, "variants", f"has no variant '{variant}'", f"use one of {sorted(variants)} or drop '@{variant}'"
        )
    merged = {key: value for key, value in data.items() if key != "variants"}
    for key, value in variants[variant].items():
        base = merged.get(key)
        merged[key] = {**base, **value} if isinstance(base, dict) and isinstance(value, dict) else value
    return merged


@cache
def load_suite(folder: Path, variant: str | None = None) -> Suite:
    """Load and validate ``<folder>/suite.yaml``; with ``variant``, that variant's keys merged in (the suite is
    then named ``<folder>@<variant>``, so its results stay apart from the plain suite's)."""
    path = folder / "suite.yaml"
    if not path.is_file():
        raise InputError(path, "(file)", "does not exist", "add a suite.yaml to the suite folder")
    data = _load_yaml_document(path)
    validate_document(data, "suite", path)
    if data["name"] != folder.name:
        raise InputError(
            path, "name", f"is '{data['name']}' but the folder is '{folder.name}'", f"set name: {folder.name}"
        )
    if variant is not None:
        data = merge_variant(data, variant, path)
        validate_document(data, "suite", path)
        data["name"] = f"{folder.name}{VARIANT_SEPARATOR}{variant}"
    for key in ("system", "user", "guide"):
        template = data["prompt"].get(key)
        if template and not (folder / template).is_file():
            raise InputError(
                path,
                f"prompt.{key}",
                f"names '{template}', which does not exist",
                "point it at a template file in the suite folder",
            )
    return Suite(name=data["name"], folder=folder, data=data)


def case_file(folder: Path) -> Path:
    """The YAML file that defines the case in ``folder``."""
    return folder / "case.yaml"


def load_case(suite: Suite, folder: Path) -> Case:
    """Load and validate one case folder of ``suite``."""
    path = case_file(folder)
    data = _load_yaml_document(path)
    validate_document(data, "case", path)
    if data["id"] != folder.name:
        raise InputError(path, "id", f"is '{data['id']}' but the folder is '{folder.name}'", f"set id: {folder.name}")
    visible, hidden = data["visible"], data["hidden"]
    for i, name in enumerate(visible.get("inputs", [])):
        if not (folder / name).is_file():
            raise InputError(
                path,
                f"visible.inputs.{i}",
                f"names '{name}', which does not exist",
                "add the file to the case folder or remove the entry",
            )
    if not (folder / hidden["oracle"]).exists():
        raise InputError(
            path,
            "hidden.oracle",
            f"names '{hidden['oracle']}', which does not exist",
            "add the reference solution file (a folder for a whole-case suite) to the case folder",
        )
    if hidden.get("alternative") and not (folder / hidden["alternative"]).exists():
        raise InputError(
            path,
            "hidden.alternative",
            f"names '{hidden['alternative']}', which does not exist",
            "add the second solution file (a folder for a whole-case suite) to the case folder, or drop the key",
        )
    known = declared_mutant_names(suite)
    for name in hidden.get("mutants", {}):
        if name not in known:
            raise InputError(
                path, f"hidden.mutants.{name}", "is not a mutant of the suite", f"use one of {sorted(known)}"
            )
    resources = {
        **DEFAULT_RESOURCES,
        **suite.data.get("defaults", {}).get("resources", {}),
        **visible.get("resources", {}),
    }
    return Case(
        suite=suite,
        id=data["id"],
        folder=folder,
        title=data.get("title", data["id"]),
        visible=VisibleSpec(
            problem=visible["problem"],
            contract=visible.get("contract", {"files": []}),
            inputs=tuple(visible.get("inputs", [])),
            spec=dict(visible.get("spec", {})),
            released_problem=visible.get("released_problem"),
        ),
        hidden=HiddenSpec(
            reference=hidden["reference"],
            oracle=hidden["oracle"],
            scoring=hidden["scoring"],
            thresholds=hidden.get("thresholds", {}),
            mutants=hidden.get("mutants", {}),
            alternative=hidden.get("alternative"),
        ),
        resources=resources,
    )


def suite_folders(root: Path | None = None) -> list[Path]:
    """Every suite folder (one holding ``suite.yaml``) under ``root``."""
    root = root or cases_root()
    return sorted(p.parent for p in root.glob("*/suite.yaml"))


@cache
def load_suite_cases(folder: Path, variant: str | None = None) -> tuple[Case, ...]:
    """Every case of the suite in ``folder`` (under ``variant``, if given), sorted by id."""
    suite = load_suite(folder, variant)
    return tuple(load_case(suite, p.parent) for p in sorted(folder.glob("*/case.yaml")))


def split_suite_name(name: str) -> tuple[str, str | None]:
    """``cfd-code@legacy`` -> (``cfd-code``, ``legacy``); a plain name has no variant."""
    folder, _, variant = name.partition(VARIANT_SEPARATOR)
    return folder, variant or None


def get_case(suite_name: str, case_id: str, root: Path | None = None) -> Case:
    """Look a case up by suite name (``<suite>`` or ``<suite>@<variant>``) and id."""
    folder_name, variant = split_suite_name(suite_name)
    folder = (root or cases_root()) / folder_name
    for case in load_suite_cases(folder, variant):
        if case.id == case_id:
            return case
    raise InputError(
        folder,
        "case",
        f"'{case_id}' is not a case of suite '{suite_name}'",
        "run 'simcodebench cases list' to see the case ids",
    )


def validate_path(path: Path) -> list[Case]:
    """Validate a case folder, a suite folder, or a whole cases tree; return the cases found."""
    path = path.resolve()
    if (path / "case.yaml").is_file():
        return [load_case(load_suite(path.parent), path)]
    if path.name == "case.yaml":
        return [load_case(load_suite(path.parent.parent), path.parent)]
    if (path / "suite.yaml").is_file():
        return list(load_suite_cases(path))
    folders = suite_folders(path)
    if not folders:
        raise InputError(path, "(path)", "holds no suite.yaml or case.yaml", "point at a case, a suite or cases/")
    return [case for folder in folders for case in load_suite_cases(folder)]
