"""The run config that ``simcodebench eval`` resolves from its options, and the file that records it."""

from __future__ import annotations

import argparse
import os
import re
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from simcodebench import __version__
from simcodebench.core.cases import load_suite_cases, split_suite_name, suite_folders
from simcodebench.core.errors import InputError
from simcodebench.core.io import atomic_write_text, read_yaml
from simcodebench.core.project import cases_root, project_root

COMMAND_LINE = "command line"
"""Where an option's error is said to be (the file of :class:`InputError`)."""
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
"""The key's variable when ``--api-key-env`` is not given and this one is set (else the server needs no key)."""
UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
PASSED_THROUGH = {
    "temperature": "temperature",
    "max_tokens": "max_tokens",
    "max_cost_usd": "max_cost_usd",
    "protocol": "protocol",
    "seed": "seed",
    "timeout_s": "timeout_s",
    "context_tokens": "context_tokens",
    "max_minutes": "max_minutes",
}
"""Agent keys taken from the options of the same name when they are given (else the backend's default)."""


def default_config() -> dict[str, Any]:
    """The repository's ``config/config.yaml``, which the resolved config starts from."""
    return read_yaml(project_root() / "config" / "config.yaml")


def agent_name(model: str) -> str:
    """The agent's name from the model's last ``/``-separated part (``Qwen/Qwen2.5-Coder-7B`` -> ``Qwen2.5-Coder-7B``;
    a llama.cpp server's model file path -> the file's name): each run of characters outside ``[A-Za-z0-9_.-]``
    becomes ``-``."""
    name = UNSAFE.sub("-", model.rstrip("/").rsplit("/", 1)[-1]).strip("-")
    if not name:
        raise InputError(COMMAND_LINE, "--model", f"'{model}' leaves no agent name", "name the agent with --agent")
    return name


def limited_cases(suites: list[str], limit: int | None, chosen: dict[str, list[str]]) -> dict[str, list[str]]:
    """The cases of each suite: ``chosen``'s subset where the base config has one, else every case, sorted by id,
    then the first ``limit`` of them (all when ``limit`` is None); the same cases in the same order every time."""
    known = {folder.name for folder in suite_folders(cases_root())}
    picked = {}
    for suite in suites:
        folder, variant = split_suite_name(suite)
        if folder not in known:
            raise InputError(COMMAND_LINE, "--suites", f"'{suite}' is not a suite", f"use some of {sorted(known)}")
        ids = sorted(chosen.get(suite) or [case.id for case in load_suite_cases(cases_root() / folder, variant)])
        picked[suite] = ids[:limit] if limit is not None else ids
    return picked


def resolve_config(args: argparse.Namespace, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` with its agents replaced by one ``backend: openai`` agent built from the options, its suites by
    ``--suites`` (default: the base's) and its cases by each suite's cases up to ``--limit``."""
    suites = list(args.suites or base["suites"])
    agent: dict[str, Any] = {
        "backend": "openai",
        "model": args.model,
        "base_url": args.base_url,
        "api_key_env": args.api_key_env or (DEFAULT_KEY_ENV if os.environ.get(DEFAULT_KEY_ENV) else None),
        "samples": args.samples,
    }
    options = vars(args)
    agent |= {key: options[option] for option, key in PASSED_THROUGH.items() if options.get(option) is not None}
    if options.get("price") is not None:
        agent["price"] = dict(zip(("prompt_per_1m", "completion_per_1m"), options["price"], strict=True))
    config = {key: value for key, value in base.items() if key not in ("agents", "suites", "cases")}
    config["suites"] = suites
    config["cases"] = limited_cases(suites, args.limit, base.get("cases") or {})
    config["agents"] = {args.agent or agent_name(args.model): agent}
    return config


def config_text(config: dict[str, Any], argv: list[str], workflow: list[str], notes: list[str] = ()) -> str:
    """The resolved config as YAML, headed by its provenance: the command line, the date, the package's version,
    the ``workflow`` command that runs it and ``notes`` (what the endpoint said, the ``max_tokens`` each role is
    sent and why), all comments, so that the file stays a valid ``--configfile``."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    header = (
        f"# Resolved by simcodebench {__version__} on {stamp} from:\n"
        f"#   {shlex.join(['simcodebench', *argv])}\n"
        f"# which ran the workflow as:\n#   {shlex.join(workflow)}\n"
    )
    if notes:
        header += "# The endpoint, and the max_tokens every role is sent (lowered at send time to what the context\n"
        header += "# window leaves after the prompt):\n" + "".join(f"#   {line}\n" for line in notes)
    return header + yaml.safe_dump(config, sort_keys=False)


def write_config(
    path: Path, config: dict[str, Any], argv: list[str], workflow: list[str], notes: list[str] = ()
) -> None:
    """Write the resolved config with its provenance to ``path`` at once (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, config_text(config, argv, workflow, notes), mode=0o644)
