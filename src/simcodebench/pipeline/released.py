"""The config's ``references`` key: per suite (``<suite>`` or ``<suite>@<variant>``), a folder that holds the
references as a benchmark released them, read by the suite's plugin instead of making them (for replaying a
benchmark's recorded generations against its own reference data). Checked when the plan is built: a bad entry is
one :class:`InputError` line before anything runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.core.cases import Case
from simcodebench.core.errors import InputError
from simcodebench.core.registry import plugin_of


def released_references(
    config: dict[str, Any], cases: dict[tuple[str, str], Case], config_file: str
) -> dict[tuple[str, str], list[Path]]:
    """Per selected (suite, case) of a suite that ``references`` names, the files its plugin reads the reference
    from (:meth:`~simcodebench.core.plugin.SuitePlugin.released_reference_files`)."""
    folders = config.get("references") or {}
    files: dict[tuple[str, str], list[Path]] = {}
    for suite, folder in folders.items():
        field = f"references.{suite}"
        if suite not in config["suites"]:
            raise InputError(config_file, field, f"names '{suite}', which is not in suites", f"add {suite} to suites")
        path = Path(folder)
        if not path.is_dir():
            raise InputError(
                config_file, field, f"'{folder}' is not a folder", "point it at the folder of the released references"
            )
        for (name, case_id), case in cases.items():
            if name == suite:
                files[(name, case_id)] = plugin_of(case).released_reference_files(case, path, field)
    return files
