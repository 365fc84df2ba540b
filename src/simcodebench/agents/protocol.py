"""An agent's effective settings for one suite: its own, the suite's paper protocol, its per-suite overrides.

The order (later wins): the agent's settings; with ``protocol: paper`` (or a per-suite ``setting``), the keys
the suite's paper setting gives (``protocol.settings.<name>`` in ``suite.yaml``: strategy, attempts,
temperature, max_tokens, samples), so that ``protocol: paper`` reproduces the paper even where the agent sets
its own temperature or strategy for other suites; then ``suites.<suite>`` of the agent. A key the paper leaves
out (e.g. PDEAgent-Bench's max tokens) keeps the agent's value, and so does a replay agent's ``samples:
recorded``; an ``openai`` agent left without ``max_tokens`` gets the suite's default (:mod:`.reply_limit`).
When the strategy changes, the agent's roles and strategy options that the new strategy does not have are left
out (they belong to the agent's own strategy).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.agents.reply_limit import with_default
from simcodebench.agents.strategies import DEFAULT, STRATEGIES, Strategy
from simcodebench.core.cases import Suite
from simcodebench.core.errors import InputError

PAPER, OWN = "paper", "default"
PROTOCOLS = (OWN, PAPER)
"""Values of an agent's ``protocol`` key (default ``default``: the agent's own settings for every suite)."""

RECORDED = "recorded"
"""``samples: recorded``: a replay agent runs as many samples of a case as its file holds (a paper's samples never
replace it: the file decides)."""

PAPER_KEYS = ("strategy", "attempts", "temperature", "max_tokens", "samples")
"""The keys a paper setting gives."""

SUITE_KEYS = frozenset(
    {"setting", *PAPER_KEYS, "seed", "roles", *frozenset().union(*(s.options for s in STRATEGIES.values()))}
)
"""The keys an agent may set under ``suites.<suite>`` (``setting`` picks one of the paper's named settings)."""

AGENT_ONLY = ("protocol", "suites")
"""Keys that choose the effective settings and are not part of them (so they never reach the reply cache)."""


def paper_setting(suite: Suite, name: str | None = None) -> dict[str, Any]:
    """The suite's paper setting ``name`` (default: the protocol's ``default``), without its ``section``."""
    path = suite.folder / "suite.yaml"
    protocol = suite.data.get("protocol")
    if protocol is None:
        raise InputError(
            path, "protocol", "is missing", "declare the paper's settings (docs/evaluating.md, 'Paper protocols')"
        )
    settings = protocol["settings"]
    chosen = name or protocol["default"]
    if chosen not in settings:
        field = "protocol.default" if name is None else "protocol.settings"
        raise InputError(path, field, f"has no setting '{chosen}'", f"use one of {sorted(settings)}")
    setting = {key: value for key, value in settings[chosen].items() if key != "section"}
    strategy = STRATEGIES[setting["strategy"]]
    if strategy.attempts(setting) < strategy.min_attempts:
        raise InputError(
            path,
            f"protocol.settings.{chosen}.attempts",
            f"is {setting['attempts']}, but strategy '{strategy.name}' needs at least {strategy.min_attempts}",
            f"set attempts >= {strategy.min_attempts}",
        )
    return setting


def suite_overrides(settings: dict[str, Any], suite: Suite) -> dict[str, Any]:
    """The agent's ``suites`` entry for the suite: its full name's (``cfd-code@legacy``) over its base name's."""
    suites = settings.get("suites") or {}
    return {**(suites.get(suite.base) or {}), **(suites.get(suite.name) or {})}


def effective_settings(settings: dict[str, Any], suite: Suite) -> dict[str, Any]:
    """The settings an agent runs ``suite`` with (module docstring: own, then paper, then per-suite)."""
    own = {key: value for key, value in settings.items() if key not in AGENT_ONLY}
    overrides = suite_overrides(settings, suite)
    paper: dict[str, Any] = {}
    if settings.get("protocol", OWN) == PAPER or "setting" in overrides:
        paper = paper_setting(suite, overrides.get("setting"))
        if own.get("samples") == RECORDED:
            paper.pop("samples", None)
    merged = {**own, **paper, **{key: value for key, value in overrides.items() if key != "setting"}}
    merged = with_default(merged, suite)
    strategy = merged.get("strategy", DEFAULT)
    if strategy == own.get("strategy", DEFAULT) or strategy not in STRATEGIES:
        return merged
    return _fit_strategy(merged, overrides, STRATEGIES[strategy])


def _fit_strategy(merged: dict[str, Any], overrides: dict[str, Any], strategy: Strategy) -> dict[str, Any]:
    """``merged`` without the agent's own roles and options that ``strategy`` lacks (per-suite ones stay, and
    are checked against it)."""
    others = frozenset().union(*(s.options for s in STRATEGIES.values())) - strategy.options
    fitted = {key: value for key, value in merged.items() if key not in others or key in overrides}
    roles = {role.name for role in strategy.roles}
    kept = {
        role: value
        for role, value in (merged.get("roles") or {}).items()
        if role in roles or role in (overrides.get("roles") or {})
    }
    fitted.pop("roles", None)
    if kept:
        fitted["roles"] = kept
    return fitted


def check_agent_protocol(settings: dict[str, Any], field: str, config_file: str, cases_root: Path) -> None:
    """``protocol`` is ``paper`` or ``default``; every ``suites`` entry names a suite folder and known keys."""
    protocol = settings.get("protocol", OWN)
    if protocol not in PROTOCOLS:
        raise InputError(
            config_file, f"{field}.protocol", f"'{protocol}' is not a protocol", f"use one of {list(PROTOCOLS)}"
        )
    for name, entry in (settings.get("suites") or {}).items():
        base = name.split("@", 1)[0]
        if not (cases_root / base / "suite.yaml").is_file():
            raise InputError(
                config_file,
                f"{field}.suites.{name}",
                f"'{base}' is not a suite under {cases_root}",
                "name a folder of cases/ (optionally <suite>@<variant>)",
            )
        if not isinstance(entry, dict):
            raise InputError(config_file, f"{field}.suites.{name}", "is not a mapping", "give keys, e.g. {samples: 5}")
        for key in sorted(set(entry) - SUITE_KEYS):
            raise InputError(
                config_file,
                f"{field}.suites.{name}.{key}",
                "cannot be set per suite",
                f"use one of {sorted(SUITE_KEYS)}, or set it for the whole agent",
            )
