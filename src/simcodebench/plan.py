"""The run plan the workflow expands: which agents, cases, samples and attempts, and where their files go."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import Agent, load_agents
from .cases import Case, load_suite_cases, split_suite_name
from .errors import InputError
from .execution import NO_ENVIRONMENT
from .project import cases_root
from .runtime.apptainer import resolve_image

RESULTS = "results"
"""Every output goes under ``results/`` of the working directory (``snakemake --directory`` moves it)."""

SHORT_RUNTIME_MIN = 5
"""Executions asking for at most this many minutes (one rank, no GPU) share batches (one job, several samples)."""

SAMPLES_PER_JOB = 10
"""Default batch size: short samples of one (agent, suite, attempt) evaluated by one ``evaluate`` job."""

SCORING_RUNTIME_MIN = 1
"""Minutes a batch asks per member beyond its runs, for scoring."""

BATCH_KEY = ("cpus_per_task", "tasks", "mpi", "gpu")
"""The resources that members of one batch share (its job asks for them once)."""


@dataclass(frozen=True)
class Plan:
    """Agents and cases selected by the config, with path helpers for the rules."""

    agents: dict[str, Agent]
    cases: dict[tuple[str, str], Case]
    runtime: str = "auto"
    force_reply: bool = False
    mpi: str = "mpiexec"
    images: dict[str, str] = field(default_factory=dict)
    results: str = RESULTS
    samples_per_job: int = SAMPLES_PER_JOB
    _memo: dict[tuple[str, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_config(cls, config: dict[str, Any], config_file: str = "config/config.yaml") -> Plan:
        """Build the plan; bad agents, suites or case ids raise one :class:`InputError` line."""
        root = Path(config.get("cases_dir") or cases_root())
        cases: dict[tuple[str, str], Case] = {}
        wanted = config.get("cases") or {}
        for suite in config["suites"]:
            folder_name, variant = split_suite_name(suite)
            folder = root / folder_name
            if not (folder / "suite.yaml").is_file():
                raise InputError(
                    config_file,
                    "suites",
                    f"'{suite}' has no {folder}/suite.yaml",
                    "name a folder of cases/ that holds a suite.yaml (optionally <suite>@<variant>)",
                )
            available = {c.id: c for c in load_suite_cases(folder, variant)}
            for case_id in wanted.get(suite) or sorted(available):
                if case_id not in available:
                    raise InputError(
                        config_file,
                        f"cases.{suite}",
                        f"'{case_id}' is not a case of {suite}",
                        f"use one of {sorted(available)}",
                    )
                cases[(suite, case_id)] = available[case_id]
        images = {env: resolve_image(ref) for env, ref in (config.get("images") or {}).items()}
        missing = sorted({c.suite.environment for c in cases.values()} - images.keys() - {NO_ENVIRONMENT})
        if config.get("runtime") == "apptainer" and missing:
            raise InputError(
                config_file,
                f"images.{missing[0]}",
                f"runtime 'apptainer' needs an image for every environment it runs; '{missing[0]}' has none",
                f"add images: {{{missing[0]}: containers/{missing[0]}.sif}} (make images) or use runtime: auto",
            )
        return cls(
            agents=load_agents(config, config_file),
            cases=cases,
            runtime=config.get("runtime", "auto"),
            force_reply=bool(config.get("force_reply", False)),
            mpi=config.get("mpi", "mpiexec"),
            images=images,
            samples_per_job=int(config.get("samples_per_job", SAMPLES_PER_JOB)),
        )

    def case(self, suite: str, case: str) -> Case:
        """The case behind the ``suite`` and ``case`` wildcards."""
        return self.cases[(suite, case)]

    def sample_dir(self, agent: str, suite: str, case: str, sample: int | str) -> str:
        """``results/runs/<agent>/<suite>/<case>/<sample>``."""
        return f"{self.results}/runs/{agent}/{suite}/{case}/{sample}"

    def final_targets(self) -> list[str]:
        """Every sample's ``final.json`` (written by ``aggregate``)."""
        return [
            f"{self.sample_dir(a.name, s, c, i)}/final.json"
            for a in self.agents.values()
            for (s, c), case in self.cases.items()
            for i in range(a.samples(case))
        ]

    def score_paths(self, agent: str, suite: str, case: str, sample: int | str) -> list[str]:
        """Every attempt's ``score.json`` of one sample."""
        base = self.sample_dir(agent, suite, case, sample)
        return [f"{base}/{a}/score.json" for a in range(self.agents[agent].attempts)]

    def suites(self) -> list[str]:
        """The selected suites, in config order."""
        return list(dict.fromkeys(s for s, _ in self.cases))

    def batches(self, agent: str, suite: str) -> list[list[tuple[str, int]]]:
        """The batches of (case, sample) that one ``evaluate`` job each evaluates, for every attempt of ``agent``
        on ``suite``: short cases' samples (:meth:`grouped`) in runs of at most ``samples_per_job`` members of one
        resource key (:data:`BATCH_KEY`), in case order; every other sample alone. Computed once."""
        key = ("batches", agent, suite)
        if key not in self._memo:
            shared: dict[tuple[Any, ...], list[tuple[str, int]]] = {}
            alone: list[list[tuple[str, int]]] = []
            for (s, c), case in self.cases.items():
                if s != suite:
                    continue
                members = [(c, i) for i in range(self.agents[agent].samples(case))]
                if self.grouped(s, c):
                    res = self.resources(s, c)
                    shared.setdefault(tuple(res[k] for k in BATCH_KEY), []).extend(members)
                else:
                    alone.extend([m] for m in members)
            size = self.samples_per_job
            self._memo[key] = [m[i : i + size] for m in shared.values() for i in range(0, len(m), size)] + alone
        return self._memo[key]

    def batch_of(self, agent: str, suite: str, case: str, sample: int | str) -> int:
        """The index of the batch that holds (``case``, ``sample``) (the same for every attempt)."""
        key = ("batch_of", agent, suite)
        if key not in self._memo:
            self._memo[key] = {m: i for i, batch in enumerate(self.batches(agent, suite)) for m in batch}
        return self._memo[key][(case, int(sample))]

    def batch_path(self, agent: str, suite: str, attempt: int | str, batch: int | str) -> str:
        """``results/runs/<agent>/<suite>/batches/<attempt>/<batch>.json``, the batch's record."""
        return f"{self.results}/runs/{agent}/{suite}/batches/{attempt}/{batch}.json"

    def batch_targets(self, agent: str | None = None, case: tuple[str, str] | None = None) -> list[str]:
        """Every batch record of every attempt (of ``agent`` only, and of batches holding ``case`` only, when
        given)."""
        return [
            self.batch_path(a.name, suite, attempt, index)
            for a in self.agents.values()
            if agent is None or a.name == agent
            for suite in self.suites()
            if case is None or case[0] == suite
            for index, batch in enumerate(self.batches(a.name, suite))
            if case is None or any(c == case[1] for c, _ in batch)
            for attempt in range(a.attempts)
        ]

    def batch_members(self, agent: str, suite: str, batch: int | str) -> list[tuple[str, int]]:
        """The (case, sample) members of one batch."""
        return self.batches(agent, suite)[int(batch)]

    def batch_inputs(self, agent: str, suite: str, attempt: int | str, batch: int | str) -> list[str]:
        """What an ``evaluate`` job reads: each member's reply and manifest, its cases' references and
        calibrations."""
        members = self.batch_members(agent, suite, batch)
        replies = [
            f"{self.sample_dir(agent, suite, c, i)}/{attempt}/{leaf}"
            for c, i in members
            for leaf in ("response.json", "solution/manifest.json")
        ]
        cases = dict.fromkeys(c for c, _ in members)
        return replies + [path for c in cases for path in self.case_outputs(suite, c).values()]

    def case_outputs(self, suite: str, case: str) -> dict[str, str]:
        """The case's reference (``ref_json``, ``ref_h5``) and ``calibration`` files, which its samples' scoring
        reads."""
        return {
            "ref_json": f"{self.results}/references/{suite}/{case}/reference.json",
            "ref_h5": f"{self.results}/references/{suite}/{case}/reference.h5",
            "calibration": f"{self.results}/calibration/{suite}/{case}.json",
        }

    def batch_resources(self, agent: str, suite: str, batch: int | str) -> dict[str, Any]:
        """Cluster resources of one ``evaluate`` job: the members' runtimes (twice for a suite that checks
        convergence) plus scoring, added; the largest memory; the key's cores, ranks, launcher and GPUs."""
        key = ("batch_resources", agent, suite, str(batch))
        if key not in self._memo:
            members = self.batch_members(agent, suite, batch)
            per_case = [self.resources(suite, c) for c, _ in members]
            runs = 2 if "convergence" in self.case(suite, members[0][0]).suite.data else 1
            self._memo[key] = {
                "runtime": sum(runs * r["runtime"] + SCORING_RUNTIME_MIN for r in per_case),
                "mem_mb": max(r["mem_mb"] for r in per_case),
                **{k: per_case[0][k] for k in BATCH_KEY},
            }
        return self._memo[key]

    def calibration_targets(self) -> list[str]:
        """Every selected case's calibration file."""
        return [f"{self.results}/calibration/{s}/{c}.json" for s, c in self.cases]

    def case_files(self, suite: str, case: str) -> list[str]:
        """Every file of the case's folder (oracle folders too), computed once per case: an input of the rules
        that read the case, so an edited case reruns what depends on it."""
        key = ("files", suite, case)
        if key not in self._memo:
            folder = self.case(suite, case).folder
            self._memo[key] = sorted(str(p) for p in folder.rglob("*") if p.is_file())
        return self._memo[key]

    def resources(self, suite: str, case: str) -> dict[str, Any]:
        """Cluster resources of an execution of the case, computed once per case (see :meth:`_resources`)."""
        key = ("resources", suite, case)
        if key not in self._memo:
            self._memo[key] = self._resources(suite, case)
        return self._memo[key]

    def _resources(self, suite: str, case: str) -> dict[str, Any]:
        """Cluster resources of an execution of the case. ``tasks`` and ``mpi`` (the launcher) only with several
        MPI ranks, ``gpu`` only with GPUs: None otherwise, which Snakemake leaves out of the job (so a group of
        single-rank runs does not add up their tasks)."""
        res = self.case(suite, case).resources
        tasks = int(res["tasks"])
        return {
            "runtime": max(1, math.ceil(float(res["wall_s"]) / 60) + 1),
            "mem_mb": int(res["mem_mb"]) + 512,
            "cpus_per_task": int(res["cpus"]),
            "tasks": tasks if tasks > 1 else None,
            "mpi": self.mpi if tasks > 1 else None,
            "gpu": int(res["gpu"]) or None,
        }

    def grouped(self, suite: str, case: str) -> bool:
        """Whether the case's runs are short single-rank CPU jobs, which one ``evaluate`` job may batch."""
        res = self.resources(suite, case)
        return res["tasks"] is None and res["gpu"] is None and res["runtime"] <= SHORT_RUNTIME_MIN
