"""Render a case's prompt from its suite's jinja2 templates, from the agent-visible part only."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import jinja2

from simcodebench.agents.fit_context import current_window, fit_messages
from simcodebench.core.cases import Case, VisibleSpec
from simcodebench.core.registry import plugin_of


def _shape(shape: list[Any]) -> str:
    """Describe a contract shape in words: ``[]`` is a number, ``["N"]`` an array of shape ``(N,)``."""
    if not shape:
        return "a number"
    return "array of shape (" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _json(value: Any) -> str:
    """Indented JSON in the key order given, with every list of plain values on one line."""
    text = json.dumps(value, indent=2)
    return re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)


def _environment(folder: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["shape"] = _shape
    env.filters["json"] = _json
    return env


_THRESHOLDS: ContextVar[dict[str, Any] | None] = ContextVar("shown_thresholds", default=None)


@contextmanager
def showing_thresholds(thresholds: dict[str, Any] | None) -> Iterator[None]:
    """Within the block, prompts offer ``thresholds`` (the case's calibrated ``accuracy`` and ``time``) to their
    templates: a suite whose ``prompt.thresholds`` is true shows them (PDEAgent-Bench's released prompt)."""
    token = _THRESHOLDS.set(thresholds)
    try:
        yield
    finally:
        _THRESHOLDS.reset(token)


def shows_thresholds(case: Case) -> bool:
    """Whether the case's prompt shows its calibrated thresholds (``prompt.thresholds`` in its suite)."""
    return bool(case.suite.data["prompt"].get("thresholds"))


def shown_problem(case: Case) -> str:
    """The problem text the prompt shows: the case's ``problem``, or its ``released_problem`` (the paper's or
    released code's wording, ambiguities kept) under a suite variant whose prompt sets ``problem: released``."""
    visible = case.visible
    if case.suite.data["prompt"].get("problem") == "released" and visible.released_problem:
        return visible.released_problem
    return visible.problem


def template_context(case: Case) -> dict[str, Any]:
    """The variables a prompt template may use: the visible spec, the entrypoint and resource limits.

    Built from :class:`VisibleSpec` only, so no hidden field can reach a prompt. The suite plugin's
    ``prompt_context`` adds public slots of its own (the physics suite: its video contract and the Genesis
    documentation). ``thresholds`` is None unless the prompt is made within :func:`showing_thresholds`.
    """
    visible: VisibleSpec = case.visible
    return {
        **plugin_of(case).prompt_context(case),
        "case_id": case.id,
        "title": case.title,
        "problem": shown_problem(case),
        "contract": visible.contract,
        "inputs": list(visible.inputs),
        "spec": visible.spec,
        "entrypoint": case.suite.entrypoint,
        "language": case.suite.data["language"],
        "resources": dict(case.resources),
        "thresholds": _THRESHOLDS.get(),
    }


def render_messages(case: Case) -> list[dict[str, str]]:
    """Chat messages (system, then user) of the case's first attempt, its optional context (the plugin's
    ``optional_context``) fitted into the window of the enclosing :func:`~simcodebench.agents.fit_context.fitting`
    (all of it when there is none)."""
    env = _environment(case.suite.folder)
    context = template_context(case)
    templates = case.suite.data["prompt"]

    def render(slots: dict[str, str]) -> list[dict[str, str]]:
        values = {**context, **slots}
        messages = []
        if templates.get("system"):
            messages.append({"role": "system", "content": env.get_template(templates["system"]).render(values).strip()})
        messages.append({"role": "user", "content": env.get_template(templates["user"]).render(values).strip()})
        return messages

    messages, _ = fit_messages(render, plugin_of(case).optional_context(case), current_window())
    return messages


def messages_to_markdown(messages: list[dict[str, str]]) -> str:
    """A readable ``prompt.md`` of a message list."""
    return "\n\n".join(f"<!-- {m['role']} -->\n{m['content']}" for m in messages) + "\n"
