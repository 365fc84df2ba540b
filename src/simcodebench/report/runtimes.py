"""The summary's section on where each sample ran: the runtime of its final attempt, per agent and suite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcodebench.report.markdown import table

if TYPE_CHECKING:
    import pandas as pd

UNRUN = "not run"
"""What a sample with no execution shows (no artifact, a suite that scores the artifact itself)."""


def markdown(frame: pd.DataFrame) -> str:
    """A table of how many final samples of each agent and suite ran in each runtime (``apptainer``, ``bwrap``,
    ``local``), with a warning line where any ran unconfined (``local``); empty for an empty frame."""
    final = frame[frame["final"]]
    if final.empty:
        return ""
    runtimes = final["runtime"].fillna(UNRUN).replace("", UNRUN)
    counts = final.assign(runtime=runtimes).groupby(["agent", "suite", "runtime"]).size()
    names = sorted(set(runtimes))
    rows = [
        [agent, suite, *(int(counts.get((agent, suite, name), 0)) for name in names)]
        for agent, suite in sorted({(a, s) for a, s, _ in counts.index})
    ]
    text = "\n## Where the samples ran\n\nThe runtime of each sample's final attempt (`run.json`).\n\n"
    text += table(["agent", "suite", *names], rows, left=2)
    unconfined = int((runtimes == "local").sum())
    if unconfined:
        text += f"\n**{unconfined} samples ran unconfined** (`runtime: local`, chosen in the config).\n"
    return text
