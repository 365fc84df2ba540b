"""The summary's "Agents" section: what each agent of the run is (backend, model, where its replies come from,
strategy and sampling settings), so a table's row can be read without the config."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from simcodebench.agents.backends.local_server import DEFAULT_N_CTX
from simcodebench.agents.settings import Agent
from simcodebench.report.markdown import NONE, table

SAMPLING = ("temperature", "max_tokens", "seed")


def agents_markdown(agents: Mapping[str, Agent]) -> str:
    """A markdown section with one row per agent."""
    header = ["agent", "backend", "model", "replies from", "strategy", "sampling"]
    rows = [
        [
            name,
            agent.backend,
            agent.settings.get("model") or NONE,
            replies_from(agent),
            f"{agent.settings.get('strategy', 'single')}, {agent.attempts} attempt(s)",
            sampling(agent),
        ]
        for name, agent in sorted(agents.items())
    ]
    return "\n## Agents\n\n" + table(header, rows, left=len(header)) + "\n"


def sampling(agent: Agent) -> str:
    """The sampling settings sent with each request (none for a backend that asks no model)."""
    if agent.backend != "openai":
        return NONE
    sent = [f"{k} {agent.settings[k]}" for k in SAMPLING if agent.settings.get(k) is not None]
    return ", ".join(sent) or "server defaults"


def replies_from(agent: Agent) -> str:
    """Where the agent's replies come from, in a few words."""
    settings = agent.settings
    if agent.backend == "oracle":
        return "the case's reference solution"
    if agent.backend == "alternative":
        return "the case's second correct solution, written apart from the reference"
    if agent.backend == "mutant":
        broken = "second solution" if agent.mutant_base == "alternative" else "reference solution"
        return f"deliberately broken variants of the {broken}"
    if agent.backend == "replay":
        return f"recorded replies in {settings['file']}"
    serve = settings.get("serve")
    if serve:
        source = Path(serve["gguf"]).name if serve.get("gguf") else f"the .gguf file of package {serve['package']}"
        return f"llama.cpp server run by the harness on 127.0.0.1 ({source}, n_ctx {serve.get('n_ctx', DEFAULT_N_CTX)})"
    return settings.get("base_url") or "the OpenAI API"
