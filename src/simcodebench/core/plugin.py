"""The suite plugin contract: every hook the pipeline calls on a benchmark's own code.

A benchmark is a folder of cases (``cases/<suite>/``, whose ``suite.yaml`` names its plugin in ``plugin``) and one
subclass of :class:`SuitePlugin`. The pipeline finds plugins by name (:mod:`simcodebench.core.registry`) and calls
only the hooks below: :meth:`~SuitePlugin.generate_reference` and :meth:`~SuitePlugin.measure` are required,
every other hook has a default that does nothing. docs/adding-a-benchmark.md walks through one.
"""

from __future__ import annotations

import abc
import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from simcodebench.core.errors import InputError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from simcodebench.core.cases import Case
    from simcodebench.core.fresh import FreshCheck, FreshDraw
    from simcodebench.core.measurement import Measurement
    from simcodebench.core.references import Reference

MutantOperation = Callable[[Any, Any], Any]
"""A mutant operation: (the oracle's artifact, a ``MutationContext``) -> the mutant's artifact, or None for no
reply (see :mod:`simcodebench.agents.backends.mutant`)."""

CommandGroups = Mapping[str, "argparse._SubParsersAction[argparse.ArgumentParser]"]
"""The command line's groups a plugin adds subcommands to, by name: ``import`` (upstream data as cases),
``replay`` (recorded generations as a replay file) and ``compare`` (our scores beside upstream's)."""


@dataclass(frozen=True)
class ReportSection:
    """One section a suite adds to the summary pages: a heading and its markdown (tables and notes)."""

    title: str
    markdown: str


@dataclass(frozen=True)
class ContextPiece:
    """A removable piece of a prompt's optional context: a section of a guide or API reference, or an example.

    ``slot`` is the template slot it goes in: a slot's value is its kept pieces joined by newlines, in the order
    :meth:`SuitePlugin.optional_context` lists them (all of them make the prompt as it is when nothing must be
    dropped). ``rank`` is its relevance to the case, 0 the most relevant: when the prompt must be shortened to fit
    the model's context window, the pieces of the highest rank go first, the last listed first among equals
    (:mod:`simcodebench.agents.fit_context`). ``name`` says which piece it is in the record of what was dropped.
    """

    slot: str
    name: str
    text: str
    rank: int


@dataclass(frozen=True)
class EnvironmentSpec:
    """A solver environment a suite runs in, as ``simcodebench env setup NAME`` provisions it.

    ``kind`` is ``pip`` (a virtualenv of the pinned ``packages``) or ``apt`` (Debian packages, checked and, as
    root, installed). ``min_python``: the interpreter the wheels need, when newer than the harness's.
    ``smoke_test``: code the environment's interpreter must run after provisioning. ``warmup``: code run once
    with ``XDG_CACHE_HOME`` at the environment's kernel cache (compiled kernels every run then copies).
    The same versions are pinned in ``workflow/envs/<name>.yaml`` and ``containers/<name>.def``.
    """

    name: str
    packages: tuple[str, ...]
    kind: Literal["pip", "apt"] = "pip"
    min_python: tuple[int, int] | None = None
    smoke_test: str | None = None
    warmup: str | None = None


