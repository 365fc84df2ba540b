"""One LLM reply as every backend returns it and the reply cache stores it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

OK = "ok"
NO_RESPONSE = "no_response"
CONTEXT = "context"
BUDGET = "budget"


def zero_usage() -> dict[str, int]:
    """Token counts for a reply whose usage is unknown."""
    return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


@dataclass
class Reply:
    """An LLM reply.

    ``status`` is ``"ok"`` when the model returned text, ``"no_response"`` when it returned none (empty or
    missing content), ``"context"`` when the prompt cannot fit the model's context window and ``"budget"`` when
    it was not asked because the agent's ``max_cost_usd`` was reached; ``reason`` says why there is no text.
    ``tries`` counts the HTTP requests made, retries included; ``latency_s`` is the wall time of the request
    that succeeded, ``first_token_s`` the seconds to its first token (a streamed reply's), ``tokens_per_s`` its
    completion tokens a second (after the first token when ``streamed``). ``reasoning`` is a reasoning model's
    thinking, kept apart from ``text`` (:mod:`simcodebench.agents.backends.reasoning`), which extraction never
    reads. ``raw`` is the response body as
    received; ``extra`` holds anything else a backend wants to keep (never a secret).
    """

    status: str
    text: str | None = None
    model: str | None = None
    usage: dict[str, int] = field(default_factory=zero_usage)
    latency_s: float = 0.0
    cost_usd: float | None = None
    tries: int = 0
    finish_reason: str | None = None
    reasoning: str | None = None
    reason: str | None = None
    raw: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    streamed: bool | None = None
    first_token_s: float | None = None
    tokens_per_s: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The reply as a JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reply:
        """Rebuild a reply from :meth:`to_dict` output; unknown keys are ignored, missing ones defaulted."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
