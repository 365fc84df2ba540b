"""The physics report: PhysCodeBench's Table 1 with our physics column on hand-made scores (the expected numbers
worked out by hand in the comments), the case metadata behind its breakdowns, and the frame strips on small
videos made here with PyAV."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import av
import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from simcodebench.core.cases import get_case
from simcodebench.core.registry import plugin
from simcodebench.report.collect import COLUMNS
from simcodebench.report.tables import suite_markdown
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.metadata import case_metadata
from simcodebench.suites.physics.report import physics_markdown, physics_stats
from simcodebench.suites.physics.strips import oracle_video, video_frames

RIGID_EASY = {"case_hard": 0.0, "case_rigid": 1.0, "case_soft": 0.0, "case_fluid": 0.0, "case_mechanics": 0.0}
SOFT_FLUID_HARD = {"case_hard": 1.0, "case_rigid": 0.0, "case_soft": 1.0, "case_fluid": 1.0, "case_mechanics": 0.0}
MECH_EASY = {"case_hard": 0.0, "case_rigid": 0.0, "case_soft": 0.0, "case_fluid": 0.0, "case_mechanics": 1.0}


def _row(agent, case, sample, meta, cls="Pass", final=True, **metrics):
    return {
        "agent": agent,
        "suite": "physics",
        "case": case,
        "sample": sample,
        "attempt": 0,
        "final": final,
        "failure_class": cls,
        "mutant": None,
        "metrics": json.dumps({**meta, **metrics}),
    }


@pytest.fixture
def frame() -> pd.DataFrame:
    rows = [
        # no visual models: A (easy, rigid) code 50 and 40, physics 100 and 50 -> 45 and 75
        _row("m", "A", 0, RIGID_EASY, code=50.0, s_exec=25.0, physics=100.0),
        _row("m", "A", 1, RIGID_EASY, "F-Acc", code=40.0, s_exec=25.0, physics=50.0),
        # B (hard, soft and fluid): code 25, and a run that failed (code 0, no physics) -> 12.5, physics 0
        _row("m", "B", 0, SOFT_FLUID_HARD, "F-Format", code=25.0, s_exec=25.0, physics=0.0),
        _row("m", "B", 1, SOFT_FLUID_HARD, "F-Exec", code=0.0, s_exec=0.0),
        # C (easy, mechanics): code 30, physics 60
        _row("m", "C", 0, MECH_EASY, "F-Acc", code=30.0, s_exec=25.0, physics=60.0),
        # neither a non-final attempt nor an infrastructure failure counts
        _row("m", "C", 0, MECH_EASY, final=False, code=50.0, s_exec=25.0, physics=100.0),
        _row("m", "C", 1, MECH_EASY, "F-Infra", code=0.0, s_exec=0.0),
        # with visual scores: A total 50 + 20 + 10 = 80, B 40 + 10 + 5 = 55
        _row("v", "A", 0, RIGID_EASY, code=50.0, s_exec=25.0, s_clip=20.0, s_motion=10.0, physics=100.0),
        _row("v", "B", 0, SOFT_FLUID_HARD, code=40.0, s_exec=25.0, s_clip=10.0, s_motion=5.0, physics=50.0),
    ]
    full = pd.DataFrame(rows)
    for column, dtype in COLUMNS.items():  # the rest of scores.csv's columns, as a scored attempt has them
        if column not in full:
            full[column] = {"bool": False, "int64": 0, "float64": 0.0}.get(dtype)
    full["status"] = "scored"
    full["passed"] = full["failure_class"] == "Pass"
    return full.astype({c: t for c, t in COLUMNS.items() if t in ("bool", "int64", "float64")})


def test_table_1_averages_samples_then_cases(frame):
    stats = physics_stats(frame).set_index("agent")
    m = stats.loc["m"]
    assert (m.samples, m.cases) == (5, 3)
    assert m.code == pytest.approx((45 + 12.5 + 30) / 3)
    # without the visual scores, Total and its breakdowns are not computed; Code is broken down instead
    assert np.isnan(m.visual) and np.isnan(m.total) and all(np.isnan(m[b]) for b in ["Easy", "Hard", "Rigid", "Mech"])
    assert (m.code_Easy, m.code_Hard) == (pytest.approx(37.5), pytest.approx(12.5))
    assert (m.code_Rigid, m.code_Soft, m.code_Fluid, m.code_Mech) == (45.0, 12.5, 12.5, 30.0)
    assert m.physics == pytest.approx((75 + 0 + 60) / 3)
    v = stats.loc["v"]
    assert (v.code, v.visual, v.total) == (45.0, 22.5, 67.5)
    assert (v.Easy, v.Hard, v.Rigid, v.Soft, v.Fluid) == (80.0, 55.0, 80.0, 55.0, 55.0)
    assert np.isnan(v.Mech)
    assert (v.code_Easy, v.code_Hard, v.code_Rigid) == (50.0, 40.0, 50.0)


def test_the_markdown_says_what_was_not_computed(frame):
    text = physics_markdown(frame)
    header = "| agent | suite | samples | Code (/50) | Visual (/50) | Total (/100) | Easy (Total, /100) |"
    assert text.startswith(header)
    assert "| m | physics | 5 (3 cases) | 29.2 | " + " | ".join(["not computed"] * 8) + " |" in text
    assert "| v | physics | 2 (2 cases) | 45.0 | 22.5 | 67.5 | 80.0 | 55.0 | 80.0 | 55.0 | 55.0 | — |" in text
    assert "| agent | suite | Easy (Code, /50) | Hard (Code, /50) | Rigid (Code, /50) |" in text
    assert "| m | physics | 37.5 | 12.5 | 45.0 | 12.5 | 12.5 | 30.0 | 45.0 |" in text
    assert "| v | physics | 50.0 | 40.0 | 50.0 | 40.0 | 40.0 | — | 75.0 |" in text
    assert "| m | physics | B | 2 | 12.5 | 0.0 | [m__physics__B.png](fields/m__physics__B.png) |" in text
    assert "Code alone is never shown as Total" in text
    assert "As PhysCodeBench Table 1" in suite_markdown(frame, "physics", {"physics": plugin("physics")})


def test_case_metadata_comes_from_the_spec_and_bad_values_are_named():
    case = get_case("physics", "ball_drop")
    assert case_metadata(case) == RIGID_EASY
    soft = dataclasses.replace(
        case, visible=dataclasses.replace(case.visible, spec={"difficulty": "hard", "domains": ["soft body", "fluid"]})
    )
    assert case_metadata(soft) == SOFT_FLUID_HARD
    wrong = dataclasses.replace(case, visible=dataclasses.replace(case.visible, spec={"difficulty": "medium"}))
    with pytest.raises(
        ValueError, match=r"case.yaml: visible.spec.difficulty is 'medium'; fix: set it to easy or hard"
    ):
        case_metadata(wrong)
    plasma = dataclasses.replace(
        case, visible=dataclasses.replace(case.visible, spec={"difficulty": "easy", "domains": ["plasma"]})
    )
    with pytest.raises(ValueError, match="domains has 'plasma'"):
        case_metadata(plasma)


def write_video(path, frames=30, fps=30, width=64, height=32):
    """Flat grey frames whose level encodes the frame's index (8 x index), so a decoded frame names itself."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=Fraction(fps))
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.options = {"preset": "ultrafast", "crf": "0"}
        for index in range(frames):
            pixels = np.full((height, width, 3), 8 * index, dtype=np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())
    return path


