"""The run plan the workflow expands: which agents, cases, samples and attempts, and where their files go."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcodebench.agents.prompts import shows_thresholds
from simcodebench.agents.settings import Agent, check_suite_settings, load_agents
from simcodebench.core.cases import Case, load_suite_cases, split_suite_name
from simcodebench.core.errors import InputError
from simcodebench.core.layout import Layout
from simcodebench.core.project import cases_root
from simcodebench.core.registry import use_folders
from simcodebench.execution.images import image_present, image_table
from simcodebench.execution.sandbox import NO_ENVIRONMENT
from simcodebench.pipeline.batching import Member, pack
from simcodebench.pipeline.released import released_references

SHORT_RUNTIME_MIN = 5
"""Executions asking for at most this many minutes (one rank, no GPU) share batches (one job, several samples)."""

SAMPLES_PER_JOB = 20
"""Default batch size: short samples of one suite and attempt evaluated by one ``evaluate`` job
(docs/architecture.md, "What a job is, and why": on a cluster a job has seconds of fixed cost, which 20 short
samples make small)."""

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
    layout: Layout = field(default_factory=Layout)
    samples_per_job: int = SAMPLES_PER_JOB
    released: dict[tuple[str, str], list[Path]] = field(default_factory=dict)
    _memo: dict[tuple[str, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_config(cls, config: dict[str, Any], config_file: str = "config/config.yaml") -> Plan:
        """Build the plan; bad agents, suites or case ids raise one :class:`InputError` line."""
        use_folders(config.get("plugins") or [], config_file)
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
        released = released_references(config, cases, config_file)
        environments = {c.suite.environment for c in cases.values()} - {NO_ENVIRONMENT}
        images = image_table(config.get("images"), environments, Path.cwd())
        missing = sorted(env for env in environments if not image_present(images[env]))
        if config.get("runtime") == "apptainer" and missing:
            raise InputError(
                config_file,
                f"images.{missing[0]}" if isinstance(config.get("images"), dict) else "images",
                f"runtime 'apptainer' needs an image for every environment it runs; '{missing[0]}' has none at "
                f"{images[missing[0]]}",
                "build them (make images), or point images at the folder that holds them (or use runtime: auto)",
            )
        agents = load_agents(config, config_file)
        for suite in {case.suite.name: case.suite for case in cases.values()}.values():
            for agent in agents.values():
                check_suite_settings(agent, suite, config_file)
        return cls(
            agents=agents,
            cases=cases,
            runtime=config.get("runtime", "auto"),
            force_reply=bool(config.get("force_reply", False)),
            mpi=config.get("mpi", "mpiexec"),
            images=images,
            samples_per_job=int(config.get("samples_per_job", SAMPLES_PER_JOB)),
            released=released,
        )

    def case(self, suite: str, case: str) -> Case:
        """The case behind the ``suite`` and ``case`` wildcards."""
        return self.cases[(suite, case)]

    def agent(self, name: str, suite: str) -> Agent:
        """Agent ``name`` as it runs ``suite`` (:meth:`.Agent.for_suite`: its paper protocol and per-suite
        settings), computed once; every rule and job that reads an agent's settings goes through here."""
        key = ("agent", name, suite)
        if key not in self._memo:
            case = next(c for (s, _), c in self.cases.items() if s == suite)
            self._memo[key] = self.agents[name].for_suite(case.suite)
        return self._memo[key]

    def attempts(self, suite: str) -> int:
        """The most attempts any agent makes on ``suite``."""
        return max((self.agent(name, suite).attempts for name in self.agents), default=0)

    def final_targets(self) -> list[str]:
        """Every sample's ``final.json`` (written by ``aggregate``)."""
        return [
            self.layout.final(a, s, c, i)
            for a in self.agents
            for (s, c), case in self.cases.items()
            for i in range(self.agent(a, s).samples(case))
        ]

    def score_paths(self, agent: str, suite: str, case: str, sample: int | str) -> list[str]:
        """Every attempt's ``score.json`` of one sample."""
        return [
            self.layout.attempt_file(agent, suite, case, sample, a, "score.json")
            for a in range(self.agent(agent, suite).attempts)
        ]

    def suites(self) -> list[str]:
        """The selected suites, in config order."""
        return list(dict.fromkeys(s for s, _ in self.cases))

    def batches(self, suite: str, attempt: int | str) -> dict[str, list[Member]]:
        """The ``evaluate`` batches of one suite and attempt, by id (:func:`.batching.pack`): every agent's samples
        that have this attempt; short cases' samples (:meth:`grouped`) in batches of at most ``samples_per_job``
        members of one resource key (:data:`BATCH_KEY`), every other sample alone. Computed once."""
        key = ("batches", suite, str(attempt))
        if key not in self._memo:
            agents = [self.agent(name, suite) for name in self.agents]
            per_agent = [
                (
                    agent.name,
                    [
                        ((agent.name, c, i), self._batch_key(s, c))
                        for (s, c), case in self.cases.items()
                        if s == suite
                        for i in range(agent.samples(case))
                    ],
                )
                for agent in agents
                if int(attempt) < agent.attempts
            ]
            self._memo[key] = pack(per_agent, self.samples_per_job)
        return self._memo[key]

    def _batch_key(self, suite: str, case: str) -> tuple[Any, ...] | None:
        """The resource key the case's samples share a batch by; None for a case whose samples run alone."""
        if not self.grouped(suite, case):
            return None
        res = self.resources(suite, case)
        return tuple(res[k] for k in BATCH_KEY)

    def batch_of(self, agent: str, suite: str, case: str, sample: int | str, attempt: int | str) -> str:
        """The id of the batch that holds (``agent``, ``case``, ``sample``) at ``attempt``."""
        key = ("batch_of", suite, str(attempt))
        if key not in self._memo:
            self._memo[key] = {m: b for b, members in self.batches(suite, attempt).items() for m in members}
        return self._memo[key][(agent, case, int(sample))]

    def batch_targets(self, agent: str | None = None, case: tuple[str, str] | None = None) -> list[str]:
        """Every batch record of every attempt (only of batches holding a sample of ``agent``, of ``case``, or of
        both, when given)."""
        return [
            self.layout.batch_record(suite, attempt, batch)
            for suite in self.suites()
            if case is None or case[0] == suite
            for attempt in range(self.attempts(suite))
            for batch, members in self.batches(suite, attempt).items()
            if any((agent is None or a == agent) and (case is None or c == case[1]) for a, c, _ in members)
        ]

    def batch_members(self, suite: str, attempt: int | str, batch: str) -> list[Member]:
        """The (agent, case, sample) members of one batch."""
        return self.batches(suite, attempt)[batch]

    def batch_inputs(self, suite: str, attempt: int | str, batch: str) -> list[str]:
        """What an ``evaluate`` job reads: the record of the ``ask`` job of the same batch (written after every
        member's solution manifest), its cases' references and calibrations."""
        cases = dict.fromkeys(c for _, c, _ in self.batch_members(suite, attempt, batch))
        outputs = [path for c in cases for path in self.case_outputs(suite, c).values()]
        return [self.layout.ask_record(suite, attempt, batch), *outputs]

    def ask_inputs(self, suite: str, attempt: int | str, batch: str) -> dict[str, list[str]]:
        """What an ``ask`` job reads: its members' case files (``case``: an edited case asks again); for attempt
        a > 0 the records of the ``evaluate`` jobs that scored its members' attempt a-1 (``previous``: it reads
        their messages, replies and scores); the calibrations of a mutant agent's cases (``calibration``: the slow
        mutant is placed past the calibrated time gate), and of every case of a suite whose prompt shows its
        thresholds (``prompt.thresholds``)."""
        members = self.batch_members(suite, attempt, batch)
        cases = dict.fromkeys(c for _, c, _ in members)
        named = {"case": sorted({f for c in cases for f in self.case_files(suite, c)})}
        if int(attempt) > 0:
            previous = dict.fromkeys(self.batch_of(a, suite, c, i, int(attempt) - 1) for a, c, i in members)
            named["previous"] = [self.layout.batch_record(suite, int(attempt) - 1, b) for b in previous]
        shown = bool(cases) and shows_thresholds(self.case(suite, next(iter(cases))))
        calibrated = dict.fromkeys(c for a, c, _ in members if shown or self.agents[a].backend == "mutant")
        if calibrated:
            named["calibration"] = [self.layout.calibration(suite, c) for c in calibrated]
        return named

    def ask_endpoints(self, suite: str, attempt: int | str, batch: str) -> dict[str, int]:
        """How many members of an ``ask`` job call each endpoint resource (``llm_openai``...), computed once."""
        key = ("ask_endpoints", suite, str(attempt), batch)
        if key not in self._memo:
            counts: dict[str, int] = {}
            for agent, _, _ in self.batch_members(suite, attempt, batch):
                name = self.agents[agent].endpoint
                counts[name] = counts.get(name, 0) + 1
            self._memo[key] = counts
        return self._memo[key]

    def case_outputs(self, suite: str, case: str) -> dict[str, str]:
        """The case's reference (``ref_json``, ``ref_h5``) and ``calibration`` files, which its samples' scoring
        reads."""
        return {
            "ref_json": self.layout.reference(suite, case, "json"),
            "ref_h5": self.layout.reference(suite, case, "h5"),
            "calibration": self.layout.calibration(suite, case),
        }

    def batch_resources(self, suite: str, attempt: int | str, batch: str) -> dict[str, Any]:
        """Cluster resources of one ``evaluate`` job: the members' runtimes (twice for a suite that checks
        convergence) plus scoring, added; the largest memory; the key's cores, ranks, launcher and GPUs."""
        key = ("batch_resources", suite, str(attempt), batch)
        if key not in self._memo:
            members = self.batch_members(suite, attempt, batch)
            per_case = [self.resources(suite, c) for _, c, _ in members]
            runs = 2 if "convergence" in self.case(suite, members[0][1]).suite.data else 1
            self._memo[key] = {
                "runtime": sum(runs * r["runtime"] + SCORING_RUNTIME_MIN for r in per_case),
                "mem_mb": max(r["mem_mb"] for r in per_case),
                **{k: per_case[0][k] for k in BATCH_KEY},
            }
        return self._memo[key]

    def batch_threads(self, suite: str, attempt: int | str, batch: str, shared: bool) -> int:
        """Cores of one ``evaluate`` job: 0 where the run's cores are ``shared`` slots of every job
        (``execution/slots.py``: the members run at once, as many computing as the run has cores); else the cores
        its members share (they run one after another, as a cluster job asked SLURM for those alone)."""
        return 0 if shared else int(self.batch_resources(suite, attempt, batch)["cpus_per_task"])

    def calibration_targets(self) -> list[str]:
        """Every selected case's calibration file."""
        return [self.layout.calibration(s, c) for s, c in self.cases]

    def released_files(self, suite: str, case: str) -> list[str]:
        """The files of the config's ``references`` folder that the case's reference is read from (none: the
        suite's plugin makes it)."""
        return [str(path) for path in self.released.get((suite, case), [])]

    def case_files(self, suite: str, case: str) -> list[str]:
        """Every file of the case's folder and of its oracle (a file or folder that cases may share outside it,
        such as ``../oracle_dolfinx.py``), computed once per case: an input of the rules that read the case, so
        an edited case or oracle reruns what depends on it (references and calibrations are the oracle's runs)."""
        key = ("files", suite, case)
        if key not in self._memo:
            spec = self.case(suite, case)
            roots = [spec.folder]
            oracle = Path(os.path.normpath(spec.folder / spec.hidden.oracle))
            if not oracle.resolve().is_relative_to(spec.folder.resolve()):
                roots.append(oracle)
            files = [p for root in roots for p in [root, *root.rglob("*")] if p.is_file()]
            self._memo[key] = sorted(str(p) for p in files)
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
