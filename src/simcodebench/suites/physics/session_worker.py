"""One Genesis session for many scripts, each timed: the physics tests' shared session and the one of
benchmarks/physics_scenes.py. A fresh process per script would cost 20-50 s of import and set-up; a later scene
in this one builds in about a second.

Started by the genesis environment's Python (``python session_worker.py RUNNER``); reads one JSON request per line
(``{"cwd": ..., "script": ...}``), runs the script in ``cwd`` under the physics runner's hooks (a second
``gs.init`` is a no-op) with ``gs.Scene.build`` timed, writes the recording there and answers one JSON line:
``{"ok", "error", "backend", "import_s", "build_s", "after_build_s", "render_s", "total_s", "peak_rss_mib"}``.
``import_s`` is the worker's one import of the runner and Genesis (the same in every answer); ``render_s`` the time
spent in the cameras' recording (rendering and encoding each frame, closing the file), so that ``after_build_s -
render_s`` is the simulation's; ``peak_rss_mib`` is the process's high-water mark so far (the largest scene run up
to then sets it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import runpy
import sys
import time
import traceback


def _timed(method, total: list[float]):
    """``method`` adding its wall time to ``total[0]``."""

    def timed(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            total[0] += time.perf_counter() - start

    return timed


def main() -> None:
    started = time.perf_counter()
    spec = importlib.util.spec_from_file_location("physics_runner", sys.argv[1])
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    runner.go_headless()
    import genesis as gs
    from genesis.vis.camera import Camera

    import_s = time.perf_counter() - started
    recording = {name: getattr(Camera, name) for name in ("update_recording", "stop_recording")}
    original = (gs.init, gs.Scene.step)
    original_build = gs.Scene.build
    answer = sys.stdout
    sys.stdout = sys.stderr  # the scripts' prints must not mix with the answers
    for line in sys.stdin:
        request = json.loads(line)
        recorder = runner.Recorder()
        gs.init, gs.Scene.step = original
        runner.install(gs, recorder, reuse_init=True)
        marks: dict[str, float] = {}

        def build(self, *args, marks=marks, **kwargs):
            marks["build_start"] = time.perf_counter()
            try:
                return original_build(self, *args, **kwargs)
            finally:
                marks["build_end"] = time.perf_counter()

        gs.Scene.build = build
        rendering = [0.0]
        for name, method in recording.items():
            setattr(Camera, name, _timed(method, rendering))
        os.chdir(request["cwd"])
        error = ""
        start = time.perf_counter()
        try:
            runpy.run_path(request["script"], run_name="__main__")
        except BaseException:  # noqa: BLE001 - a script's failure (SystemExit included) is the answer
            error = traceback.format_exc()
        end = time.perf_counter()
        gs.Scene.build = original_build
        for name, method in recording.items():
            setattr(Camera, name, method)
        recorder.write(os.path.join(request["cwd"], runner.STATE_FILE))
        built = "build_end" in marks
        result = {
            "ok": not error,
            "error": error,
            "backend": recorder.backend,
            "import_s": import_s,
            "build_s": marks["build_end"] - marks["build_start"] if built else None,
            "after_build_s": end - marks["build_end"] if built else None,
            "render_s": rendering[0],
            "total_s": end - start,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        }
        answer.write(json.dumps(result) + "\n")
        answer.flush()


if __name__ == "__main__":
    main()
