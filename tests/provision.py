"""Provision what the cluster and MPI tests need, where this machine allows (``make test`` runs it first).

SLURM and munge come from apt-get (root on Debian only), MPICH and mpi4py from PyPI into a small virtualenv.
It never fails: what it cannot provide is printed, and the tests that need it skip with the same reason.

Usage: python tests/provision.py
"""

from __future__ import annotations

import mpi_env
import slurm_cluster


def main() -> None:
    """Provision both and say what is missing."""
    for what, provision in (("SLURM one-node cluster", slurm_cluster.provision), ("MPI", mpi_env.provision)):
        reason = provision()
        print(f"{what}: {'ready' if reason is None else 'unavailable, its tests will skip: ' + reason}")


if __name__ == "__main__":
    main()
