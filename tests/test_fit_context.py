"""Fitting a suite's optional prompt context into the model's context window: the generic fitter, the physics
and fem pieces at windows of 32K, 8K and 4K tokens, and the prompt step against the scripted server's window."""

from __future__ import annotations

import json

import pytest
from missing import require_or_skip
from openai_server import OpenAIServer

from simcodebench.agents.fit_context import (
    FIT_CHARS_PER_TOKEN,
    Window,
    agent_window,
    drop_order,
    fit_estimate,
    fit_messages,
    fitting,
    slot_values,
)
from simcodebench.agents.prompts import render_messages
from simcodebench.agents.settings import Agent
from simcodebench.core.cases import get_case
from simcodebench.core.errors import InfrastructureError
from simcodebench.core.plugin import ContextPiece
from simcodebench.pipeline.ask import make_prompt, make_response

KEY_ENV = "SIMCODEBENCH_FIT_TEST_KEY"


def _render(slots: dict[str, str]) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"MANDATORY\n{slots['docs']}\n--\n{slots['examples']}"}]


PIECES = [
    ContextPiece("docs", "core", "c" * 300, 0),
    ContextPiece("docs", "own", "o" * 300, 2),
    ContextPiece("docs", "other", "x" * 300, 4),
    ContextPiece("examples", "own example", "e" * 300, 1),
    ContextPiece("examples", "other example", "f" * 300, 3),
]


def _fit(suite: str, case_id: str, window: Window | None):
    with fitting(window) as fits:
        messages = render_messages(get_case(suite, case_id))
    return messages, fits[-1]


def _assert_in_drop_order(pieces: list[ContextPiece], dropped: tuple[ContextPiece, ...]) -> None:
    """The dropped pieces are a prefix of the drop order: nothing kept is less relevant than anything dropped."""
    order = [pieces[i] for i in drop_order(pieces)]
    assert list(dropped) == order[: len(dropped)]


def test_the_fitter_drops_whole_pieces_least_relevant_first_and_keeps_the_mandatory_text():
    full, fit = fit_messages(_render, PIECES, None)
    assert fit.dropped == () and all(p.text in full[0]["content"] for p in PIECES)  # no window: nothing dropped
    assert [PIECES[i].name for i in drop_order(PIECES)] == ["other", "other example", "own", "own example", "core"]
    for tokens in (500, 400, 300, 100):
        window = Window(tokens + 50, 50)
        messages, fit = fit_messages(_render, PIECES, window)
        assert fit.estimate == fit_estimate(messages) and messages[0]["content"].startswith("MANDATORY\n")
        _assert_in_drop_order(PIECES, fit.dropped)
        assert fit.estimate <= window.budget
        kept = [p for p in PIECES if p not in fit.dropped]
        assert all(p.text in messages[0]["content"] for p in kept)
        assert not any(p.text in messages[0]["content"] for p in fit.dropped)
        # as few dropped as fit: putting back the last one dropped would not fit
        if fit.dropped:
            last = PIECES.index(fit.dropped[-1])
            back = {i for i, p in enumerate(PIECES) if p not in fit.dropped or i == last}
            assert fit_estimate(_render(slot_values(PIECES, back))) > window.budget
    tiny, fit = fit_messages(_render, PIECES, Window(10, 8))  # the mandatory part alone is over the budget
    assert len(fit.dropped) == len(PIECES) and tiny[0]["content"] == "MANDATORY\n\n--\n"
    assert fit.record()["fits"] is False and fit.record()["pieces_offered"] == 5


def test_the_reply_reserve_is_max_tokens_else_a_quarter_of_the_window():
    assert agent_window(None, 512) is None
    assert agent_window(8192, 2048) == Window(8192, 2048) and Window(8192, 2048).budget == 6144
    assert agent_window(8192, None).reserve == 2048


def _require_genesis() -> None:
    from simcodebench.execution.environments import get_environment

    try:
        get_environment("genesis")
    except InfrastructureError as exc:
        require_or_skip("genesis", f"the genesis environment is not provisioned: {exc}")


@pytest.mark.parametrize("tokens,reply", [(32_768, 4096), (8192, 2048), (4096, 1024)])
def test_the_physics_prompt_keeps_the_cases_family_and_drops_the_rest_first(tokens, reply):
    _require_genesis()
    case = get_case("physics", "ball_drop")
    from simcodebench.core.registry import plugin_of

    pieces = plugin_of(case).optional_context(case)
    window = Window(tokens, reply)
    messages, fit = _fit("physics", "ball_drop", window)
    text = messages[-1]["content"]
    assert fit.estimate <= window.budget < fit_estimate(render_messages(case))  # it had to be trimmed, and fits
    _assert_in_drop_order(pieces, fit.dropped)
    for mandatory in ("[INSTRUCTION]: Simulate a solid steel ball", "Save the output file as", "[EXAMPLES]:"):
        assert mandatory in text
    dropped = {p.name for p in fit.dropped}
    assert "section gs.options.FEMOptions" in dropped  # another solver's options go first
    assert "section gs.init" not in dropped and "### gs.init(" in text
    if tokens >= 8192:  # the rigid example and the Scene's sections are kept; other families' examples went first
        assert "example examples/rigid_box_drop.py" not in dropped and "# rigid_box_drop.py" in text
        assert "### gs.Scene(" in text
        assert "example examples/sph_water_column.py" in dropped or tokens == 32_768
    if tokens == 32_768:
        assert "section gs.morphs.Sphere" not in dropped and "section gs.materials.Rigid" not in dropped
    if tokens == 4096:
        assert "section gs.morphs.Sphere" in dropped and "example examples/rigid_box_drop.py" in dropped


