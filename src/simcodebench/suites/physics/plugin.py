"""The ``physics`` plugin: PhysCodeBench, Genesis scenes rendered to a 5 s video, scored by PhysCodeEval's code
points and by physics-state checks against the reference scene."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from simcodebench.core.cases import Case
from simcodebench.core.measurement import Measurement
from simcodebench.core.plugin import ContextPiece, EnvironmentSpec, ReportSection, SuitePlugin
from simcodebench.core.references import Reference
from simcodebench.suites.physics import fresh, fresh_plastic, fresh_verify, report, scorer

if TYPE_CHECKING:
    import numpy as np

    from simcodebench.core.fresh import FreshCheck, FreshDraw

GENESIS = EnvironmentSpec(
    "genesis",
    ("torch==2.13.0", "genesis-world==1.4.5", "av==18.1.0"),
    smoke_test="import av, torch, genesis; assert torch.__version__.startswith('2.13.0'), torch.__version__",
    warmup=(
        "import genesis as gs; gs.init(backend=gs.cpu, logging_level='warning'); "
        "s = gs.Scene(show_viewer=False); s.add_entity(gs.morphs.Plane()); "
        "s.add_entity(gs.morphs.Sphere(radius=0.1, pos=(0, 0, 1))); "
        "c = s.add_camera(res=(64, 32), pos=(2, 2, 1), lookat=(0, 0, 0.3), GUI=False); s.build(); "
        "[(s.step(), c.render()) for _ in range(3)]"
    ),
)
"""Genesis on PyTorch (torch first: here it resolves to the local CPU wheel; see docs/runtimes.md for CPU or
CUDA indexes elsewhere) and PyAV, which the scorer uses to read the videos. The warm-up compiles the kernels of a
rigid scene and its camera (minutes cold), which every run then finds in its copy of the cache."""


class PhysicsSuite(SuitePlugin):
    """PhysCodeBench (``cases/physics``): the video's file spec, the simulated states against the reference's."""

    name = "physics"

    def generate_reference(self, case: Case) -> Reference:
        """The oracle scene's recorded states."""
        return scorer.generate_reference(case)

    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """The video's file spec and the physics checks of the recorded states."""
        return scorer.measure(case, run_dir, reference)

    def timed_metrics(
        self, case: Case, run: dict[str, Any], tau_time: float | None, metrics: dict[str, float]
    ) -> dict[str, float]:
        """S_exec, earned by a run that ended cleanly within the calibrated limit, and the code score."""
        return scorer.timed_metrics(case, run, tau_time, metrics)

    def prepare_run(self, case: Case, run_dir: Path) -> None:
        """The runner that records the scene's states, and a copy of the kernel cache."""
        scorer.prepare_run(case, run_dir)

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """New sizes, heights, angles, speeds, friction, layouts and materials of every scene, their
        checks computed from the draw (:mod:`.fresh`; the domino chain and the ball on the jelly
        slab scaled by geometric similarity, the floating ball by Archimedes in the water Genesis settles into,
        the clay and snow drops' flattening predicted from the published scenes' Genesis runs and checked by a
        Genesis run in the verification)."""
        return fresh.fresh_draw(family, rng)

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """Parameter-level: the oracle, run against a recording stand-in for Genesis, builds the drawn scene; the
        checks are their closed forms; the draw can run as stated; the motion settles within the shortest video
        (:func:`.fresh_verify.verify`); no Genesis run, except for the clay and snow drops, whose predicted
        flattening Genesis's run of the fresh oracle must bear out (:func:`.fresh_plastic.genesis_gate`)."""
        check = fresh_verify.verify(case, workdir)
        if fresh_plastic.measured_family(case):
            return fresh_plastic.genesis_gate(case, workdir, check)
        return check

    def oracle_source(self, case: Case) -> str:
        """The oracle with the suite's video contract."""
        return scorer.oracle_source(case)

    def adapt_solution(self, case: Case, source: str) -> str:
        """A second solution with the variant's video contract, as the oracle (its ``RES, FPS, SECONDS`` line)."""
        return scorer.with_contract(case, source)

    def prompt_context(self, case: Case) -> dict[str, Any]:
        """The video contract."""
        return scorer.prompt_context(case)

    def optional_context(self, case: Case) -> list[ContextPiece]:
        """The Genesis documentation and examples, ranked for the case."""
        return scorer.optional_context(case)

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """A frame strip of the sample's video above the oracle's."""
        return scorer.plot_comparison(case, run_dir, reference, png)

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """PhysCodeBench's Table 1 with our physics score, and per case."""
        return report.sections(frame)

    def environments(self) -> list[EnvironmentSpec]:
        """``genesis``."""
        return [GENESIS]
