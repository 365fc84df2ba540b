"""Frame strips: a few frames of a sample's video above those of the oracle's, as one PNG.

Frames are decoded with PyAV at evenly spaced indices of each video (its first and last frame included, each
titled with its time, so a video too short shows it) and drawn with Matplotlib, the sample's row above the
oracle's; a video that is missing or unreadable gives a row that says so.
The oracle's video is the one the run's oracle agent rendered for the same case (:func:`oracle_video`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import av
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from simcodebench.core.layout import Layout  # noqa: E402

FRAMES = 5


def video_frames(path: Path, count: int = FRAMES) -> list[tuple[float, np.ndarray]]:
    """``count`` frames of the video at evenly spaced indices, first and last included, with their times in
    seconds; empty when the file is missing or holds no decodable video."""
    if not path.is_file():
        return []
    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                return []
            decoded = [(float(frame.time or 0.0), frame) for frame in container.decode(video=0)]
            if not decoded:
                return []
            picks = sorted({round(i) for i in np.linspace(0, len(decoded) - 1, min(count, len(decoded)))})
            return [(decoded[i][0], decoded[i][1].to_ndarray(format="rgb24")) for i in picks]
    except (av.error.FFmpegError, ValueError):
        return []


def oracle_video(run_dir: Path, filename: str) -> Path | None:
    """The oracle's video of the same case in the same run: ``run/<filename>`` of an attempt (of any sample) of
    an agent whose replies came from the ``oracle`` backend; None without one."""
    located = Layout().locate(Path(run_dir))
    if located is None:
        return None
    runs, (_, suite, case, _, _) = located
    for response in Layout(str(runs.parent)).attempt_files(suite, case, "response.json"):
        try:
            backend = json.loads(response.read_text()).get("backend")
        except (OSError, ValueError):
            continue
        video = response.parent / "run" / filename
        if backend == "oracle" and video.is_file():
            return video
    return None


def draw_strip(rows: list[tuple[str, Path | None]], png: Path, count: int = FRAMES) -> bool:
    """Draw one row of ``count`` frames per ``(label, video)``; False (nothing written) when no row has a
    frame. The PNG is written atomically."""
    frames = [(label, video_frames(video, count) if video else []) for label, video in rows]
    if not any(f for _, f in frames):
        return False
    columns = max(len(f) for _, f in frames)
    fig, axes = plt.subplots(len(frames), columns, figsize=(2.4 * columns, 1.6 * len(frames)), squeeze=False)
    for r, (label, row) in enumerate(frames):
        for c in range(columns):
            ax = axes[r][c]
            ax.set_xticks([])
            ax.set_yticks([])
            if c < len(row):
                time_s, pixels = row[c]
                ax.imshow(pixels)
                ax.set_title(f"t = {time_s:.2f} s", fontsize=8)
            elif c == 0:
                ax.text(0.5, 0.5, "no readable video", ha="center", va="center", fontsize=9)
            else:
                ax.set_axis_off()
            if c == 0:
                ax.set_ylabel(label, fontsize=9)
    fig.tight_layout()
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    tmp = png.with_name(f".{png.name}.tmp")
    try:
        fig.savefig(tmp, format="png", dpi=100)
        os.replace(tmp, png)
    finally:
        plt.close(fig)
    return True
