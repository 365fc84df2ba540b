"""Errors with one clear line: the file, the field and the fix."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad user input (case, suite, config, agent, replay file).

    The message is one line naming the file, the field and the fix, so a user can act on it without
    reading a traceback.
    """

    def __init__(self, file: str | Path, field: str, problem: str, fix: str) -> None:
        self.file = str(file)
        self.field = field
        self.problem = problem
        self.fix = fix
        super().__init__(f"{self.file}: field '{field}': {problem}; fix: {fix}")


class InfrastructureError(Exception):
    """The harness, the sandbox or the solver environment broke, not the generated code."""


class EndpointError(Exception):
    """An LLM endpoint kept failing after every retry; the attempt is not counted against the model."""
