"""What ``simcodebench eval`` says of the endpoint before it runs: the requests it will have in flight at once
and why, and the model's context window and where it was read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcodebench.agents.backends.server_info import server_info
from simcodebench.pipeline.ask import DEFAULT_ENDPOINT_CAP
from simcodebench.run.preflight import api_key


@dataclass(frozen=True)
class EndpointReport:
    """The lines to print (and keep in ``eval_config.yaml``) and the cap on requests in flight to pass to the
    workflow (None: the option's or the profile's)."""

    lines: list[str]
    in_flight: int | None


def describe_endpoint(agent: dict[str, Any], max_connections: int | None) -> EndpointReport:
    """Read what the server says (:mod:`simcodebench.agents.backends.server_info`) and say what the run starts
    with: the server's capacity, where it states one, caps the requests in flight (below ``--max-connections``
    when that is lower); elsewhere the option's or the profile's cap holds, lowered during the run when the
    server refuses for load or queues."""
    key = api_key(agent.get("api_key_env"))
    info = server_info(str(agent["base_url"]).rstrip("/") + "/", key, str(agent["model"]))
    if info.capacity is not None:
        in_flight = min(info.capacity, max_connections) if max_connections else info.capacity
        cap = f"requests in flight: at most {in_flight} (the server serves {info.capacity} at once: "
        cap += f"{info.capacity_source})"
    else:
        in_flight = None
        given = (
            f"{max_connections} (--max-connections)" if max_connections else f"{DEFAULT_ENDPOINT_CAP} (the profile's)"
        )
        cap = (
            f"requests in flight: at most {given}; the server does not say how many it serves at once: a 429 or "
            "503, or a request queued without a first token, lowers the cap, and it climbs back as replies come"
        )
    if agent.get("context_tokens"):
        window = f"context window: {agent['context_tokens']} tokens (--context-tokens)"
    elif info.window is not None:
        window = f"context window: {info.window} tokens ({info.window_source})"
    else:
        window = (
            "context window: the server does not say; learnt from its first refusal that states it (or give "
            "--context-tokens)"
        )
    return EndpointReport([cap, window], in_flight)
