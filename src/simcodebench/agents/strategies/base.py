"""What every strategy shares: roles, the previous attempt as the next one sees it, and the attempt payload.

A strategy works in two steps per attempt. At the ``prompt`` step, :meth:`Strategy.prepare` reads attempt
``a-1``'s files (a :class:`Previous`) and returns the payload written to ``messages.json``: either a skip
marker, or the roles to call in order, the first call's messages and the context the later calls are built
from. At the ``generate`` step, :meth:`Strategy.respond` calls the roles through ``ask`` (which keeps every call
and goes through the reply cache) and returns what the attempt carries forward.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from simcodebench.agents.artifacts import kind
from simcodebench.agents.extract import ExtractionError, extract_code
from simcodebench.core.case_failures import STATUS as CASE_STATUS
from simcodebench.core.cases import Case
from simcodebench.core.io import read_json

TEMPLATES = Path(__file__).parent / "templates"
TRUNCATION_MARKER = "[Truncated: Content too long...]"

Messages = list[dict[str, str]]
Ask = Callable[[str, Messages], str | None]
"""``ask(role, messages)``: the role's reply text (None when there is none); every call is recorded."""


@dataclass(frozen=True)
class Role:
    """A role of a strategy; ``oracle_text`` is what the oracle and mutant backends answer for a role that
    writes no code (a code-writing role gets the reference solution or the mutant)."""

    name: str
    writes_code: bool
    oracle_text: str = ""


PROGRAMMER = Role("programmer", writes_code=True)


@dataclass(frozen=True)
class Outcome:
    """What :meth:`Strategy.respond` returns besides the calls: state for the next attempt, the Reviewer's
    verdict where there is one, and the reason when the attempt stopped before writing code."""

    carry: dict[str, Any] = field(default_factory=dict)
    verdict: str | None = None
    stopped: str | None = None


@dataclass(frozen=True)
class Previous:
    """Attempt ``a-1``'s files, the only thing attempt ``a`` depends on."""

    messages: dict[str, Any]
    response: dict[str, Any]
    score: dict[str, Any]
    run_dir: Path

    @classmethod
    def read(cls, messages: Path, response: Path, score: Path) -> Previous:
        """Load the three records; the run's output lies in ``run/`` beside them."""
        return cls(read_json(messages), read_json(response), read_json(score), Path(score).parent / "run")

    @property
    def attempt(self) -> int:
        """Its attempt index."""
        return int(self.score["attempt"])

    @property
    def skipped(self) -> bool:
        """Whether it was skipped (nothing asked, nothing run)."""
        return self.score["status"] == "skipped"

    @property
    def executable(self) -> bool:
        """Whether it ran to the end and wrote well-formed, finite outputs."""
        return bool(self.score.get("executable"))

    @property
    def carry(self) -> dict[str, Any]:
        """What it carried forward for later attempts."""
        return self.response.get("carry") or {}

    def code(self, case: Case) -> str | None:
        """Its artifact as text: the program of its reply for ``code`` suites, else the reply itself (a
        multi-file case, an option); None when there is none."""
        text = self.response.get("text")
        if kind(case) != "code":
            return text
        try:
            return extract_code(text, case.suite.data["extraction"]["language"])
        except ExtractionError:
            return None

    def report(self) -> str:
        """What running it printed (stdout, then stderr), or why it was not run."""
        streams = [self.run_dir / name for name in ("stdout.txt", "stderr.txt")]
        if not any(path.is_file() for path in streams):
            detail = self.score.get("visible_detail") or self.score.get("failure_class")
            return f"The code was not run: {detail}"
        text = "\n".join(p.read_text(errors="replace").rstrip() for p in streams if p.is_file()).strip()
        run = self.score.get("run") or {}
        if run.get("status") not in (None, "ok"):
            text += f"\n[run ended: {run['status']}: {run.get('message') or ''}]"
        return text.strip() or "(no output)"


def after_pass(previous: Previous) -> str | None:
    """Why the attempt after ``previous`` is skipped (it or an earlier attempt passed, or the case has no
    reference or calibration), or None."""
    if previous.skipped:
        return previous.score.get("message") or "an earlier attempt passed"
    if previous.score["passed"]:
        return f"attempt {previous.attempt} passed"
    if previous.score.get("status") == CASE_STATUS:
        return previous.score["message"]
    return None


