"""The shared core: errors, files, cases, failure classes, the results layout and the suite plugin contract.

Nothing here imports a stage, the agent or execution side, or a particular suite."""
