"""A Genesis session for the tests: one ``gs.init`` per test session, many scripts run in it.

Started by the genesis environment's Python (``python genesis_worker.py RUNNER``); reads one JSON request per line
(``{"cwd": ..., "script": ...}``), runs the script in ``cwd`` under the physics runner's hooks (``reuse_init``:
the script's own ``gs.init`` is a no-op after the first) and writes the recording there, then answers one JSON
line: ``{"ok": bool, "error": traceback or "", "backend": ...}``. A fresh process per script would cost 20-50 s
of import and set-up; a later scene in this one builds in about a second.
"""

from __future__ import annotations

import importlib.util
import json
import os
import runpy
import sys
import traceback


def main() -> None:
    spec = importlib.util.spec_from_file_location("physics_runner", sys.argv[1])
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    import genesis as gs

    original = (gs.init, gs.Scene.step)
    answer = sys.stdout
    sys.stdout = sys.stderr  # the scripts' prints must not mix with the answers
    for line in sys.stdin:
        request = json.loads(line)
        recorder = runner.Recorder()
        gs.init, gs.Scene.step = original  # each script gets fresh hooks and its own recorder
        runner.install(gs, recorder, reuse_init=True)
        os.chdir(request["cwd"])
        error = ""
        try:
            runpy.run_path(request["script"], run_name="__main__")
        except BaseException:  # noqa: BLE001 - a script's failure (SystemExit included) is the answer
            error = traceback.format_exc()
        recorder.write(os.path.join(request["cwd"], runner.STATE_FILE))
        answer.write(json.dumps({"ok": not error, "error": error, "backend": recorder.backend}) + "\n")
        answer.flush()


if __name__ == "__main__":
    main()
