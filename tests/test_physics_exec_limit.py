"""S_exec's calibrated limit (physics suite) on hand-made timings: the limit is max(3 x the oracle's time, 120 s),
a run within it earns 25 points, a run over it or a failed run none; the time gate names F-Time."""

from __future__ import annotations

import json
from fractions import Fraction

import av
import numpy as np
import pytest

from simcodebench.core.cases import get_case
from simcodebench.core.references import Reference
from simcodebench.pipeline.calibrate import time_threshold
from simcodebench.pipeline.gates import score_attempt
from simcodebench.suites.physics import scorer
from simcodebench.suites.physics.state import STATE_FILE


@pytest.fixture(scope="module")
def case():
    return get_case("physics@smoke", "ball_drop")


@pytest.mark.parametrize(
    ("oracle_s", "limit_s"),
    [(10.0, 120.0), (40.0, 120.0), (41.0, 123.0), (150.0, 450.0)],
)
def test_the_limit_is_three_times_the_oracle_but_never_below_the_papers_120_s(case, oracle_s, limit_s):
    policy = case.threshold_policy()["time"]
    assert policy == {"alpha": 3.0, "floor_s": 120.0}
    assert time_threshold(policy, oracle_s) == pytest.approx(limit_s)


def test_the_full_suite_calibrates_from_one_timed_oracle_run():
    full = get_case("physics", "ball_drop")
    assert full.suite.data["calibration"] == {"warmup": 0, "repeats": 1}
    assert full.threshold_policy()["time"] == {"alpha": 3.0, "floor_s": 120.0}


def _run_dir(tmp_path, case):
    """A run directory holding a video to the smoke contract (320x160, 30 fps, 30 frames, noisy so it is
    above 10 KB) and a recording of one stepped scene with a resting ball (finite, so ``no_nan`` passes)."""
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    rng = np.random.default_rng(1)
    with av.open(str(run_dir / "genesis_video.mp4"), "w") as container:
        stream = container.add_stream("libx264", rate=Fraction(30))
        stream.width, stream.height, stream.pix_fmt = 320, 160, "yuv420p"
        stream.options = {"preset": "ultrafast"}
        for _ in range(30):
            pixels = rng.integers(0, 256, (160, 320, 3), dtype=np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())
    ball = {
        "index": 1,
        "kind": "sphere",
        "solver": "rigid",
        "size": {"radius": 0.1},
        "t": [0.01, 0.02],
        "series": {"pos": [[0, 0, 0.1], [0, 0, 0.1]], "vel": [[0, 0, 0], [0, 0, 0]]},
    }
    scene = {"dt": 0.01, "gravity": [0, 0, -9.81], "steps": 2, "entities": [ball]}
    (run_dir / STATE_FILE).write_text(json.dumps({"backend": "cpu", "scenes": [scene]}))
    return run_dir


@pytest.mark.parametrize(
    ("run", "failure", "s_exec", "code"),
    [
        ({"status": "ok", "wall_s": 119.0}, "Pass", 25.0, 50.0),
        ({"status": "ok", "wall_s": 121.0}, "F-Time", 0.0, 25.0),
        ({"status": "error", "wall_s": 30.0, "message": "TypeError"}, "F-Exec", 0.0, 0.0),
        ({"status": "timeout", "wall_s": 300.0, "message": "killed at wall_s"}, "F-Timeout", 0.0, 0.0),
    ],
)
def test_s_exec_needs_a_clean_run_within_the_limit(tmp_path, case, run, failure, s_exec, code):
    reference = Reference(meta={"checks": [{"check": "no_nan"}]})
    calibration = {"thresholds": {"accuracy": 0.5, "time": 120.0}}
    score = score_attempt(
        case,
        {"status": "ok"},
        {"status": "ok"},
        run,
        _run_dir(tmp_path, case),
        reference,
        calibration,
    )
    assert score["failure_class"] == failure, score["message"]
    assert (score["metrics"]["s_exec"], score["metrics"]["code"]) == (s_exec, code)
    if failure == "F-Time":
        assert score["message"] == "wall time 121.00 s vs threshold 120.00 s"


def test_the_scorer_alone_knows_no_limit(tmp_path, case):
    metrics = {"s_file": 20.0}
    assert scorer.timed_metrics(case, {"status": "ok", "wall_s": 1e6}, None, metrics)["s_exec"] == 25.0
    assert scorer.timed_metrics(case, {"status": "ok", "wall_s": 1e6}, 1e6, metrics)["code"] == 45.0
