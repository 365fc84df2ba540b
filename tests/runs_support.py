"""Synthetic runs for the comparison, bundle, sample-page and Inspect-export tests: working directories whose
``results/`` holds score.json, final.json, replies and calibrations written by hand, as the pipeline lays them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simcodebench.core.layout import Layout

MACHINE = {"hostname": "a", "cpu": "cpu", "cores": 2, "mem_gib": 8.0, "os": "Linux", "python": "3.11", "id": "m1"}


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)


def provenance(machine: str = "m1") -> dict[str, Any]:
    return {
        "simcodebench": "0.1.0",
        "git_commit": "abc123",
        "machine": {**MACHINE, "id": machine},
        "environment": {"name": "python", "packages": ["numpy==2.0"]},
        "runtime": "local",
        "created": "2026-01-01T00:00:00+00:00",
    }


def attempt(
    work: Path,
    agent: str,
    suite: str,
    case: str,
    sample: int,
    attempt_: int,
    cls: str,
    *,
    version: str = "v1",
    machine: str = "m1",
    wall_s: float = 1.0,
) -> None:
    """One scored attempt with its prompt, messages, reply, solution and run outputs."""
    layout = Layout.of(work)
    folder = Path(layout.attempt_dir(agent, suite, case, sample, attempt_))
    messages = [
        {"role": "system", "content": "You write solvers."},
        {"role": "user", "content": f"Solve {case} (attempt {attempt_})."},
    ]
    reply = f"Here it is.\n```python\nprint('{agent} {case} {sample} {attempt_}')\n```"
    gates = [{"name": "response", "passed": True, "detail": ""}, {"name": "extraction", "passed": True, "detail": ""}]
    gates.append({"name": "run", "passed": cls != "F-Exec", "detail": "rc 1" if cls == "F-Exec" else ""})
    if cls != "F-Exec":
        gates.append({"name": "outputs", "passed": True, "detail": ""})
        gates.append({"name": "accuracy", "passed": cls != "F-Acc", "detail": "error 1e-3 vs threshold 1e-2"})
        if cls != "F-Acc":
            gates.append({"name": "time", "passed": cls != "F-Time", "detail": f"wall time {wall_s} s vs 3 s"})
    _write(folder / "prompt.md", f"# system\n\nYou write solvers.\n\n# user\n\nSolve {case}.\n")
    _write(folder / "messages.json", {"skipped": False, "strategy": "single", "messages": messages})
    _write(
        folder / "response.json",
        {
            "backend": "openai",
            "status": "ok",
            "text": reply,
            "model": f"model-{agent}",
            "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
            "cost_usd": 0.001,
            "calls": [{"role": "programmer", "messages": messages, "text": reply, "model": f"model-{agent}"}],
        },
    )
    _write(folder / "solution" / "manifest.json", {"status": "ok", "files": [{"name": "solution.py", "sha256": "x"}]})
    _write(folder / "solution" / "solution.py", f"print('{agent} {case} {sample} {attempt_}')\n")
    _write(folder / "run" / "run.json", {"status": "ok" if cls != "F-Exec" else "error", "rc": 0, "wall_s": wall_s})
    _write(folder / "run" / "stdout.txt", "converged\n" * 3)
    _write(folder / "run" / "stderr.txt", "Traceback: boom\n" if cls == "F-Exec" else "")
    _write(
        folder / "score.json",
        {
            "agent": agent,
            "suite": suite,
            "case": case,
            "sample": sample,
            "attempt": attempt_,
            "strategy": "single",
            "stage": f"attempt-{attempt_}",
            "status": "scored",
            "failure_class": cls,
            "gate_class": cls,
            "passed": cls == "Pass",
            "gates": gates,
            "message": "" if cls == "Pass" else f"{cls} because",
            "error": 1e-3,
            "tau_acc": 1e-2,
            "tau_time": 3.0,
            "wall_s": wall_s,
            "metrics": {"rel_l2": 1e-3},
            "run": {"status": "ok", "rc": 0, "wall_s": wall_s, "peak_rss_mb": 50.0},
            "generation": {"model": f"model-{agent}", "prompt_tokens": 100, "completion_tokens": 50, "cost_usd": 0.001},
            "hashes": {"messages": "m", "reply": "r", "artifact": ["x"], "case": version},
            "provenance": provenance(machine),
        },
    )


def sample(work: Path, agent: str, suite: str, case: str, sample_: int, classes: list[str], **kw: Any) -> None:
    """A sample's attempts and its final.json, the last attempt standing for it."""
    for a, cls in enumerate(classes):
        attempt(work, agent, suite, case, sample_, a, cls, **kw)
    _write(
        Path(Layout.of(work).final(agent, suite, case, sample_)),
        {
            "agent": agent,
            "suite": suite,
            "case": case,
            "sample": sample_,
            "attempts": len(classes),
            "selected_attempt": len(classes) - 1,
            "passed": classes[-1] == "Pass",
            "failure_class": classes[-1],
        },
    )


def calibration(work: Path, suite: str, case: str, tau_time: float = 3.0, machine: str = "m1") -> None:
    """The case's calibration record."""
    _write(
        Path(Layout.of(work).calibration(suite, case)),
        {
            "suite": suite,
            "case": case,
            "thresholds": {"accuracy": 1e-2, "time": tau_time},
            "case_version": "v1",
            "provenance": provenance(machine),
        },
    )


def run_of(work: Path, agent: str, verdicts: dict[tuple[str, str], list[str]], **kw: Any) -> Path:
    """A run of one agent: ``verdicts[(suite, case)]`` lists each sample's final class (one attempt each)."""
    tau_time = kw.pop("tau_time", 3.0)
    for (suite, case), classes in verdicts.items():
        calibration(work, suite, case, tau_time, kw.get("machine", "m1"))
        for s, cls in enumerate(classes):
            sample(work, agent, suite, case, s, [cls], **kw)
    return work
