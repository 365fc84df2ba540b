"""Provision what the cluster and MPI tests need, where this machine allows (``make test`` runs it first).

SLURM and munge come from apt-get (root on Debian only), MPICH and mpi4py from PyPI into a small virtualenv;
where apptainer is installed, root gets the subordinate ids its ``--fakeroot`` image builds need.
What it cannot provide is printed, one line each, and fails it (exit 1) unless ``SIMCODEBENCH_ALLOW_MISSING``
lists it (``slurm``, ``mpi``; see ``missing.py``): then its tests skip with the same reason.

Usage: python tests/provision.py
"""

from __future__ import annotations

import sys

import apptainer_images
import mpi_env
import slurm_cluster
from missing import verdict


def main() -> int:
    """Provision both, say what is missing; 1 when something missing is not allowed to be. Where apptainer is
    installed, give root what its image builds need (the apptainer tests build one image)."""
    status = 0
    refused = apptainer_images.provision()
    if refused:
        print(f"apptainer image builds: {refused}")
        status = 1
    for name, what, provision in (
        ("slurm", "SLURM one-node cluster", slurm_cluster.provision),
        ("mpi", "MPI test environment", mpi_env.provision),
    ):
        reason = provision()
        if reason is None:
            print(f"{what}: ready")
            continue
        allowed, line = verdict(name, reason)
        print(line)
        status = status if allowed else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
