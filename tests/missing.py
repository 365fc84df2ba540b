"""What the tests do when something they need cannot be provisioned: fail, unless the user opted out.

A solver environment (``openfoam``, ``dolfinx``, ``fea``, ``dealii``, ``genesis``), the one-node SLURM cluster
(``slurm``) or the MPI test environment (``mpi``) that ``make test`` cannot provision fails the run with one line
naming it. A user who cannot have one lists it in ``SIMCODEBENCH_ALLOW_MISSING`` (comma-separated, e.g.
``openfoam,dealii``); only then are its tests skipped, each skip naming the variable. ``python`` cannot be listed:
every pipeline test runs in it. Apptainer, GPUs, bubblewrap, model weights and absent ``../shared/upstream`` data
stay ordinary skips.

The Makefile's ``envs`` target and ``tests/provision.py`` ask the same question from the command line::

    python tests/missing.py NAME    # exit 0 when NAME may be missing, else 1; one line either way
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import pytest

VARIABLE = "SIMCODEBENCH_ALLOW_MISSING"
NAMES = ("openfoam", "dolfinx", "fea", "dealii", "genesis", "slurm", "mpi")
"""What a user may opt out of."""


def allowed_missing() -> frozenset[str]:
    """The names listed in ``$SIMCODEBENCH_ALLOW_MISSING``; raise ``ValueError`` on a name not in ``NAMES``."""
    listed = {name.strip().lower() for name in os.environ.get(VARIABLE, "").split(",") if name.strip()}
    unknown = sorted(listed - set(NAMES))
    if unknown:
        raise ValueError(f"{VARIABLE} names {', '.join(unknown)}; it may list: {', '.join(NAMES)}")
    return frozenset(listed)


def verdict(name: str, reason: str) -> tuple[bool, str]:
    """Whether ``name``, which cannot be had for ``reason``, may be missing, and the one line that says so."""
    if name not in NAMES:
        raise ValueError(f"'{name}' is not something {VARIABLE} can allow; known: {', '.join(NAMES)}")
    first = reason.strip().splitlines()[0] if reason.strip() else "no reason given"
    if name in allowed_missing():
        return True, f"{name} is not available, its tests skip ({VARIABLE} lists it): {first}"
    return False, f"{name} is not available: {first} (fix it, or set {VARIABLE}={name} to skip its tests)"


def require_or_skip(name: str, reason: str) -> NoReturn:
    """Skip the test when the user allowed ``name`` to be missing, else fail it with the one line alone (not
    chained to the exception being handled); ``reason``: why it is missing."""
    allowed, line = verdict(name, reason)
    if allowed:
        pytest.skip(line)
    raise pytest.fail.Exception(line, pytrace=False) from None


def main(argv: list[str]) -> int:
    """``missing.py NAME [REASON]``: print the verdict; 0 when NAME may be missing, else 1."""
    if len(argv) not in (1, 2):
        print("usage: python tests/missing.py NAME [REASON]", file=sys.stderr)
        return 2
    try:
        allowed, line = verdict(argv[0], argv[1] if len(argv) == 2 else "its set-up failed (see above)")
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(line)
    return 0 if allowed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
