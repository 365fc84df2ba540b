"""The second-solution mechanism: the ``alternative`` backend, mutants of the second solution, the summary's
self-check table, and the problem text a variant that keeps the released wording shows."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cfd_code_support import REPO, case
from test_aggregate import _sample

from simcodebench.agents.backends.alternative import alternative_reply, has_alternative
from simcodebench.agents.backends.mutant import build_mutant, mutant_names
from simcodebench.agents.prompts import render_messages
from simcodebench.agents.settings import Agent, load_agents
from simcodebench.core.cases import get_case
from simcodebench.core.errors import InputError
from simcodebench.report.breakdowns import self_check_stats
from simcodebench.report.collect import collect
from simcodebench.report.tables import write_tables

WITH = "1D_Diffusion"  # has a second solution


def _without():
    """A case with no second solution: 1D_Diffusion with its ``hidden.alternative`` taken out (every cfd-code
    case has one since the cylinder's)."""
    the_case = case(WITH)
    return replace(the_case, hidden=replace(the_case.hidden, alternative=None))


def _source(reply: str) -> str:
    return reply.split("\n", 1)[1].rsplit("```", 1)[0]


def test_the_alternative_answers_with_the_second_solution_and_only_where_there_is_one() -> None:
    the_case = case(WITH)
    written = (the_case.folder / "alternative_solution.py").read_text()
    assert _source(alternative_reply(the_case)).strip() == written.strip()
    agent = Agent("alt", {"backend": "alternative"})
    assert agent.samples(the_case) == 1
    assert not has_alternative(_without()) and agent.samples(_without()) == 0


def test_a_mutant_of_the_second_solution_breaks_it_and_is_named_for_it() -> None:
    the_case = case(WITH)
    agent = Agent("m", {"backend": "mutant", "base": "alternative", "mutants": ["wrong-answer", "raises"]})
    assert agent.samples(the_case) == 2 and agent.samples(_without()) == 0
    assert mutant_names(the_case, agent.mutant_selection, agent.mutant_base) == ["raises", "wrong-answer"]
    mutant = build_mutant(the_case, 1, None, agent.mutant_selection, agent.mutant_base)
    assert mutant.name == "wrong-answer@alternative" and mutant.declared_class == "F-Acc"
    assert "Crank-Nicolson" in mutant.source and "1.5 * _mnp.asarray" in mutant.source
    plain = build_mutant(the_case, mutant_names(the_case).index("wrong-answer"), None)
    assert plain.name == "wrong-answer" and "Crank-Nicolson" not in plain.source


def test_a_case_may_declare_another_class_for_the_mutant_of_its_second_solution() -> None:
    """foam's cavity: a too-large time step crashes the oracle's run (F-Exec); with the second solution's PCG
    solver the run ends with a wrong answer (F-Acc, measured); the same edit is made in both."""
    cavity = get_case("foam", "cavity-1")
    index = mutant_names(cavity).index("unstable-time-step")
    on_oracle = build_mutant(cavity, index, None)
    on_second = build_mutant(cavity, index, None, base="alternative")
    assert (on_oracle.declared_class, on_second.declared_class) == ("F-Exec", "F-Acc")
    assert on_second.name == "unstable-time-step@alternative"
    for mutant in (on_oracle, on_second):
        assert "deltaT 0.1;" in " ".join(mutant.source["system/controlDict"].split())


def test_base_and_mutants_belong_to_mutant_agents_only(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"agents\.o\.base"):
        load_agents({"agents": {"o": {"backend": "oracle", "base": "alternative"}}}, "config.yaml")
    agents = load_agents({"agents": {"a": {"backend": "alternative"}}}, "config.yaml")
    assert agents["a"].backend == "alternative"


def test_the_legacy_variant_gives_the_second_solution_the_released_layout() -> None:
    legacy = get_case("cfd-code@legacy", WITH, root=REPO / "cases")
    source = _source(alternative_reply(legacy))
    assert source.rstrip().endswith('np.save("u.npy", u)')


def test_the_legacy_prompt_keeps_the_released_wording_and_ours_states_alpha() -> None:
    ours = render_messages(case("2D_Unsteady_Heat_Equation"))[-1]["content"]
    legacy = render_messages(get_case("cfd-code@legacy", "2D_Unsteady_Heat_Equation", root=REPO / "cases"))
    assert "\\alpha = 1" in ours
    assert "\\alpha = 1" not in legacy[-1]["content"] and "\\alpha" in legacy[-1]["content"]


def test_the_self_check_table_shows_oracle_second_solution_and_mutants(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    _sample(root, "oracle", "s1", "a", 0, ["Pass"], declared="Pass")
    _sample(root, "alternative", "s1", "a", 0, ["Pass"], declared="Pass")
    _sample(root, "alternative", "s1", "b", 0, ["F-Conv"], declared="Pass")
    _sample(root, "alt-mutants", "s1", "a", 0, ["F-Acc"], mutant="wrong-answer@alternative", declared="F-Acc")
    frame = collect(root)
    frame["model"] = frame["agent"].map({"oracle": "oracle", "alternative": "alternative"})
    stats = self_check_stats(frame).set_index(["agent", "failure_class"])
    assert stats.loc[("alternative", "Pass"), "solution"] == "alternative"
    assert not stats.loc[("alternative", "F-Conv"), "match"]
    assert stats.loc[("alt-mutants", "F-Acc"), "solution"] == "wrong-answer@alternative"
    assert bool(stats.loc[("oracle", "Pass"), "match"])
    write_tables(frame, tmp_path / "summary", {})
    page = (tmp_path / "summary" / "s1.md").read_text()
    assert "## Self-check: oracle, second solutions and mutants" in page
    assert "| alternative | alternative | Pass | F-Conv | 1 | no |" in page
    assert "| alt-mutants | wrong-answer@alternative | F-Acc | F-Acc | 1 | yes |" in page
