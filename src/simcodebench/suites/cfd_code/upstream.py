"""CFDCodeBench's recorded generations, replayed through ``cfd-code@legacy`` and compared with the upstream logs.

The released repository keeps, per model, the extracted scripts (``solver/<model>/prompts/<task>.py``), the
comparison log (``compare/comparison_results_<model>_prompts.log``: one line per ``<var>_<task>.npy`` with its
NMSE, or a failure) and the execution log (``report/execution_results_<model>_prompts_*.log``: exit code and
stderr per script). This module

- turns a folder of scripts into a replay file (``simcodebench replay cfdcodebench FOLDER``), one line per task
  that is a case of the suite, each reply the script in a fenced block;
- reads both logs and sets them beside our scores of the replayed agent (``simcodebench compare cfdcodebench``):
  per (task, variable) the upstream NMSE and ours, and whether their score bins (1 / 0.5 / 0) agree; per task
  whether execution agrees. Upstream NMSEs are against the upstream arrays, ours against our references (the
  differences are tabulated in ``cases/cfd-code/README.md``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InputError
from simcodebench.core.io import atomic_write_text
from simcodebench.suites.cfd_code.nmse import released_score

_COMPARED = re.compile(r"- INFO - (\S+)\.npy: .*NMSE=([-+0-9.einfaINF]+)")
_FAILED = re.compile(r"- ERROR - \S+ (\S+)\.npy failed: (.*)$")
_RUNNING = re.compile(r"^--- Running: (\S+)\.py ---$")
_EXIT = re.compile(r"^Exit Code: (-?\d+)")


@dataclass(frozen=True)
class UpstreamVariable:
    """One line of the comparison log: the NMSE of ``<var>_<task>.npy``, or why it failed."""

    task: str
    variable: str
    nmse: float | None
    failure: str | None


def replay_lines(folder: Path, cases: set[str], suite: str = "cfd-code") -> tuple[list[dict[str, Any]], list[str]]:
    """Replay entries for every ``<task>.py`` in ``folder`` whose task is one of ``cases``; also the tasks left
    out (not a case of the suite)."""
    scripts = sorted(Path(folder).glob("*.py"))
    if not scripts:
        raise InputError(folder, "(folder)", "holds no <task>.py script", "point at solver/<model>/prompts")
    lines, skipped = [], []
    for script in scripts:
        if script.stem not in cases:
            skipped.append(script.stem)
            continue
        code = script.read_text(encoding="utf-8", errors="replace").rstrip()
        lines.append(
            {
                "suite": suite,
                "case": script.stem,
                "sample": 0,
                "attempt": 0,
                "response": f"```python\n{code}\n```\n",
                "source": str(script.name),
            }
        )
    return lines, skipped


def write_replay(folder: Path, out: Path, cases: set[str]) -> tuple[int, list[str]]:
    """Write the replay file of ``folder``'s scripts to ``out``; return (lines written, tasks left out)."""
    lines, skipped = replay_lines(folder, cases)
    atomic_write_text(out, "".join(json.dumps(line) + "\n" for line in lines))
    return len(lines), skipped


def split_name(stem: str, tasks: set[str]) -> tuple[str, str] | None:
    """``u_2D_Burgers_Equation`` -> (``2D_Burgers_Equation``, ``u``): the longest task that ends the name."""
    for task in sorted(tasks, key=len, reverse=True):
        if stem.endswith(f"_{task}"):
            return task, stem[: -len(task) - 1]
    return None


def parse_comparison_log(text: str, tasks: set[str]) -> dict[tuple[str, str], UpstreamVariable]:
    """The last comparison block of the log, per (task, variable); names of other tasks are left out."""
    blocks = text.split("====== Starting Comparison ======")
    found: dict[tuple[str, str], UpstreamVariable] = {}
    for line in blocks[-1].splitlines():
        compared, failed = _COMPARED.search(line), _FAILED.search(line)
        match = compared or failed
        if match is None or (key := split_name(match.group(1), tasks)) is None:
            continue
        task, variable = key
        if compared:
            found[key] = UpstreamVariable(task, variable, float(compared.group(2)), None)
        else:
            found[key] = UpstreamVariable(task, variable, None, match.group(2).strip())
    return found


