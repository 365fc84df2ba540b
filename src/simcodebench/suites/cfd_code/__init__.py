"""CFDLLMBench's CFDCodeBench as the ``cfd-code`` suite: NMSE scoring, reference solvers and the scorer."""
