"""The execution side: runtimes (local, bubblewrap, Apptainer), solver environments, MPI, OpenFOAM, compiled
programs and provenance."""
