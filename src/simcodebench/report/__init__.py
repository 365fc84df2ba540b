"""The summary of a run: the tidy frame of scores, the generic tables and plots (suites add their own through
their plugin's ``report`` hook)."""