@pytest.mark.parametrize("tokens,reply", [(32_768, 4096), (8192, 2048), (4096, 1536)])
def test_the_fem_guide_loses_the_solves_the_case_does_not_need_then_its_example(tokens, reply):
    window = Window(tokens, reply)
    full = render_messages(get_case("fem", "poisson_square_kappa"))
    messages, fit = _fit("fem", "poisson_square_kappa", window)
    text = messages[-1]["content"]
    assert fit.estimate <= window.budget
    assert "## Case specification (authoritative)" in text and "def solve(case_spec: dict) -> dict:" in text
    if tokens > 4096:  # 32K and 8K hold the whole guide
        assert fit.dropped == () and messages == full
    else:  # 4K less 1536 for the reply: the nonlinear solves go first (Poisson is linear), then the worked example
        assert fit_estimate(full) > window.budget
        assert [p.name for p in fit.dropped][:2] == ["guide: Nonlinear solves", "guide: example"]
        assert "- Linear solves:" in text and "- Nonlinear solves:" not in text and "Example (Poisson" not in text
    _, nonlinear = _fit("fem", "navier_stokes_square", Window(3000, 0))
    assert nonlinear.dropped[0].name == "guide: Linear solves"  # Navier-Stokes keeps the nonlinear solves longest
    _, reaction = _fit("fem", "reaction_annulus_logistic", Window(3000, 0))
    assert reaction.dropped[0].name == "guide: Linear solves"  # so does a logistic reaction


@pytest.mark.parametrize("suite", ["fem", "fem-dealii"])
def test_the_guides_pieces_make_the_whole_guide(suite):
    from simcodebench.core.registry import plugin_of

    case = get_case(suite, "poisson_lshape_corner")
    pieces = plugin_of(case).optional_context(case)
    guide = (case.suite.folder / case.suite.data["prompt"]["guide"]).read_text()
    assert "\n".join(p.text for p in pieces) == guide and len(pieces) >= 7
    assert pieces[0].name == "guide: opening" and pieces[-1].name == "guide: example"


def test_the_prompt_step_fits_the_servers_window_records_the_drops_and_sends_a_prompt_that_fits(tmp_path, monkeypatch):
    """``max_model_len`` from the scripted server's ``/v1/models`` decides the fit; the request it receives fits
    the window less ``max_tokens``; ``messages.json`` and ``prompt.md`` say what was dropped; another window is
    another cache key; a window too small even for the mandatory prompt is F-Context, nothing sent."""
    monkeypatch.setenv(KEY_ENV, "sk-test")
    case = get_case("fem", "navier_stokes_square")
    sent_messages = {}
    for model, window in (("small-model", 3000), ("tiny-model", 400)):
        with OpenAIServer(windows={model: window}) as server:
            settings = {"backend": "openai", "model": model, "base_url": server.url, "api_key_env": KEY_ENV}
            agent = Agent(name=model, settings={**settings, "max_tokens": 500, "backoff_s": 0.01})
            here = tmp_path / model
            make_prompt(agent, case, 0, here / "prompt.md", here / "messages.json")
            make_response(agent, case, 0, 0, here / "messages.json", here / "response.json", tmp_path / "cache")
            payload = json.loads((here / "messages.json").read_text())
            response = json.loads((here / "response.json").read_text())
            record = payload["context_fit"]
            assert record["window_tokens"] == window and record["reply_reserve_tokens"] == min(500, window // 2)
            assert record["dropped"] and record["dropped"][0]["name"] == "guide: Linear solves"
            assert "optional pieces: guide: Linear solves" in (here / "prompt.md").read_text()
            sent_messages[model] = payload["messages"]  # what the reply cache hashes
            if model == "small-model":
                assert record["fits"] and server.count == 1 and response["status"] == "ok"
                sent = sum(len(m["content"]) for m in server.requests[0].json["messages"])
                assert sent / FIT_CHARS_PER_TOKEN <= window - 500
                assert "- Nonlinear solves:" in server.requests[0].json["messages"][-1]["content"]
            else:
                assert not record["fits"] and len(record["dropped"]) == record["pieces_offered"]
                assert server.count == 0 and response["status"] == "context"
                assert "cannot fit the context window of 400 tokens" in response["reason"]
    assert sent_messages["small-model"] != sent_messages["tiny-model"]
