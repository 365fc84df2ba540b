"""Agents (systems under test) from the config: validation and the number of samples and attempts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcodebench.agents.backends.alternative import has_alternative
from simcodebench.agents.backends.mutant import mutant_names
from simcodebench.agents.backends.replay import load_replay
from simcodebench.agents.protocol import RECORDED, check_agent_protocol, effective_settings
from simcodebench.agents.strategies import DEFAULT, STRATEGIES, Strategy, get_strategy
from simcodebench.core.cases import Case, Suite
from simcodebench.core.errors import InputError
from simcodebench.core.project import cases_root

BACKENDS = ("openai", "replay", "oracle", "alternative", "mutant")
REQUIRED = {"openai": ("model",), "replay": ("file",), "oracle": (), "alternative": (), "mutant": ()}
SELF_CHECKS = ("oracle", "alternative", "mutant")
"""Backends that answer with the case's own solutions (or broken ones): the pipeline's self-check."""


@dataclass(frozen=True)
class Agent:
    """A named agent: its backend and settings, as the config gives them."""

    name: str
    settings: dict[str, Any]

    @property
    def backend(self) -> str:
        """``openai``, ``replay``, ``oracle``, ``alternative`` or ``mutant``."""
        return self.settings["backend"]

    @property
    def mutant_base(self) -> str:
        """The solution a mutant agent breaks: ``oracle`` (default) or ``alternative``."""
        return str(self.settings.get("base", "oracle"))

    @property
    def mutant_selection(self) -> list[str] | None:
        """The mutants a mutant agent runs (``mutants``), None for all of the suite's."""
        return self.settings.get("mutants")

    def for_suite(self, suite: Suite) -> Agent:
        """The agent as it runs ``suite``: its settings, the suite's paper protocol where it asks for it, then its
        ``suites.<suite>`` overrides (:func:`.protocol.effective_settings`)."""
        return Agent(name=self.name, settings=effective_settings(self.settings, suite))

    @property
    def strategy(self) -> Strategy:
        """The strategy that decides what each attempt asks (``strategy``, default ``single``)."""
        return get_strategy(self.settings.get("strategy", DEFAULT))

    @property
    def attempts(self) -> int:
        """Attempts per sample: ``attempts``, else the strategy's default (1 for ``single``)."""
        return self.strategy.attempts(self.settings)

    def role_settings(self, role: str) -> dict[str, Any]:
        """The settings a role's calls use: the agent's, with ``roles.<role>`` merged over them."""
        base = {key: value for key, value in self.settings.items() if key != "roles"}
        return {**base, **(self.settings.get("roles") or {}).get(role, {})}

    def samples(self, case: Case) -> int:
        """Samples per case: one per mutant for the mutant backend, one for the oracle, one for the alternative
        where the case has a second solution (else none); ``samples: recorded`` (replay): the case's highest
        sample index in the replay file + 1 (its suite's lines, or a variant's)."""
        if self.backend == "mutant":
            return len(mutant_names(case, self.mutant_selection, self.mutant_base))
        if self.backend == "oracle":
            return 1
        if self.backend == "alternative":
            return int(has_alternative(case))
        if self.settings.get("samples") == RECORDED:
            suites = {case.suite.name, case.suite.base}
            recorded = [
                k[2]
                for k in load_replay(Path(self.settings["file"]).resolve())
                if (k[0], k[1]) in {(suite, case.id) for suite in suites}
            ]
            return max(recorded, default=-1) + 1
        return int(self.settings.get("samples", 1))

    @property
    def endpoint(self) -> str:
        """Name of the Snakemake resource that caps concurrent requests to this agent's endpoint."""
        return str(self.settings.get("endpoint", "llm_" + self.backend))


