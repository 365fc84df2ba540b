"""The benchmarks shipped with SimCodeBench, one plugin package each (``<suite>/plugin.py``), found by listing
this folder (:mod:`simcodebench.core.registry`). Nothing outside this folder imports any of them: the pipeline
finds a suite's plugin by the name its ``suite.yaml`` gives."""
