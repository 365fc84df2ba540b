"""What a suite asks the agent for, by the ``kind`` of its ``extraction`` (``suite.yaml``):

- ``code`` (the default): one program in a fenced block of the suite's language, saved as ``filename`` (after
  the suite's ``rewrite``, if it names one: :mod:`simcodebench.agents.rewrites`);
- ``files``: a whole directory (an OpenFOAM case) in the multi-file format of :mod:`simcodebench.agents.multifile`;
- ``option``: a multiple-choice answer parsed as :mod:`simcodebench.agents.choice` says, saved as ``filename``.

For each kind this module renders an artifact as the reply an agent would give, and extracts a reply into the
files of ``solution/``. The oracle and the mutants (:mod:`simcodebench.agents.backends`) reach the pipeline
through the same reply text and extraction as any model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.agents.choice import parse_option
from simcodebench.agents.extract import extract_code
from simcodebench.agents.multifile import parse_files, render_files, write_tree
from simcodebench.agents.rewrites import np_save_by_variable
from simcodebench.core.cases import Case

KINDS = ("code", "files", "option")


def kind(case: Case) -> str:
    """The case's artifact kind."""
    return case.suite.data["extraction"].get("kind", "code")


def render_reply(case: Case, artifact: Any) -> str | None:
    """The reply text that gives ``artifact`` (None stays None: no reply)."""
    if artifact is None:
        return None
    language = case.suite.data["extraction"]["language"]
    if kind(case) == "files":
        return render_files(artifact, language)
    if kind(case) == "option":
        return str(artifact)
    return f"```{language}\n{artifact.rstrip()}\n```\n"


def extract_files(case: Case, text: str | None) -> dict[str, str]:
    """The solution files a reply gives, as ``{relative path: text}``; raises
    :class:`~simcodebench.agents.extract.ExtractionError` with the reason when it gives none."""
    extraction = case.suite.data["extraction"]
    if kind(case) == "files":
        return parse_files(text)
    if kind(case) == "option":
        return {extraction["filename"]: f"{parse_option(text)}\n"}
    code = extract_code(text, extraction["language"])
    if extraction.get("rewrite") == "np_save_by_variable":  # CFDCodeBench's released file naming
        code, _ = np_save_by_variable(code, case.id)
    return {extraction["filename"]: code}


def write_solution(files: dict[str, str], solution_dir: Path) -> list[dict[str, str]]:
    """Write the extracted files under ``solution_dir``; return their manifest entries (name, sha256)."""
    return write_tree(files, solution_dir)
