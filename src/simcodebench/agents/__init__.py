"""The agent side: agent settings, backends (OpenAI-compatible, replay, oracle, mutant), strategies and their
templates, prompts, and the extraction of an artifact from a reply."""
