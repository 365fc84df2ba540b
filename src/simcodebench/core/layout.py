"""The results layout, named once: every path the pipeline writes, under one root.

The ``.smk`` files and every module ask :class:`Layout` for a path; given wildcard names (``"{suite}"``) instead
of values, a method returns the rule's pattern. ``results/`` of the working directory by default
(``snakemake --directory`` moves it)::

    results/references/<suite>/<case>/reference.{json,h5}     hidden reference
    results/calibration/<suite>/<case>.json                    thresholds
    results/runs/<agent>/<suite>/<case>/<sample>/<attempt>/    prompt, reply, solution/, run/, score.json
    results/runs/<agent>/<suite>/<case>/<sample>/final.json    the attempt that stands for the sample
    results/asks/<suite>/<attempt>/<batch>.json                an ask job's record (the same batch's replies)
    results/batches/<suite>/<attempt>/<batch>.json             an evaluate job's record
    results/cache/replies/                                     the reply cache
    results/cache/spend/<agent>.jsonl                          what each request of the agent cost (its budget)
    results/status.json                                        the run's progress, per agent and suite
    results/logs/                                              job logs of references, calibrations, aggregate
    results/summary/                                           scores.csv, tables, figures, report
    results/summary/samples/                                   a page per failed sample and a few passed ones
    results/bundle.tar.gz                                      the run in one file (``simcodebench bundle``)
    results/eval_config.yaml                                   the config ``simcodebench eval`` resolved and ran
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RESULTS = "results"
"""The default root."""
MANIFEST = "solution/manifest.json"
"""An attempt's extracted artifact's manifest: the last file ``ask`` writes for the attempt."""


@dataclass(frozen=True)
class Layout:
    """Where each file of a run lives, under ``root``."""

    root: str = RESULTS

    @classmethod
    def of(cls, workdir: str | Path) -> Layout:
        """The layout of the run whose working directory (the folder holding ``results/``) is ``workdir``."""
        return cls(f"{Path(workdir).as_posix()}/{RESULTS}")

    @property
    def runs(self) -> str:
        """``runs/``: one folder per agent, suite, case, sample and attempt."""
        return f"{self.root}/runs"

    @property
    def reply_cache(self) -> str:
        """``cache/replies/``: every reply received, content-addressed."""
        return f"{self.root}/cache/replies"

    @property
    def stop_asking(self) -> str:
        """``cache/stop-asking``: while it exists no request is made (``agents/run_stop.py``)."""
        return f"{self.root}/cache/stop-asking"

    def spend_ledger(self, agent: str) -> str:
        """``cache/spend/<agent>.jsonl``: the cost of each request the agent made, over every run."""
        return f"{self.root}/cache/spend/{agent}.jsonl"

    @property
    def status(self) -> str:
        """``status.json``: the run's progress per agent and suite, refreshed as jobs finish."""
        return f"{self.root}/status.json"

    @property
    def summary(self) -> str:
        """``summary/``: what ``aggregate`` writes."""
        return f"{self.root}/summary"

    def summary_file(self, name: str) -> str:
        """A file of the summary (``scores.csv``, ``summary.md``, ``failure_classes.png``, ``fields``)."""
        return f"{self.summary}/{name}"

    @property
    def sample_pages(self) -> str:
        """``summary/samples/``: a page per failed sample and a few passed ones, with ``index.html``."""
        return self.summary_file("samples")

    def sample_page(self, agent: str, suite: str, case: str, sample: int | str, suffix: str = "html") -> str:
        """A sample's page (``suffix`` html) or its figure (``png``), flat in ``summary/samples/``."""
        return f"{self.sample_pages}/{agent}__{suite}__{case}__{sample}.{suffix}"

    @property
    def calibrations(self) -> str:
        """``calibration/``: one folder per suite, one file per case."""
        return f"{self.root}/calibration"

    @property
    def bundle(self) -> str:
        """``bundle.tar.gz``: where ``simcodebench bundle`` writes the run by default."""
        return f"{self.root}/bundle.tar.gz"

    @property
    def eval_config(self) -> str:
        """``eval_config.yaml``: the config ``simcodebench eval`` resolved, with its command line and date."""
        return f"{self.root}/eval_config.yaml"

    def log(self, name: str) -> str:
        """A run-wide job log, such as ``aggregate.log``."""
        return f"{self.root}/logs/{name}"

    def reference(self, suite: str, case: str, suffix: str) -> str:
        """The case's hidden reference, ``reference.json`` or ``reference.h5`` (``suffix``: json, h5)."""
        return f"{self.root}/references/{suite}/{case}/reference.{suffix}"

    def calibration(self, suite: str, case: str) -> str:
        """The case's calibration (its oracle's time, the thresholds)."""
        return f"{self.root}/calibration/{suite}/{case}.json"

    def case_log(self, stage: str, suite: str, case: str) -> str:
        """The log of a case's ``reference`` or ``calibration`` job."""
        return f"{self.root}/logs/{stage}/{suite}/{case}.log"

    def sample_dir(self, agent: str, suite: str, case: str, sample: int | str) -> str:
        """``runs/<agent>/<suite>/<case>/<sample>``."""
        return f"{self.runs}/{agent}/{suite}/{case}/{sample}"

    def attempt_dir(self, agent: str, suite: str, case: str, sample: int | str, attempt: int | str) -> str:
        """``runs/<agent>/<suite>/<case>/<sample>/<attempt>``."""
        return f"{self.sample_dir(agent, suite, case, sample)}/{attempt}"

    def attempt_file(self, agent: str, suite: str, case: str, sample: int | str, attempt: int | str, name: str) -> str:
        """A file of one attempt: ``prompt.md``, ``messages.json``, ``response.json``, ``ask.log``,
        ``solution/manifest.json``, ``run/run.json``, ``converge/converge.json`` or ``score.json``."""
        return f"{self.attempt_dir(agent, suite, case, sample, attempt)}/{name}"

    def attempt_files(self, suite: str, case: str, name: str) -> list[Path]:
        """The file ``name`` of every attempt of every agent and sample of one case that exists, sorted."""
        return sorted(Path(self.runs).glob(f"*/{suite}/{case}/*/*/{name}"))

    def final(self, agent: str, suite: str, case: str, sample: int | str) -> str:
        """The sample's ``final.json``."""
        return f"{self.sample_dir(agent, suite, case, sample)}/final.json"

    def ask_record(self, suite: str, attempt: int | str, batch: str, suffix: str = "json") -> str:
        """An ``ask`` job's record (``suffix`` json: its members' reply status) or log (``log``); the job asks for
        the members of the ``evaluate`` batch of the same name."""
        return f"{self.root}/asks/{suite}/{attempt}/{batch}.{suffix}"

    def batch_record(self, suite: str, attempt: int | str, batch: str, suffix: str = "json") -> str:
        """An ``evaluate`` job's record (``suffix`` json) or log (``log``)."""
        return f"{self.root}/batches/{suite}/{attempt}/{batch}.{suffix}"

    def locate(self, path: Path) -> tuple[Path, tuple[str, ...]] | None:
        """The ``runs/`` folder a path inside an attempt's folder lies in, with the attempt's (agent, suite, case,
        sample, attempt); None for a path outside the runs."""
        parts = Path(path).parts
        name = Path(self.runs).name
        for i in range(len(parts) - 6, -1, -1):
            if parts[i] == name:
                return Path(*parts[: i + 1]), parts[i + 1 : i + 6]
        return None
