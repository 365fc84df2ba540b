"""Agents (systems under test) from the config: validation and the number of samples and attempts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cases import Case
from .errors import InputError
from .mutants import mutant_names

BACKENDS = ("openai", "replay", "oracle", "mutant")
REQUIRED = {"openai": ("model",), "replay": ("file",), "oracle": (), "mutant": ()}


@dataclass(frozen=True)
class Agent:
    """A named agent: its backend and settings, as the config gives them."""

    name: str
    settings: dict[str, Any]

    @property
    def backend(self) -> str:
        """``openai``, ``replay``, ``oracle`` or ``mutant``."""
        return self.settings["backend"]

    @property
    def attempts(self) -> int:
        """Attempts per sample (1 = single shot)."""
        return 1 if self.backend in ("oracle", "mutant") else int(self.settings.get("attempts", 1))

    def samples(self, case: Case) -> int:
        """Samples per case: one per mutant for the mutant backend, one for the oracle."""
        if self.backend == "mutant":
            return len(mutant_names(case))
        if self.backend == "oracle":
            return 1
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
        agents[name] = Agent(name=name, settings=settings)
    if not agents:
        raise InputError(config_file, "agents", "is empty", "add at least one agent (for example backend: oracle)")
    return agents
