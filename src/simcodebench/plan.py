"""The run plan the workflow expands: which agents, cases, samples and attempts, and where their files go."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .agents import Agent, load_agents
from .cases import Case, load_suite_cases
from .errors import InputError
from .project import cases_root

RESULTS = "results"
"""Every output goes under ``results/`` of the working directory (``snakemake --directory`` moves it)."""


@dataclass(frozen=True)
class Plan:
    """Agents and cases selected by the config, with path helpers for the rules."""

    agents: dict[str, Agent]
    cases: dict[tuple[str, str], Case]
    runtime: str = "auto"
    force_reply: bool = False
    results: str = RESULTS

    @classmethod
    def from_config(cls, config: dict[str, Any], config_file: str = "config/config.yaml") -> Plan:
        """Build the plan; bad agents, suites or case ids raise one :class:`InputError` line."""
        root = Path(config.get("cases_dir") or cases_root())
        cases: dict[tuple[str, str], Case] = {}
        wanted = config.get("cases") or {}
        for suite in config["suites"]:
            folder = root / suite
            if not (folder / "suite.yaml").is_file():
                raise InputError(
                    config_file,
                    "suites",
                    f"'{suite}' has no {folder}/suite.yaml",
                    "name a folder of cases/ that holds a suite.yaml",
                )
            available = {c.id: c for c in load_suite_cases(folder)}
            for case_id in wanted.get(suite) or sorted(available):
                if case_id not in available:
                    raise InputError(
                        config_file,
                        f"cases.{suite}",
                        f"'{case_id}' is not a case of {suite}",
                        f"use one of {sorted(available)}",
                    )
                cases[(suite, case_id)] = available[case_id]
        return cls(
            agents=load_agents(config, config_file),
            cases=cases,
            runtime=config.get("runtime", "auto"),
            force_reply=bool(config.get("force_reply", False)),
        )

    def case(self, suite: str, case: str) -> Case:
        """The case behind the ``suite`` and ``case`` wildcards."""
        return self.cases[(suite, case)]

    def sample_dir(self, agent: str, suite: str, case: str, sample: int | str) -> str:
        """``results/runs/<agent>/<suite>/<case>/<sample>``."""
        return f"{self.results}/runs/{agent}/{suite}/{case}/{sample}"

    def final_targets(self) -> list[str]:
        """Every sample's ``final.json``."""
        return [
            f"{self.sample_dir(a.name, s, c, i)}/final.json"
            for a in self.agents.values()
            for (s, c), case in self.cases.items()
            for i in range(a.samples(case))
        ]

    def score_paths(self, agent: str, suite: str, case: str, sample: str) -> list[str]:
        """Every attempt's ``score.json`` of one sample."""
        base = self.sample_dir(agent, suite, case, sample)
        return [f"{base}/{a}/score.json" for a in range(self.agents[agent].attempts)]

    def calibration_targets(self) -> list[str]:
        """Every selected case's calibration file."""
        return [f"{self.results}/calibration/{s}/{c}.json" for s, c in self.cases]

    def resources(self, suite: str, case: str) -> dict[str, Any]:
        """Cluster resources of an execution of the case."""
        res = self.case(suite, case).resources
        return {
            "runtime": max(1, math.ceil(float(res["wall_s"]) / 60) + 1),
            "mem_mb": int(res["mem_mb"]) + 512,
            "cpus_per_task": int(res["cpus"]),
            "tasks": int(res["tasks"]),
        }