class SuitePlugin(abc.ABC):
    """A benchmark's code, called by the pipeline. Subclass it, set :attr:`name` (the ``plugin`` that
    ``suite.yaml`` names), implement the two abstract hooks and override any optional one."""

    name: ClassVar[str]
    """The name a ``suite.yaml`` gives in its ``plugin`` field (several suite folders may share a plugin)."""

    fresh_note: ClassVar[str] = "its plugin has no generator of fresh cases"
    """Why ``simcodebench generate`` can make no fresh case of the suite, when :meth:`fresh_case` returns None for
    every family (cfd-query: a new multiple-choice question needs an author)."""

    mutant_operations: ClassVar[Mapping[str, MutantOperation]] = {}
    """Mutant operations of the suite's own artifacts, beside the generic program edits; ``suite.yaml``'s
    ``mutants`` name them in ``op``."""

    @abc.abstractmethod
    def generate_reference(self, case: Case) -> Reference:
        """The case's hidden reference, made from ``case.hidden.reference`` (``generator`` and ``params``) by a
        closed form, a finer solve or a reference run. Raise :class:`~simcodebench.core.errors.InfrastructureError`
        for a broken machine; any other exception marks the case F-Case."""

    @abc.abstractmethod
    def measure(self, case: Case, run_dir: Path, reference: Reference) -> Measurement:
        """Read the outputs a run wrote under ``run_dir`` (as ``case.visible.contract`` describes them) and
        measure them against the reference: the outcome (missing, format, nonfinite, invalid or ok) and, when
        ok, the error the accuracy gate compares with its threshold."""

    def released_reference_files(self, case: Case, folder: Path, field: str) -> list[Path]:
        """The files of ``folder`` (the config's ``references`` entry ``field`` for the case's suite) that the
        case's reference is read from instead of being made, checked without reading them whole; raise
        :class:`~simcodebench.core.errors.InputError` naming the file, ``field`` and the fix where one is missing
        or wrong. The default: the suite reads no reference from a folder."""
        raise InputError(folder, field, f"suite {case.suite.name} reads no reference from a folder", f"remove {field}")

    def read_released_reference(self, case: Case, files: list[Path]) -> Reference:
        """The case's reference read from the ``files`` that :meth:`released_reference_files` returned."""
        raise NotImplementedError(f"suite {case.suite.name} reads no reference from a folder")

    def plot_comparison(self, case: Case, run_dir: Path, reference: Reference, png: Path) -> bool:
        """Draw the run's fields beside the reference and their difference into ``png``; False where the case has
        no field to draw (the default)."""
        return False

    def prompt_context(self, case: Case) -> dict[str, Any]:
        """Extra slots for the suite's prompt templates, built from the case's visible part only."""
        return {}

    def optional_context(self, case: Case) -> list[ContextPiece]:
        """The prompt's optional context as removable pieces (documentation sections, examples) with their
        relevance, built from the case's visible part only; their slots join the template's slots beside
        :meth:`prompt_context`'s. What is left when every piece is dropped is the mandatory prompt. An empty list
        (the default): the prompt has no optional context and is never shortened."""
        return []

    def oracle_source(self, case: Case) -> Any | None:
        """The case's oracle artifact when the suite builds it (a shared solver and its settings); None (the
        default) reads ``hidden.oracle`` as it is."""
        return None

    def convergence_error(self, case: Case, measurement: Measurement) -> float:
        """The error the convergence check compares before and after refinement (an ``ok`` measurement's); the
        default is the accuracy gate's error. A suite narrows it to the quantities that converge where the
        gate's error holds one that does not (a pressure singular at a cavity's lid corners)."""
        assert measurement.error is not None
        return measurement.error

    def adapt_solution(self, case: Case, source: Any) -> Any:
        """A solution written to the suite's contract, adapted to the variant the case runs under (the released
        output layout of ``cfd-code@legacy``); applied to a case's second solution (``hidden.alternative``).
        The default returns it as it is."""
        return source

    def prepare_run(self, case: Case, run_dir: Path) -> None:
        """Put the harness's own files next to the solution in the sandbox (a runner, the visible spec)."""
        return None

    def diagnose(self, case: Case, solution_dir: Path) -> dict[str, float]:
        """Diagnostics of the extracted artifact itself, reported and never gating."""
        return {}

    def in_process_seconds(self, case: Case, run_dir: Path) -> float | None:
        """The seconds the run's solve took inside its process, as the run itself measured them (no interpreter
        start, imports or output writing), for calibrations with ``timing: released``; None (the default) where
        the suite's runs do not measure it."""
        return None

    def run_metrics(self, case: Case, run_dir: Path) -> dict[str, float]:
        """Metrics of a run that started, whatever its outcome (what the run itself measured)."""
        return {}

    def timed_metrics(
        self, case: Case, run: dict[str, Any], tau_time: float | None, metrics: dict[str, float]
    ) -> dict[str, float]:
        """Metrics of a scored attempt that need its run record and its calibrated time limit."""
        return {}

    def report(self, frame: pd.DataFrame) -> list[ReportSection]:
        """The suite's own sections of the summary (its paper's tables), from the tidy frame of its samples
        (``scores.csv``'s rows, F-Case samples left out)."""
        return []

    def environments(self) -> list[EnvironmentSpec]:
        """The solver environments the suite brings (its ``suite.yaml`` names one in ``environment``)."""
        return []

    def add_commands(self, groups: CommandGroups) -> None:
        """Add the suite's subcommands (an importer, a replay or compare command) to the command line's groups;
        each sets ``func`` (``args -> exit status``) with ``set_defaults``."""
        return None

    def fresh_case(self, family: Case, rng: np.random.Generator) -> FreshDraw | None:
        """A new, never-published instance of the published case ``family`` (docs/fresh-variants.md): the same
        templates and problem statement with new numbers and shapes (coefficients, forcing, manufactured solution,
        geometry, loads, initial states) drawn from ``rng`` within the family's stated ranges, and a reference
        that follows from them. Deterministic in ``rng`` (no clock, no absolute paths in what it returns).
        None (the default): the family has no generator; ``simcodebench generate`` then draws the other
        families, and says :attr:`fresh_note` when no family has one."""
        return None

    def verify_fresh_case(self, case: Case, workdir: Path) -> FreshCheck:
        """Check a drawn case's reference before it is kept (a manufactured solution's convergence rate under
        refinement, a closed form against a solver, two solvers or two refinement levels agreeing), working in
        the scratch folder ``workdir``; a check that is not ``ok`` drops the draw. Called only on cases
        :meth:`fresh_case` made; the default refuses, so a suite with a generator must say how it verifies."""
        from simcodebench.core.fresh import FreshCheck

        return FreshCheck(ok=False, detail={"reason": f"plugin {self.name} does not verify fresh cases"})
