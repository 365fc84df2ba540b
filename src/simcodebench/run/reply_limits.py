"""What ``eval_config.yaml`` says of the replies: the ``max_tokens`` every role of every suite will be sent and
where each value comes from, the context window that may lower it, and the cap on requests in flight."""

from __future__ import annotations

from typing import Any

from simcodebench.agents.protocol import PAPER, paper_setting, suite_overrides
from simcodebench.agents.reply_limit import suite_default
from simcodebench.core.cases import Suite
from simcodebench.pipeline.plan import Plan


def limit_source(settings: dict[str, Any], agent: str, suite: Suite, role: str) -> str:
    """Where the ``max_tokens`` of ``role`` comes from, for an agent with ``settings`` (its own, as configured)
    running ``suite``: the first of role, per-suite, paper protocol, agent and suite default that sets it."""
    overrides = suite_overrides(settings, suite)
    if "max_tokens" in ((overrides.get("roles") or {}).get(role) or {}):
        return f"agents.{agent}.suites.{suite.name}.roles.{role}.max_tokens"
    if "max_tokens" in ((settings.get("roles") or {}).get(role) or {}):
        return f"agents.{agent}.roles.{role}.max_tokens"
    if "max_tokens" in overrides:
        return f"agents.{agent}.suites.{suite.name}.max_tokens"
    if settings.get("protocol") == PAPER or "setting" in overrides:
        setting = paper_setting(suite, overrides.get("setting"))
        if "max_tokens" in setting:
            return f"the paper's protocol (cases/{suite.base}/suite.yaml protocol.settings)"
    if settings.get("max_tokens") is not None:
        return f"agents.{agent}.max_tokens"
    default = suite_default(suite)
    if default is not None:
        return f"the suite's default (cases/{suite.base}/suite.yaml reply_tokens: {default[1]})"
    return "none: the server's default"


def reply_limit_lines(plan: Plan) -> list[str]:
    """One line per agent, suite and role: ``<agent> <suite> <role>: max_tokens N (source)``."""
    lines = []
    for name, configured in plan.agents.items():
        if configured.backend != "openai":
            continue
        for suite in plan.suites():
            agent = plan.agent(name, suite)
            case = next(c for (s, _), c in plan.cases.items() if s == suite)
            for role in agent.strategy.roles:
                value = agent.role_settings(role.name).get("max_tokens")
                source = limit_source(configured.settings, name, case.suite, role.name)
                lines.append(f"{name} {suite} {role.name}: max_tokens {value} ({source})")
    return lines
