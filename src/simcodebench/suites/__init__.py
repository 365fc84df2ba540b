"""Suite scorers, registered by the name a ``suite.yaml`` gives in its ``scorer`` field.

A scorer module provides:

- ``generate_reference(case: Case) -> Reference``: produce the case's reference (hidden) from
  ``case.hidden.reference`` (``generator`` and ``params``);
- ``evaluate(case: Case, run_dir: Path, reference: Reference) -> Evaluation``: read the outputs the run
  wrote under ``run_dir`` (as ``case.visible.contract`` describes them) and measure their error;
- ``plot_comparison(case, run_dir, reference, png: Path) -> bool``: draw the sample's fields beside the
  reference and their difference; return False where the case has no field to draw.
"""

from __future__ import annotations

import importlib
from types import ModuleType

SCORERS = {"re4": "simcodebench.suites.re4.scorer"}


def get_scorer(name: str) -> ModuleType:
    """The scorer module registered under ``name``."""
    try:
        return importlib.import_module(SCORERS[name])
    except KeyError:
        raise KeyError(f"no scorer named '{name}'; known: {sorted(SCORERS)}") from None
