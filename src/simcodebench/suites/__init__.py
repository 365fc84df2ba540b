"""Suite scorers, registered by the name a ``suite.yaml`` gives in its ``scorer`` field.

A scorer module provides:

- ``generate_reference(case: Case) -> Reference``: produce the case's reference (hidden) from
  ``case.hidden.reference`` (``generator`` and ``params``);
- ``evaluate(case: Case, run_dir: Path, reference: Reference) -> Evaluation``: read the outputs the run
  wrote under ``run_dir`` (as ``case.visible.contract`` describes them) and measure their error;
- ``plot_comparison(case, run_dir, reference, png: Path) -> bool``: draw the sample's fields beside the
  reference and their difference; return False where the case has no field to draw.

and optionally ``diagnose(case, solution_dir) -> dict`` (diagnostics of the extracted artifact, never gating),
``MUTANT_OPERATIONS`` (mutant operations on the suite's artifacts, see :mod:`simcodebench.agents.backends.mutant`),
``prepare_run(case, run_dir)`` (files the harness puts next to the solution in the sandbox, such as a runner)
``oracle_source(case) -> str`` (the case's oracle, when the suite builds it instead of reading
``hidden.oracle`` as it is) and ``timed_metrics(case, run, tau_time, metrics) -> dict`` (metrics of a scored
attempt that need its run record and calibrated time limit, such as the physics suite's S_exec).
"""

from __future__ import annotations

import importlib
from types import ModuleType

SCORERS = {
    "re4": "simcodebench.suites.re4.scorer",
    "cfd-code": "simcodebench.suites.cfd_code.scorer",
    "cfd-query": "simcodebench.suites.cfd_query.scorer",
    "foam": "simcodebench.suites.foam.scorer",
    "fem": "simcodebench.suites.fem.scorer",
    "fea": "simcodebench.suites.fea.scorer",
    "physics": "simcodebench.suites.physics.scorer",
}


def get_scorer(name: str) -> ModuleType:
    """The scorer module registered under ``name``."""
    try:
        return importlib.import_module(SCORERS[name])
    except KeyError:
        raise KeyError(f"no scorer named '{name}'; known: {sorted(SCORERS)}") from None
