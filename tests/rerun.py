"""Helpers to run ``make rerun`` on a test working directory and to see which files it changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml
from pipeline import REPO

from simcodebench.core.io import sha256_file
from simcodebench.pipeline.plan import Plan

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


def rerun_scope(work: Path, agent: str, case: str) -> tuple[set[str], set[str]]:
    """What ``make rerun`` of ``agent`` on ``suite/case`` may change (paths relative to ``results``): the sample
    folders of every member of the batches that hold the agent's samples of the case (the rerun re-evaluates
    whole batches, whose members may be other cases' and other agents' samples), and those batches' records and
    logs."""
    plan = Plan.from_config(yaml.safe_load((work / "config" / "config.yaml").read_text()))
    suite, _, case_id = case.partition("/")
    samples, files = set(), set()
    for record in plan.batch_targets(agent, (suite, case_id)):
        relative = Path(record).relative_to(plan.layout.root)
        files |= {str(relative), str(relative.with_suffix(".log"))}
        attempt = relative.parent.name
        for member_agent, member, sample in plan.batch_members(suite, attempt, relative.stem):
            samples.add(f"runs/{member_agent}/{suite}/{member}/{sample}/")
    return samples, files


def stray_changes(before: dict, after: dict, scope: tuple[set[str], set[str]]) -> set[str]:
    """What a rerun must not have changed but did: any file outside the ``scope`` of :func:`rerun_scope` (its
    mtime), and inside its sample folders the prompts, the replies and the extracted solutions (their content)."""
    samples, files = scope
    stray = set()
    for path, (mtime, digest) in before.items():
        now_mtime, now_digest = after.get(path, (None, None))
        if path in files:
            continue
        if not path.startswith(tuple(samples)):
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
