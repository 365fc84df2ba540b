"""S_file, PhysCodeEval's file score (0-25), with its rubric made explicit, read with PyAV.

The paper checks that ``genesis_video.mp4`` exists, is at least 100 KB and is 1280x640, 60 fps and 5 s long,
"with partial credit by a predefined rubric" it does not give. Ours: five items of 5 points each, every one
judged on its own (a video of the wrong size still earns its frame rate and duration):

- ``exists``: the file is there and PyAV opens a video stream in it;
- ``size``: at least ``min_bytes`` (100 KB in the paper's contract);
- ``resolution``: width and height exactly as asked;
- ``frame_rate``: the stream's average rate within 0.5 fps of the one asked;
- ``duration``: the number of frames (packets demuxed, not the container's claim) within one frame of
  fps x duration.

An unreadable file earns ``exists`` 0 and nothing else. The contract comes from the suite's
``scoring.video`` (the ``smoke`` variant asks for a smaller, shorter video).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import av

POINTS_PER_ITEM = 5.0
ITEMS = ("exists", "size", "resolution", "frame_rate", "duration")
PAPER_CONTRACT: dict[str, Any] = {
    "filename": "genesis_video.mp4",
    "width": 1280,
    "height": 640,
    "fps": 60,
    "duration_s": 5.0,
    "min_bytes": 100_000,
}


@dataclass
class VideoInfo:
    """What PyAV reads of a video: size in bytes, frame size, average frame rate and frame count."""

    bytes: int
    width: int
    height: int
    fps: float
    frames: int


def probe(path: Path) -> VideoInfo | None:
    """The video's properties, or None when the file is missing or holds no readable video stream."""
    if not path.is_file():
        return None
    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                return None
            stream = container.streams.video[0]
            rate = stream.average_rate or stream.guessed_rate or 0
            frames = sum(1 for packet in container.demux(stream) if packet.size > 0)
            return VideoInfo(path.stat().st_size, stream.width, stream.height, float(rate), frames)
    except (av.error.FFmpegError, ValueError):
        return None


def file_rubric(path: Path, contract: dict[str, Any]) -> dict[str, float]:
    """Points per rubric item (each 0 or ``POINTS_PER_ITEM``) for the video at ``path`` against ``contract``."""
    info = probe(path)
    if info is None:
        return dict.fromkeys(ITEMS, 0.0)
    expected_frames = float(contract["fps"]) * float(contract["duration_s"])
    passed = {
        "exists": True,
        "size": info.bytes >= int(contract["min_bytes"]),
        "resolution": (info.width, info.height) == (int(contract["width"]), int(contract["height"])),
        "frame_rate": abs(info.fps - float(contract["fps"])) <= 0.5,
        "duration": abs(info.frames - expected_frames) <= 1.0,
    }
    return {item: POINTS_PER_ITEM if ok else 0.0 for item, ok in passed.items()}


def s_file(rubric: dict[str, float]) -> float:
    """S_file, 0-25: the sum of the rubric's points."""
    return float(sum(rubric.values()))