def parse_execution_log(text: str) -> dict[str, bool]:
    """Per task, whether the released rule passes it: exit code 0 and no "error" or "warning" in its output."""
    verdicts: dict[str, bool] = {}
    task, body = None, []
    for line in text.splitlines() + ["--- Running: end.py ---"]:
        running = _RUNNING.match(line)
        if running:
            if task is not None:
                exit_codes = [int(m.group(1)) for m in map(_EXIT.match, body) if m]
                chunk = "\n".join(body).split("====== Execution Summary ======")[0].lower()
                words = chunk.replace("errors:", "")
                verdicts[task] = (
                    bool(exit_codes) and exit_codes[0] == 0 and not ("error" in words or "warning" in words)
                )
            task, body = running.group(1), []
        elif task is not None:
            body.append(line)
    verdicts.pop("end", None)
    return verdicts


def _bin(nmse: float | None) -> float:
    return 0.0 if nmse is None else released_score(nmse)


def compare(
    upstream: dict[tuple[str, str], UpstreamVariable],
    executed: dict[str, bool],
    scores: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """One row per upstream (task, variable): both NMSEs, both score bins and both execution verdicts.

    ``scores`` maps a task to our ``score.json`` of the replayed attempt.
    """
    rows = []
    for (task, variable), line in sorted(upstream.items()):
        ours = scores.get(task)
        if ours is None:
            continue
        run_gate = next((g for g in ours.get("gates", []) if g["name"] == "run"), None)
        our_nmse = ours.get("metrics", {}).get(f"nmse_{variable}")
        rows.append(
            {
                "task": task,
                "variable": variable,
                "upstream_nmse": line.nmse,
                "upstream_failure": line.failure,
                "our_nmse": our_nmse,
                "our_class": ours.get("failure_class"),
                "upstream_bin": _bin(line.nmse),
                "our_bin": _bin(our_nmse),
                "upstream_executes": executed.get(task),
                "our_executes": bool(run_gate and run_gate["passed"]),
            }
        )
    return rows


def read_scores(runs: Path, agent: str, suite: str) -> dict[str, dict[str, Any]]:
    """Our ``score.json`` of sample 0, attempt 0 of every case the agent ran in ``suite``."""
    folder = Path(runs) / agent / suite
    return {path.parents[2].name: json.loads(path.read_text()) for path in sorted(folder.glob("*/0/0/score.json"))}


def markdown(rows: list[dict[str, Any]]) -> str:
    """The comparison as a markdown table followed by the agreement counts."""

    def number(value: float | None, failure: str | None = None) -> str:
        return f"{value:.3g}" if value is not None else (failure or "-")[:40]

    out = [
        "| task | var | upstream NMSE | our NMSE | bins | upstream exec | our exec |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        bins = f"{row['upstream_bin']:g} / {row['our_bin']:g}"
        out.append(
            f"| {row['task']} | {row['variable']} | {number(row['upstream_nmse'], row['upstream_failure'])} | "
            f"{number(row['our_nmse'], row['our_class'])} | {bins} | {row['upstream_executes']} | "
            f"{row['our_executes']} |"
        )
    same_bin = sum(row["upstream_bin"] == row["our_bin"] for row in rows)
    judged = [row for row in rows if row["upstream_executes"] is not None]
    same_exec = sum(row["upstream_executes"] == row["our_executes"] for row in judged)
    out += [
        "",
        f"score bins agree on {same_bin} of {len(rows)} variables; execution agrees on {same_exec} of {len(judged)}",
    ]
    return "\n".join(out) + "\n"
