"""The ``reference`` stage (``workflow/rules/reference.smk``): the case's hidden reference, made by its suite's
plugin; a case whose reference cannot be made is recorded as failed (F-Case), never the whole run."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from simcodebench.core.case_failures import failure, write_failed_reference
from simcodebench.core.cases import Case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import sha256_file
from simcodebench.core.logs import job_log
from simcodebench.core.references import save_reference
from simcodebench.core.registry import plugin_of
from simcodebench.execution.harness_runs import using
from simcodebench.execution.provenance import provenance
from simcodebench.execution.slots import shared_held
from simcodebench.pipeline.plan import Plan

log = logging.getLogger("simcodebench")


def make_reference(case: Case, out_json: Path, out_h5: Path, released: list[Path] | None = None) -> None:
    """Generate the case's (hidden) reference, or read it from the ``released`` files (the config's
    ``references`` folder; their names and hashes are kept in ``meta.released``); when that raises, write a failed
    reference that says why (:mod:`.case_failures`), so that the other cases' summary is still written."""
    try:
        if released:
            log.info("reference %s: read from %s", case.key, released[0].parent)
            reference = plugin_of(case).read_released_reference(case, released)
            reference.meta["released"] = released_provenance(released)
        else:
            log.info("reference %s: generating with %s", case.key, case.hidden.reference["generator"])
            reference = plugin_of(case).generate_reference(case)
    except InfrastructureError:  # the machine's failure, not the case's: the job fails and is retried
        raise
    except Exception as exc:  # the case's own failure: reported as F-Case, never the whole run's
        write_failed_reference(out_json, out_h5, failure("reference", exc))
        return
    reference.meta.setdefault("provenance", provenance())
    save_reference(reference, out_json, out_h5)


def released_provenance(files: list[Path]) -> dict[str, Any]:
    """Where a released reference came from: its folder and the SHA-256 of each file read."""
    return {"folder": str(files[0].parent.resolve()), "files": {path.name: sha256_file(path) for path in files}}


def run(plan: Plan, wildcards: Any, output: Any, log: Any) -> None:
    """Rule ``reference`` (its messages, and why it failed, in ``log``)."""
    with job_log(Path(log[0])), shared_held(), using(plan.runtime, plan.images):
        released = [Path(path) for path in plan.released_files(wildcards.suite, wildcards.case)]
        make_reference(plan.case(wildcards.suite, wildcards.case), Path(output.json), Path(output.h5), released)
