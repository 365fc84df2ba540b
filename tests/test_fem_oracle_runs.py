"""The limits of the fem oracle's untimed runs (reference levels, the refinement filter): not an agent's."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simcodebench.core.cases import load_suite_cases
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.project import cases_root
from simcodebench.suites.fem import oracle_runs


def test_an_untimed_run_gets_ten_times_the_agents_wall_limit(monkeypatch, tmp_path):
    """Upstream ``reaction_diffusion_no_exact_oscillatory_rhs_cubic``'s intermediate reference level ran past the
    300 s an agent gets and the record was lost; the run the harness starts must carry the larger limit."""
    case = next(c for c in load_suite_cases(cases_root() / "fem") if c.hidden.reference["generator"] == "refined")
    started = []

    def run(request, runtime, image=None):
        started.append(request)
        (tmp_path / "run" / "stderr.txt").write_text("killed at the wall limit")
        return SimpleNamespace(status="timeout")

    monkeypatch.setattr("simcodebench.execution.runtime.run", run)
    monkeypatch.setattr(oracle_runs, "build_program", lambda *args: None)
    with pytest.raises(InfrastructureError, match="ended timeout"):
        oracle_runs.run_oracle(case, case.hidden.reference["params"]["oracle"], keep=tmp_path / "run")
    (request,) = started
    assert request.wall_s == pytest.approx(10 * float(case.resources["wall_s"]))
    assert request.mem_mb >= oracle_runs.reference_mem_mb()
