"""The ``fea`` suite: FEABench's problems re-posed for open finite-element solvers (scikit-fem, DOLFINx)."""
