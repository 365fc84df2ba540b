"""Second solvers of fea problems without a closed form (DOLFINx beside the cases' scikit-fem references): each is
run as a script in the ``fea`` environment to verify a fresh case (:mod:`simcodebench.suites.fea.fresh`), never
imported by the harness."""