def truncate_middle(text: str, head: int = 800, tail: int = 800, marker: str = TRUNCATION_MARKER) -> str:
    """``text`` cut to its first ``head`` and last ``tail`` characters with ``marker`` between, when longer."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n{marker}\n{text[-tail:]}"


@cache
def template(path: str) -> str:
    """A template file under ``templates/`` (e.g. ``re4/consultant.md``)."""
    return (TEMPLATES / path).read_text(encoding="utf-8")


def fill(text: str, slots: dict[str, str]) -> str:
    """Replace each slot marker of ``text`` by its value in one pass (values are never rescanned).

    Raises ``KeyError`` when a marker is absent, so a template and its strategy cannot drift apart.
    """
    missing = [marker for marker in slots if marker not in text]
    if missing:
        raise KeyError(f"template lacks the slot(s) {missing}")
    pattern = re.compile("|".join(re.escape(m) for m in sorted(slots, key=len, reverse=True)))
    return pattern.sub(lambda match: slots[match.group(0)], text)


def shown(case: Case, code: str | None) -> str:
    """An artifact as a prompt shows it: a program in a fenced block of the suite's language, other kinds as
    the reply gave them, or a note that there was none."""
    if code is None:
        return "(no code could be extracted from the reply)"
    if kind(case) != "code":
        return code
    return f"```{case.suite.data['extraction']['language']}\n{code.rstrip()}\n```"


def user(content: str) -> Messages:
    """One user message."""
    return [{"role": "user", "content": content}]


class Strategy:
    """The single-call behaviour every strategy starts from; subclasses override what differs.

    ``roles`` are the roles the strategy may call; ``default_attempts`` the attempts per sample when the
    agent sets none, ``min_attempts`` the fewest it works with; ``options`` the agent keys it reads.
    """

    name: ClassVar[str]
    roles: ClassVar[tuple[Role, ...]] = (PROGRAMMER,)
    default_attempts: ClassVar[int] = 1
    min_attempts: ClassVar[int] = 1
    options: ClassVar[frozenset[str]] = frozenset()

    def role(self, name: str) -> Role:
        """The role called ``name``."""
        return next(r for r in self.roles if r.name == name)

    def attempts(self, settings: dict[str, Any]) -> int:
        """Attempts per sample: the agent's ``attempts``, else :attr:`default_attempts`."""
        return int(settings.get("attempts", self.default_attempts))

    def stage(self, attempt: int, attempts: int) -> str:
        """The name of attempt ``attempt`` (of ``attempts``) in tables and records."""
        return f"attempt-{attempt}"

    def prepare(self, case: Case, attempt: int, previous: Previous | None, settings: dict[str, Any]) -> dict[str, Any]:
        """The payload of ``messages.json`` for ``attempt`` (``previous`` is None for attempt 0)."""
        raise NotImplementedError

    def respond(self, payload: dict[str, Any], ask: Ask) -> Outcome:
        """Call the payload's roles; the default is its one call with its messages."""
        ask(payload["calls"][0], payload["messages"])
        return Outcome()

    def select_attempt(self, scores: list[dict[str, Any]]) -> dict[str, Any]:
        """The attempt that stands for the sample: the first pass, else the last attempt asked."""
        asked = asked_attempts(scores)
        return next((s for s in asked if s["passed"]), asked[-1])

    def to_ask(
        self, stage: str, calls: list[str], messages: Messages, context: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """A payload that calls ``calls`` in order, the first with ``messages``."""
        payload = {"skipped": False, "strategy": self.name, "stage": stage, "calls": calls, "messages": messages}
        if context is not None:
            payload["context"] = context
        return payload

    def to_skip(self, stage: str, reason: str, carry: dict[str, Any] | None = None) -> dict[str, Any]:
        """A payload that asks nothing and passes ``carry`` on to the next attempt."""
        return {"skipped": True, "strategy": self.name, "stage": stage, "reason": reason, "carry": carry or {}}


def asked_attempts(scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scores of the attempts that were not skipped, in order."""
    return [s for s in scores if s["status"] != "skipped"]
