"""S_file's rubric (physics suite) on videos written in the test with PyAV: each item is earned or lost alone."""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
import pytest

from simcodebench.suites.physics.video import ITEMS, PAPER_CONTRACT, file_rubric, probe, s_file

CONTRACT = {
    "filename": "genesis_video.mp4",
    "width": 160,
    "height": 80,
    "fps": 60,
    "duration_s": 1.0,
    "min_bytes": 20_000,
}


def write_video(path, width=160, height=80, fps=60, frames=60, noise=True):
    """An H.264 mp4 of ``frames`` frames; random pixels make it large, flat ones small."""
    rng = np.random.default_rng(0)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=Fraction(fps))
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.options = {"preset": "ultrafast"}
        for _ in range(frames):
            pixels = (
                rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
                if noise
                else np.zeros((height, width, 3), dtype=np.uint8)
            )
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())
    return path


def test_a_video_to_the_contract_earns_all_25(tmp_path):
    video = write_video(tmp_path / "genesis_video.mp4")
    info = probe(video)
    assert (info.width, info.height, info.frames) == (160, 80, 60) and info.fps == pytest.approx(60)
    rubric = file_rubric(video, CONTRACT)
    assert rubric == dict.fromkeys(ITEMS, 5.0) and s_file(rubric) == 25.0


@pytest.mark.parametrize(
    ("kwargs", "lost"),
    [
        ({"width": 128, "height": 64}, "resolution"),
        ({"fps": 30, "frames": 60}, "frame_rate"),  # 60 frames at 30 fps: 2 s, wrong rate
        ({"frames": 30}, "duration"),
        ({"noise": False}, "size"),
    ],
)
def test_each_wrong_property_loses_only_its_item(tmp_path, kwargs, lost):
    rubric = file_rubric(write_video(tmp_path / "v.mp4", **kwargs), CONTRACT)
    assert [item for item, points in rubric.items() if points == 0] == [lost]
    assert s_file(rubric) == 20.0


def test_a_missing_or_unreadable_file_earns_nothing(tmp_path):
    assert s_file(file_rubric(tmp_path / "absent.mp4", CONTRACT)) == 0.0
    (tmp_path / "junk.mp4").write_bytes(b"not a video" * 20_000)
    assert probe(tmp_path / "junk.mp4") is None and s_file(file_rubric(tmp_path / "junk.mp4", CONTRACT)) == 0.0


def test_the_paper_contract():
    assert (PAPER_CONTRACT["width"], PAPER_CONTRACT["height"], PAPER_CONTRACT["fps"]) == (1280, 640, 60)
    assert PAPER_CONTRACT["duration_s"] == 5.0 and PAPER_CONTRACT["min_bytes"] == 100_000
