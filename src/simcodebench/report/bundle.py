"""A run in one file (``simcodebench bundle DIR``): its scores, calibrations, provenance and replies, so that a
run made on another machine can be compared (``simcodebench compare runs``) or exported without its working
directory.

A bundle is a ``.tar.gz`` whose members keep the run's own layout (``results/runs/...``,
``results/calibration/...``), so it unpacks into a folder that reads as the run itself, plus::

    bundle.json                          format, version, what made it, and the run's provenance
    provenance/config.yaml               the config the run was made with (when it is found)
    provenance/environments/<env>.lock   each solver environment's lock (pip freeze or package versions)

Of each attempt it keeps the records (``score.json``, ``prompt.md``, ``messages.json``, ``response.json``,
``solution/``, ``run/run.json``, ``converge/converge.json``) and excerpts of ``run/stdout.txt`` and
``run/stderr.txt``; never the run's output files (fields, videos), which can be large. ``version`` changes when
a reader of this version could misread a bundle; :func:`read_meta` refuses any other.
"""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simcodebench import __version__
from simcodebench.core.errors import InputError
from simcodebench.core.io import read_json
from simcodebench.core.layout import RESULTS, Layout
from simcodebench.execution.environments import envs_root
from simcodebench.execution.provenance import utc_now

FORMAT = "simcodebench-bundle"
VERSION = 1
"""The bundle format this package writes and reads."""
META = "bundle.json"
ATTEMPT_FILES = ("score.json", "prompt.md", "messages.json", "response.json", "run/run.json", "converge/converge.json")
"""An attempt's records kept whole (beside ``solution/`` and the output excerpts)."""
OUTPUT_FILES = ("run/stdout.txt", "run/stderr.txt")
EXCERPT_BYTES = 64 * 1024
"""An output longer than twice this keeps its first and last ``EXCERPT_BYTES``."""
LOCK_FILES = ("requirements.lock", "versions.txt")


def excerpt(data: bytes, limit: int = EXCERPT_BYTES) -> bytes:
    """``data`` whole, or its head and tail around a line that says how much was left out."""
    if len(data) <= 2 * limit:
        return data
    cut = len(data) - 2 * limit
    return data[:limit] + f"\n[... {cut} bytes left out by the bundle ...]\n".encode() + data[-limit:]


def _attempt_files(workdir: Path, layout: Layout) -> Iterator[tuple[Path, bool]]:
    """(file, whether to cut it to an excerpt) for every record of every attempt, sorted."""
    for score in sorted(Path(layout.runs).glob("*/*/*/*/*/score.json")):
        attempt = score.parent
        for name in ATTEMPT_FILES:
            if (attempt / name).is_file():
                yield attempt / name, False
        solution = attempt / "solution"
        if solution.is_dir():
            yield from ((p, False) for p in sorted(solution.rglob("*")) if p.is_file())
        for name in OUTPUT_FILES:
            if (attempt / name).is_file():
                yield attempt / name, True


def provenance(layout: Layout) -> dict[str, Any]:
    """What the run's records say about where they were made: commits, machines, environments."""
    commits: set[str] = set()
    machines: dict[str, Any] = {}
    environments: dict[str, list[str]] = {}
    records = [*Path(layout.runs).glob("*/*/*/*/*/score.json"), *Path(layout.calibrations).glob("*/*.json")]
    for path in records:
        prov = read_json(path).get("provenance") or {}
        if prov.get("git_commit"):
            commits.add(prov["git_commit"])
        machine = prov.get("machine") or {}
        if machine.get("id"):
            machines[machine["id"]] = machine
        env = prov.get("environment") or {}
        if env.get("name"):
            environments[env["name"]] = env.get("packages") or []
    return {"commits": sorted(commits), "machines": machines, "environments": environments}


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 0
    tar.addfile(info, io.BytesIO(data))


