"""The benchmarks shipped with SimCodeBench, one plugin package each (``<suite>/plugin.py``), registered as entry
points of the group ``simcodebench.suites`` in ``pyproject.toml``. Nothing outside this folder imports any of them:
the pipeline finds them by the name a ``suite.yaml`` gives (:mod:`simcodebench.core.registry`)."""
