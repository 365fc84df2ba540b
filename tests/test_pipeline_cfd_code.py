"""cfd-code end to end through Snakemake: the oracle passes and each mutant lands in its class (the convergence
gate included); the legacy variant replays recorded replies and scores them as the released code would, and
``simcodebench compare cfdcodebench`` sets them beside an upstream log."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cfd_code_support import case
from pipeline import make_workdir, scores, snakemake

from simcodebench.agents.backends.oracle import oracle_reply

pytestmark = pytest.mark.slow


def test_oracle_passes_and_mutants_land_in_their_classes(tmp_path: Path) -> None:
    config = {
        "suites": ["cfd-code"],
        "cases": {"cfd-code": ["1D_Diffusion"]},
        "agents": {"oracle": {"backend": "oracle"}, "mutants": {"backend": "mutant"}},
    }
    work = make_workdir(tmp_path, config)
    snakemake(work)
    frame = scores(work)
    oracle = frame[frame.agent == "oracle"]
    assert list(oracle.failure_class) == ["Pass"]
    mutants = frame[frame.agent == "mutants"]
    assert list(mutants.failure_class) == list(mutants.declared_class)
    assert "F-Conv" in set(mutants.failure_class)
    record = json.loads((work / "results/runs/oracle/cfd-code/1D_Diffusion/0/0/converge/converge.json").read_text())
    assert record["converged"] is True and set(record["refined"]) == {"NX", "NT"}


def test_second_solution_passes_and_its_wrong_answer_fails(tmp_path: Path) -> None:
    config = {
        "suites": ["cfd-code"],
        "cases": {"cfd-code": ["1D_Diffusion"]},
        "agents": {
            "alternative": {"backend": "alternative"},
            "alt-mutants": {"backend": "mutant", "base": "alternative", "mutants": ["wrong-answer"]},
        },
    }
    work = make_workdir(tmp_path, config)
    snakemake(work)
    frame = scores(work)
    alternative = frame[frame.agent == "alternative"]
    assert list(alternative.case) == ["1D_Diffusion"]
    assert list(alternative.failure_class) == ["Pass"]
    mutants = frame[frame.agent == "alt-mutants"]
    assert list(mutants.mutant) == ["wrong-answer@alternative"] and list(mutants.failure_class) == ["F-Acc"]
    summary = (work / "results/summary/cfd-code.md").read_text()
    assert "| alternative | alternative | Pass | Pass | 1 | yes |" in summary


def _legacy_script(case_id: str) -> str:
    """Our oracle rewritten as an upstream model would write it: lower-case nx/nt literals and np.save of the
    variable to an absolute path."""
    source = oracle_reply(case(case_id)).split("\n", 1)[1].rsplit("```", 1)[0]
    source = re.sub(
        r"^(NX|NT) = (\d+)", lambda m: f"{m[1].lower()} = {m[2]}\n{m[1]} = {m[1].lower()}", source, flags=re.M
    )
    return source + '\nu = np.load("solution.npz")["u"]\nnp.save("/home/someone/results/u.npy", u)\n'


def test_legacy_variant_replays_and_compares_with_the_upstream_log(tmp_path: Path) -> None:
    good = _legacy_script("1D_Linear_Convection")
    warns = "import sys\nprint('Warning: dt may be too large', file=sys.stderr)\n" + _legacy_script("1D_Diffusion")
    replies = tmp_path / "replies.jsonl"
    lines = [
        {
            "suite": "cfd-code",
            "case": "1D_Linear_Convection",
            "sample": 0,
            "attempt": 0,
            "response": f"```python\n{good}```",
        },
        {"suite": "cfd-code", "case": "1D_Diffusion", "sample": 0, "attempt": 0, "response": f"```python\n{warns}```"},
    ]
    replies.write_text("".join(json.dumps(line) + "\n" for line in lines))
    config = {
        "suites": ["cfd-code@legacy"],
        "cases": {"cfd-code@legacy": ["1D_Diffusion", "1D_Linear_Convection"]},
        "agents": {"rec": {"backend": "replay", "file": str(replies)}},
    }
    work = make_workdir(tmp_path, config)
    snakemake(work)
    frame = scores(work).set_index("case")
    assert frame.loc["1D_Linear_Convection", "failure_class"] == "Pass"
    assert frame.loc["1D_Diffusion", "failure_class"] == "F-Exec"  # rc 0, but "warning" in the output
    run_dir = work / "results/runs/rec/cfd-code@legacy/1D_Linear_Convection/0/0"
    assert (run_dir / "run/u_1D_Linear_Convection.npy").is_file()
    refined = json.loads((run_dir / "converge/converge.json").read_text())
    assert refined["refined"] == {"nx": [400, 1600], "nt": [2000, 8000]} and refined["converged"] is True

    log = tmp_path / "comparison.log"
    log.write_text(
        "2025-04-23 20:27:38,127 - INFO - ====== Starting Comparison ======\n"
        "2025-04-23 20:27:38,140 - INFO - u_1D_Linear_Convection.npy: MSE=1e-4, NMSE=0.020\n"
        "2025-04-23 20:27:38,141 - INFO - u_1D_Diffusion.npy: MSE=1e-5, NMSE=0.004\n"
    )
    command = [str(Path(sys.executable).with_name("simcodebench")), "compare", "cfdcodebench", "--agent", "rec"]
    command += ["--comparison-log", str(log), "--results", str(work / "results")]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "| 1D_Linear_Convection | u |" in done.stdout
    # 1D_Diffusion fails execution ("warning"), but its file is compared on both sides, as upstream does
    assert re.search(r"\| 1D_Diffusion \| u \| 0\.004 \| [0-9.e+-]+ \| 1 / 1 \|", done.stdout), done.stdout
    assert "score bins agree on 2 of 2 variables" in done.stdout
