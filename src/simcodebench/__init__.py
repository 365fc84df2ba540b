"""SimCodeBench: measure how well LLMs write scientific-simulation code."""

__version__ = "0.1.0"