def write_bundle(workdir: Path, out: Path | None = None, configfile: Path | None = None) -> Path:
    """Write the run of ``workdir`` (the folder holding ``results/``) as one bundle; return its path.

    ``out`` defaults to the layout's ``results/bundle.tar.gz``; ``configfile`` to ``config/config.yaml`` of
    ``workdir`` (left out when absent). Raises :class:`InputError` when ``workdir`` holds no scored run.
    """
    workdir = Path(workdir)
    layout = Layout.of(workdir)
    check_run_dir(workdir)
    out = Path(out or layout.bundle)
    config = Path(configfile) if configfile else workdir / "config" / "config.yaml"
    prov = provenance(layout)
    finals = sorted(Path(layout.runs).glob("*/*/*/*/final.json"))
    calibrations = sorted(Path(layout.calibrations).glob("*/*.json"))
    attempts = list(_attempt_files(workdir, layout))
    scores = [p for p, _ in attempts if p.name == "score.json"]
    locks = {
        env: lock
        for env in prov["environments"]
        for lock in (envs_root() / env / name for name in LOCK_FILES)
        if lock.is_file()
    }
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "created": utc_now(),
        "simcodebench": __version__,
        "label": workdir.resolve().name,
        "source": str(workdir.resolve()),
        "agents": sorted({p.relative_to(layout.runs).parts[0] for p in scores}),
        "suites": sorted({p.relative_to(layout.runs).parts[1] for p in scores}),
        "counts": {"samples": len(finals), "attempts": len(scores), "calibrations": len(calibrations)},
        "config": "provenance/config.yaml" if config.is_file() else None,
        "environment_locks": {env: f"provenance/environments/{env}.lock" for env in sorted(locks)},
        "excerpt_bytes": EXCERPT_BYTES,
        **prov,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    with tarfile.open(tmp, "w:gz") as tar:
        _add_bytes(tar, META, json.dumps(meta, indent=2).encode())
        if config.is_file():
            _add_bytes(tar, "provenance/config.yaml", config.read_bytes())
        for env, lock in sorted(locks.items()):
            _add_bytes(tar, f"provenance/environments/{env}.lock", lock.read_bytes())
        for path in calibrations + finals:
            _add_bytes(tar, path.relative_to(workdir).as_posix(), path.read_bytes())
        for path, cut in attempts:
            data = path.read_bytes()
            _add_bytes(tar, path.relative_to(workdir).as_posix(), excerpt(data) if cut else data)
    tmp.replace(out)
    return out


def check_run_dir(workdir: Path) -> None:
    """Raise :class:`InputError` unless ``workdir`` is a run's working directory (``results/runs`` holds scores)."""
    runs = Path(Layout.of(workdir).runs)
    if not Path(workdir).is_dir():
        raise InputError(workdir, "path", "does not exist", "name a run's working directory or a bundle file")
    if not next(runs.glob("*/*/*/*/*/score.json"), None):
        hint = " (it is a results/ folder: pass its parent)" if (Path(workdir) / "runs").is_dir() else ""
        raise InputError(
            workdir,
            f"{RESULTS}/runs",
            f"holds no score.json, so this is not a run's working directory{hint}",
            "pass the folder that holds results/ (where 'make run' or snakemake ran) after its run, or a bundle "
            "made by 'simcodebench bundle DIR'",
        )


def read_meta(path: Path) -> dict[str, Any]:
    """The ``bundle.json`` of the bundle at ``path``; :class:`InputError` when it is no bundle or one of another
    version."""
    try:
        with tarfile.open(path, "r:*") as tar:
            member = tar.extractfile(META)
            meta = json.loads(member.read()) if member else None
    except (tarfile.TarError, KeyError, OSError, ValueError):
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(
            path,
            META,
            "is not a simcodebench bundle",
            "pass a run's working directory or a file made by 'simcodebench bundle DIR'",
        )
    if meta.get("version") != VERSION:
        raise InputError(
            path,
            f"{META}: version",
            f"is {meta.get('version')!r} (made by simcodebench {meta.get('simcodebench', '?')}), but this "
            f"simcodebench ({__version__}) reads bundle version {VERSION}",
            "make the bundle again from its run with this simcodebench ('simcodebench bundle DIR'), or read it "
            f"with simcodebench {meta.get('simcodebench', '?')}",
        )
    return meta


def unpack(path: Path, into: Path) -> dict[str, Any]:
    """Check the bundle at ``path`` (:func:`read_meta`) and unpack it into the folder ``into``, which then
    reads as the run's working directory; return its ``bundle.json``."""
    meta = read_meta(path)
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "r:*") as tar:
        tar.extractall(into, filter="data")
    return meta
