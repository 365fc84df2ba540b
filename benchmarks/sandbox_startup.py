"""Sandbox start-up cost per run: the same scripts in the ``local`` and ``bwrap`` runtimes.

Each script runs REPEATS times in the provisioned ``python`` environment, alternating runtimes; reported: the
median wall time per run as the runtime records it (``run.json``'s ``wall_s``) and bwrap's extra cost.

Usage: python benchmarks/sandbox_startup.py [REPEATS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from _common import machine

from simcodebench.execution.environments import get_environment
from simcodebench.execution.runtime import RunRequest, run
from simcodebench.execution.runtime.bwrap import bwrap_available

SCRIPTS = {"empty script": "", "import numpy, scipy": "import numpy, scipy.linalg\n"}
RUNTIMES = ("local", "bwrap")


def main(repeats: int = 20) -> None:
    if not bwrap_available():
        raise SystemExit("bubblewrap unusable here: nothing to compare")
    env = get_environment("python")
    print(f"machine: {machine()}")
    print("| script | local (s) | bwrap (s) | bwrap extra (s) |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, code in SCRIPTS.items():
            walls: dict[str, list[float]] = {name: [] for name in RUNTIMES}
            for index in range(repeats):
                for name in RUNTIMES:
                    run_dir = Path(tmp) / f"{name}-{index}-{len(code)}"
                    run_dir.mkdir()
                    (run_dir / "main.py").write_text(code)
                    request = RunRequest(
                        command=[str(env.python), "main.py"],
                        run_dir=run_dir,
                        wall_s=60.0,
                        mem_mb=2048,
                        path_prefix=(env.bin_dir,),
                    )
                    result = run(request, name)
                    assert result.status == "ok", result.message
                    walls[name].append(result.wall_s)
            local, bwrap = (statistics.median(walls[name]) for name in RUNTIMES)
            print(f"| {label} | {local:.3f} | {bwrap:.3f} | {bwrap - local:+.3f} |")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
