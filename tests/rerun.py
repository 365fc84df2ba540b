"""Helpers to run ``make rerun`` on a test working directory and to see which files it changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pipeline import REPO

from simcodebench.io import sha256_file

KEPT = ("response.json", "messages.json", "prompt.md")
"""Files of a rerun case that keep their content: the prompts and replies as they were asked (a rerun may touch
them, so that a later run takes them as up to date)."""


def snapshot(work: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``results/runs`` and ``results/cache`` of ``work``: its mtime (ns) and SHA-256."""
    results = work / "results"
    return {
        str(p.relative_to(results)): (p.stat().st_mtime_ns, sha256_file(p))
        for folder in ("runs", "cache")
        for p in (results / folder).rglob("*")
        if p.is_file()
    }


def stray_changes(before: dict, after: dict, agent: str, case: str) -> set[str]:
    """What a rerun of ``agent`` on ``suite/case`` must not have changed but did: any file outside that case's
    samples (its mtime), and inside them the prompts, the replies and the extracted solutions (their content)."""
    stray = set()
    for path, (mtime, digest) in before.items():
        now_mtime, now_digest = after.get(path, (None, None))
        if not path.startswith(f"runs/{agent}/{case}/"):
            stray |= {path} if now_mtime != mtime else set()
        elif path.endswith(KEPT) or "/solution/" in path:
            stray |= {path} if now_digest != digest else set()
    return stray


def make_rerun(
    work: Path, case: str, agent: str, *snake_args: str, profile: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``make rerun CASE=case AGENT=agent`` of the repository on ``work`` (``PROFILE=profile`` when given)."""
    command = [
        "make",
        "--no-print-directory",
        "-C",
        str(REPO),
        "rerun",
        f"CASE={case}",
        f"AGENT={agent}",
        f"CONFIG={work / 'config' / 'config.yaml'}",
        f"SNAKE_ARGS=--directory {work} {' '.join(snake_args)}",
        *([f"PROFILE={profile}"] if profile else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, f"make rerun failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return done
