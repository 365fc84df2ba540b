"""What one sample's attempts left on disk, read once for the pages and the exports: prompt, model calls, reply,
extracted code, the run's output, the score."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcodebench.core.layout import MANIFEST, Layout

TEXT_LIMIT = 200_000
"""Characters read at most from one file (a reply, a solution file, an output): the end is cut beyond."""


def _text(path: Path, limit: int = TEXT_LIMIT) -> str:
    if not path.is_file():
        return ""
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read(limit + 1)
    return text if len(text) <= limit else text[:limit] + "\n[... cut ...]"


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True)
class AttemptRecord:
    """One attempt of a sample as its files hold it (empty where a file is missing)."""

    folder: Path
    attempt: int
    score: dict[str, Any]
    prompt: str
    response: dict[str, Any]
    calls: list[dict[str, Any]]
    code: dict[str, str] = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""
    run: dict[str, Any] = field(default_factory=dict)

    @property
    def stage(self) -> str:
        """The strategy's name of the attempt (``attempt-0``, ``rev-1``, ...)."""
        return str(self.score.get("stage") or self.response.get("stage") or f"attempt-{self.attempt}")

    @property
    def reply(self) -> str:
        """The reply the artifact was extracted from."""
        return str(self.response.get("text") or "")

    @property
    def usage(self) -> dict[str, Any]:
        """Tokens of the attempt (all its calls)."""
        return self.response.get("usage") or {}


def _calls(response: dict[str, Any], messages: dict[str, Any]) -> list[dict[str, Any]]:
    """The attempt's model calls; a reply recorded without them is one call on the attempt's messages."""
    if response.get("calls"):
        return list(response["calls"])
    if response.get("status") in (None, "skipped"):
        return []
    return [{"role": None, "messages": messages.get("messages") or [], "text": response.get("text") or ""}]


def read_attempt(folder: Path) -> AttemptRecord:
    """Read the attempt folder ``results/runs/<agent>/<suite>/<case>/<sample>/<attempt>``."""
    response = _json(folder / "response.json")
    manifest = _json(folder / MANIFEST)
    solution = (folder / MANIFEST).parent
    code = {f["name"]: _text(solution / f["name"]) for f in manifest.get("files", []) if "name" in f}
    run = _json(folder / "run" / "run.json")
    run.pop("provenance", None)
    return AttemptRecord(
        folder=folder,
        attempt=int(folder.name),
        score=_json(folder / "score.json"),
        prompt=_text(folder / "prompt.md"),
        response=response,
        calls=_calls(response, _json(folder / "messages.json")),
        code=code,
        stdout=_text(folder / "run" / "stdout.txt"),
        stderr=_text(folder / "run" / "stderr.txt"),
        run=run,
    )


def attempt_records(layout: Layout, agent: str, suite: str, case: str, sample: int) -> list[AttemptRecord]:
    """Every attempt of the sample that was scored, in order."""
    folder = Path(layout.sample_dir(agent, suite, case, sample))
    attempts = sorted((p for p in folder.iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    return [read_attempt(p) for p in attempts if (p / "score.json").is_file()]
