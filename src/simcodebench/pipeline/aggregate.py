"""The ``aggregate`` stage (``workflow/rules/aggregate.smk``): each sample's ``final.json`` (the attempt that
stands for it), then the summary: ``scores.csv``, the tables (the suites' own through their plugins), the
failure-class plot, the field figures and a page per failed sample and a few passed ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcodebench.agents.strategies import get_strategy
from simcodebench.core.case_failures import CASE_FAILED
from simcodebench.core.io import atomic_write_text, read_json, write_json
from simcodebench.core.references import load_reference
from simcodebench.core.registry import plugin_of
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.status import refresh as refresh_status
from simcodebench.report.agents import agents_markdown
from simcodebench.report.collect import collect_samples
from simcodebench.report.sample_pages import write_sample_pages
from simcodebench.report.summary import write_summary


def make_final(score_paths: list[Path], out: Path) -> None:
    """Pick the attempt that stands for the sample, as its strategy selects, and write ``final.json`` (left
    as it is, mtime too, when its content would not change)."""
    scores = [read_json(p) for p in score_paths]
    chosen = get_strategy(scores[0]["strategy"]).select_attempt(scores)
    final = {k: chosen[k] for k in ("agent", "suite", "case", "sample", "mutant", "declared_class")} | {
        "attempts": len(scores),
        "asked": sum(s["status"] != "skipped" for s in scores),
        "strategy": chosen["strategy"],
        "selected_attempt": chosen["attempt"],
        "selected_stage": chosen["stage"],
        "passed": chosen["passed"],
        "failure_class": chosen["failure_class"],
        "error": chosen.get("error"),
    }
    if not (out.is_file() and read_json(out) == final):  # NaN never equals itself: an error of NaN is rewritten
        write_json(out, final)


def make_summary(plan: Plan, final_paths: list[Path], out_dir: Path) -> None:
    """Aggregate the planned samples into ``scores.csv``, the markdown tables, the failure-class plot,
    for every agent and field case sample 0's selected attempt drawn beside the reference, and the sample pages
    (:mod:`simcodebench.report.sample_pages`), linked from the tables; ``summary.md`` ends with what each agent
    is."""

    plugins = {suite: plugin_of(case) for (suite, _), case in plan.cases.items()}
    write_summary(Path(plan.layout.runs), out_dir, plugins, final_paths)
    summary = out_dir / "summary.md"
    atomic_write_text(summary, summary.read_text() + agents_markdown(plan.agents), mode=0o644)
    fields_dir = out_dir / "fields"
    fields_dir.mkdir(parents=True, exist_ok=True)
    for path in final_paths:
        final = read_json(path)
        if final["sample"] != 0 or final["failure_class"] == CASE_FAILED:
            continue
        case = plan.case(final["suite"], final["case"])
        run_dir = path.parent / str(final["selected_attempt"]) / "run"
        png = fields_dir / f"{final['agent']}__{case.suite.name}__{case.id}.png"
        paths = plan.case_outputs(case.suite.name, case.id)
        reference = load_reference(Path(paths["ref_json"]), Path(paths["ref_h5"]))
        plugin_of(case).plot_comparison(case, run_dir, reference, png)
    write_sample_pages(plan.layout, collect_samples(final_paths), lambda row, png: _draw(plan, row, png))


def _draw(plan: Plan, row: dict[str, Any], png: Path) -> bool:
    """Draw one sample's attempt (``row``: its row of the tidy frame) beside the reference into ``png``."""
    case = plan.case(row["suite"], row["case"])
    paths = plan.case_outputs(row["suite"], row["case"])
    reference = load_reference(Path(paths["ref_json"]), Path(paths["ref_h5"]))
    run_dir = Path(plan.layout.attempt_dir(row["agent"], row["suite"], row["case"], row["sample"], row["attempt"]))
    return plugin_of(case).plot_comparison(case, run_dir / "run", reference, png)


def run(plan: Plan, input: Any, output: Any) -> None:
    """Rule ``aggregate`` (its inputs, the batch records, say every attempt is scored): each sample's
    ``final.json``, then the summary, then the run's status file, exact now (:func:`.status.refresh`)."""
    finals = [Path(p) for p in plan.final_targets()]
    for final in finals:
        make_final([Path(p) for p in plan.score_paths(*final.parent.parts[-4:])], final)
    make_summary(plan, finals, Path(output.csv).parent)
    refresh_status(plan, force=True)
