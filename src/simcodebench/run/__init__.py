"""``simcodebench eval``: one model on an OpenAI-compatible endpoint, from the command line to the scores (the
resolved config, the endpoint's preflight, the workflow)."""