def load_agents(config: dict[str, Any], config_file: str = "config/config.yaml") -> dict[str, Agent]:
    """Validate ``config['agents']`` beyond the schema: backend-specific keys and files."""
    agents = {}
    for name, settings in (config.get("agents") or {}).items():
        field = f"agents.{name}"
        if not isinstance(settings, dict) or "backend" not in settings:
            raise InputError(config_file, f"{field}.backend", "is missing", f"set backend to one of {list(BACKENDS)}")
        backend = settings["backend"]
        if backend not in BACKENDS:
            raise InputError(
                config_file,
                f"{field}.backend",
                f"'{backend}' is not a backend",
                f"use one of {list(BACKENDS)}",
            )
        for key in REQUIRED[backend]:
            if not settings.get(key):
                raise InputError(config_file, f"{field}.{key}", "is missing", f"a {backend} agent needs '{key}'")
        if backend == "replay" and not Path(settings["file"]).is_file():
            raise InputError(
                config_file,
                f"{field}.file",
                f"'{settings['file']}' does not exist",
                "point it at a JSONL file of replies",
            )
        for key in ("base", "mutants"):
            if key in settings and backend != "mutant":
                raise InputError(
                    config_file, f"{field}.{key}", f"is set on a {backend} agent", "remove it (mutant agents only)"
                )
        if settings.get("samples") == RECORDED and backend != "replay":
            raise InputError(
                config_file, f"{field}.samples", f"is '{RECORDED}', which only a replay agent has", "give a number"
            )
        _check_budget(settings, field, config_file)
        _check_strategy(settings, field, config_file)
        check_agent_protocol(settings, field, config_file, Path(config.get("cases_dir") or cases_root()))
        _check_serve(settings, field, config_file)
        agents[name] = Agent(name=name, settings=settings)
    if not agents:
        raise InputError(config_file, "agents", "is empty", "add at least one agent (for example backend: oracle)")
    return agents


def check_suite_settings(agent: Agent, suite: Suite, config_file: str) -> None:
    """The agent's effective settings for ``suite`` fit their strategy (an error names ``suites.<suite>``)."""
    _check_strategy(agent.for_suite(suite).settings, f"agents.{agent.name}.suites.{suite.name}", config_file)


def _check_budget(settings: dict[str, Any], field: str, config_file: str) -> None:
    """``max_cost_usd`` belongs to an ``openai`` agent whose requests have a price."""
    if settings.get("max_cost_usd") is None:
        return
    if settings["backend"] != "openai":
        raise InputError(
            config_file,
            f"{field}.max_cost_usd",
            f"is set on a {settings['backend']} agent",
            "remove it: only an openai agent's requests cost money",
        )
    priced = settings.get("price") or any((role or {}).get("price") for role in (settings.get("roles") or {}).values())
    if not priced:
        raise InputError(
            config_file,
            f"{field}.max_cost_usd",
            "is set but the agent has no price, so its spend stays unknown",
            "add price: {prompt_per_1m: USD, completion_per_1m: USD}",
        )


def _check_strategy(settings: dict[str, Any], field: str, config_file: str) -> None:
    """The strategy exists, its attempts suffice, and ``roles`` and strategy options fit it."""
    name = settings.get("strategy", DEFAULT)
    if name not in STRATEGIES:
        raise InputError(
            config_file, f"{field}.strategy", f"'{name}' is not a strategy", f"use one of {list(STRATEGIES)}"
        )
    strategy = STRATEGIES[name]
    if strategy.attempts(settings) < strategy.min_attempts:
        raise InputError(
            config_file,
            f"{field}.attempts",
            f"is {settings['attempts']}, but strategy '{name}' needs at least {strategy.min_attempts}",
            f"set attempts >= {strategy.min_attempts} or leave it out (default {strategy.default_attempts})",
        )
    known = [role.name for role in strategy.roles]
    for role in settings.get("roles") or {}:
        if role not in known:
            raise InputError(
                config_file, f"{field}.roles.{role}", f"is not a role of strategy '{name}'", f"use one of {known}"
            )
    for option in sorted(frozenset().union(*(s.options for s in STRATEGIES.values())) - strategy.options):
        if settings.get(option):
            owner = next(s.name for s in STRATEGIES.values() if option in s.options)
            raise InputError(
                config_file, f"{field}.{option}", f"has no effect with strategy '{name}'", f"use strategy: {owner}"
            )


def _check_serve(settings: dict[str, Any], field: str, config_file: str) -> None:
    """``serve`` (the harness runs the model's llama.cpp server): an openai agent's, without ``base_url``, on a
    model file that exists."""
    serve = settings.get("serve")
    if serve is None:
        return
    if settings["backend"] != "openai":
        raise InputError(config_file, f"{field}.serve", "is only for an openai agent", "set backend: openai")
    for key in ("base_url", "api_key_env"):
        if key in settings or any(key in role for role in (settings.get("roles") or {}).values()):
            raise InputError(
                config_file,
                f"{field}.{key}",
                "is set, but serve makes the harness run the endpoint itself",
                f"drop {key} to use the served model, or drop serve to use your own endpoint",
            )
    from simcodebench.agents.backends.local_server import gguf_file

    gguf_file(serve, f"{field}.serve", config_file)
