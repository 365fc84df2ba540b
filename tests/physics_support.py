"""A shared Genesis session for the physics tests (one ``gs.init`` per test session, see session_worker.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from missing import require_or_skip

from simcodebench.core.errors import InfrastructureError
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.state import Recording, load_recording

WORKER = Path(scorer.__file__).with_name("session_worker.py")


class GenesisSession:
    """The worker process: runs scripts in the one Genesis session it holds."""

    def __init__(self, python: Path, cache: Path) -> None:
        environment = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
        environment.pop("SIMCODEBENCH_GENESIS_BACKEND", None)
        self.process = subprocess.Popen(
            [str(python), str(WORKER), str(scorer.RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )

    def run(self, source: str, run_dir: Path) -> tuple[dict, Recording | None]:
        """Run ``source`` as the solution in ``run_dir``: the worker's answer and the recording."""
        run_dir.mkdir(parents=True, exist_ok=True)
        script = run_dir / "genesis_solution.py"
        script.write_text(source, encoding="utf-8")
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"cwd": str(run_dir), "script": str(script)}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the Genesis worker died"
        return json.loads(line), load_recording(run_dir)

    def close(self) -> None:
        """End the worker."""
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def harness_backend() -> str:
    """The backend the harness picks here (the runner's rule, asked of the genesis environment's torch apart from
    the runner): ``gpu`` where CUDA is available, else ``cpu``."""
    from simcodebench.execution.environments import get_environment

    probe = [str(get_environment("genesis").python), "-c", "import torch; print(torch.cuda.is_available())"]
    environment = {key: value for key, value in os.environ.items() if key != "SIMCODEBENCH_GENESIS_BACKEND"}
    answer = subprocess.run(probe, capture_output=True, text=True, check=True, env=environment).stdout.strip()
    return "gpu" if answer == "True" else "cpu"


def start_session() -> GenesisSession:
    """A session in the provisioned genesis environment (its kernel cache, shared by runs); without it the test
    fails, or skips where ``SIMCODEBENCH_ALLOW_MISSING`` lists genesis."""
    from simcodebench.execution.environments import get_environment

    try:
        env = get_environment("genesis")
    except InfrastructureError as exc:
        require_or_skip("genesis", f"the genesis environment is not provisioned: {exc}")
    return GenesisSession(env.python, env.prefix / scorer.KERNEL_CACHE)