def test_frames_are_taken_evenly_first_and_last_included(tmp_path):
    frames = video_frames(write_video(tmp_path / "v.mp4"))
    # linspace(0, 29, 5) = 0, 7.25, 14.5, 21.75, 29 -> frames 0, 7, 14, 22, 29 (round half to even)
    assert [round(t * 30) for t, _ in frames] == [0, 7, 14, 22, 29]
    assert [round(float(p.mean()) / 8) for _, p in frames] == [0, 7, 14, 22, 29]
    assert video_frames(tmp_path / "missing.mp4") == []
    (tmp_path / "junk.mp4").write_bytes(b"not a video")
    assert video_frames(tmp_path / "junk.mp4") == []


def test_the_strip_puts_the_sample_above_the_oracles_video(tmp_path):
    case = get_case("physics@smoke", "ball_drop")
    runs = tmp_path / "results" / "runs"

    def attempt(agent, backend, frames):
        folder = runs / agent / case.suite.name / case.id / "0" / "0"
        (folder / "run").mkdir(parents=True)
        (folder / "response.json").write_text(json.dumps({"backend": backend}))
        if frames:
            write_video(folder / "run" / "genesis_video.mp4", frames=frames)
        return folder / "run"

    oracle_run = attempt("oracle", "oracle", 30)
    sample_run = attempt("model", "openai", 12)
    assert oracle_video(sample_run, "genesis_video.mp4") == oracle_run / "genesis_video.mp4"
    png = tmp_path / "strip.png"
    assert scorer.plot_comparison(case, sample_run, None, png)
    both = matplotlib.image.imread(png)
    alone = tmp_path / "alone.png"
    assert scorer.plot_comparison(case, oracle_run, None, alone)  # the oracle's own strip: one row
    assert both.shape[0] > 1.5 * matplotlib.image.imread(alone).shape[0]
    silent = attempt("mute", "openai", 0)
    assert scorer.plot_comparison(case, silent, None, tmp_path / "mute.png")  # the oracle's row still shows
    (oracle_run / "genesis_video.mp4").unlink()
    assert not scorer.plot_comparison(case, silent, None, tmp_path / "none.png")
    assert not (tmp_path / "none.png").exists()
