"""The physics prompt's context: trimming to the token budget, our examples, and the loader on Genesis's own
examples folder (../shared/upstream/genesis/examples, skipped where absent)."""

from __future__ import annotations

import pytest
from missing import require_or_skip
from pipeline import REPO

from simcodebench.core.errors import InfrastructureError
from simcodebench.suites.physics.context import build_context, estimate_tokens, example_files, trim_sections

OWN = REPO / "cases" / "physics" / "examples"
UPSTREAM = REPO.parent / "shared" / "upstream" / "genesis" / "examples"
REFERENCE = "# API\n\n### gs.A()\n\n" + "a" * 400 + "\n### gs.B()\n\n" + "b" * 400 + "\n### gs.C()\n\n" + "c" * 400


def test_the_reference_is_cut_at_a_section_boundary():
    assert trim_sections(REFERENCE, 10_000) == REFERENCE
    cut = trim_sections(REFERENCE, 250)
    assert "### gs.B()" in cut and "### gs.C()" not in cut and cut.endswith("b" * 400)
    assert estimate_tokens(cut) <= 250


def test_examples_fill_the_rest_whole_and_what_does_not_fit_is_dropped():
    files = example_files(OWN, None)
    assert [f.name for f in files] == ["mpm_elastic_cube.py", "rigid_box_drop.py", "sph_water_column.py"]
    full = build_context(REFERENCE, files, {"token_budget": 100_000})
    assert full.dropped == [] and all(f"# {f.name}" in full.examples for f in files)
    small = build_context(REFERENCE, files, {"token_budget": 600, "reference_share": 0.5})
    assert small.tokens <= 600 and small.dropped
    assert "### gs.A()" in small.documentation and "### gs.C()" not in small.documentation


def test_a_folder_of_genesis_examples_is_loaded_and_trimmed():
    if not UPSTREAM.is_dir():
        pytest.skip(f"no upstream Genesis examples at {UPSTREAM}")
    files = example_files(OWN, UPSTREAM)
    upstream = [f for f in files if f.is_relative_to(UPSTREAM)]
    assert len(upstream) > 50 and upstream == sorted(upstream)
    built = build_context(REFERENCE, files, {"token_budget": 32_000})
    assert built.tokens <= 32_000 and built.dropped  # 32K (the paper's budget for 32B models) cannot hold them all
    assert "# rigid_box_drop.py" in built.examples  # ours come first


def test_a_wrong_examples_folder_is_named(tmp_path):
    with pytest.raises(InfrastructureError, match="examples_dir"):
        example_files(OWN, tmp_path / "absent")


def test_the_prompt_is_the_papers_template_with_the_generated_reference():
    from simcodebench.agents.prompts import render_messages
    from simcodebench.core.cases import get_case
    from simcodebench.execution.environments import get_environment

    try:
        get_environment("genesis")
    except InfrastructureError as exc:
        require_or_skip("genesis", f"the genesis environment is not provisioned: {exc}")
    full = render_messages(get_case("physics", "ball_drop"))[-1]["content"]
    assert full.startswith("You are an expert programmer specializing in physical simulations using the Genesis")
    for line in (
        "- Set the resolution to 1280x640 pixels",
        "- Use a frame rate of 60 fps",
        "- Generate a 5-second video",
    ):
        assert line in full
    assert "[INSTRUCTION]: Simulate a solid steel ball" in full
    for name in (
        "### gs.Scene(",
        "#### gs.Scene.add_camera(",
        "start_recording",
        "gs.morphs.Sphere",
        "gs.materials.MPM",
    ):
        assert name in full, name
    smoke = render_messages(get_case("physics@smoke", "ball_drop"))[-1]["content"]
    assert "- Set the resolution to 320x160 pixels" in smoke and "- Generate a 1-second video" in smoke
    assert estimate_tokens(smoke) < 8_000 + 1_000  # the smoke budget, plus the template and the instruction
    # the engine's known defect (DFSPH's double gravity, measured) survives the smoke budget's cut of a fluid case
    fluid = render_messages(get_case("physics@smoke", "water_drop_tank"))[-1]["content"]
    assert 'Known issue of this version: `gs.options.SPHOptions(pressure_solver="DFSPH")`' in fluid
