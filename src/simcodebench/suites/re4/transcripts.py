"""``simcodebench import re4-transcripts FOLDER --out DIR``: Re^4's released programmer replies as replay files.

The Re4_Sci_Agent repository releases, under ``src/ipynb_ver/Results_samples_/_3Programmers_for_Reproduction/``,
one reply per stage and sample of each programmer:

    <problem>/<Model>_ans/[sample<K>/]solu_{ans_0,rev_1,rev_2}.dat       (Hilbert, Keyhole)
    PDEbench/<problem>/<Model>_ans/[sample<K>/]solu_{ans_0,rev_1,rev_2}.dat

each a Markdown reply with the script in a fenced python block. This module writes one JSONL file per
programmer (``DIR/<programmer>.jsonl``) in the replay backend's format (:mod:`simcodebench.agents.backends.replay`):
suite ``re4``, our case id, ``sample`` from 0 (``sample1`` is 0; a problem without sample folders has sample 0
only), ``attempt`` 0, 1, 2 for ans-0, rev-1, rev-2 (the ``re4`` strategy's numbering), the reply as
``response``. Only the programmer's replies are released, so a replay through the ``re4`` strategy asks the
Consultant and the Reviewer nothing (they get no reply) and scores each stage's code; run it with the
``re4@paper`` suite to judge it as the paper did.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InputError
from simcodebench.core.io import atomic_write_text

SUITE = "re4"

PROBLEMS = {
    "Hilbert": "hilbert",
    "Keyhole": "keyhole",
    "Burgers_equ": "burgers",
    "SodShock": "sod",
    "Poisson_equ": "poisson_holes",
    "Hemholtz": "helmholtz_holes",
    "Lid_Driven": "lid_driven",
    "Unsteady_NS": "unsteady_ns",
}
"""Upstream problem folder -> our case id. The folder names are those of the Re4_Sci_Agent repository
(``Hemholtz`` is spelt so there)."""

PROGRAMMERS = {"GPT": "gpt-4.1-mini", "Gemini": "gemini-2.5-flash", "R1": "deepseek-r1"}
"""Upstream ``<Model>_ans`` prefix -> programmer (the paper's gpt-4.1-mini-2025-04-14,
gemini-2.5-flash-preview-05-20 and deepseek-r1-0528)."""

STAGES = {"solu_ans_0.dat": 0, "solu_rev_1.dat": 1, "solu_rev_2.dat": 2}
"""Stage file -> attempt of the ``re4`` strategy (ans-0, rev-1, rev-2)."""

_SAMPLE = re.compile(r"sample(\d+)")


def _sample_of(folder: Path, answers: Path) -> int | None:
    """Sample index of a stage file's folder: 0 for the answers folder itself, K - 1 for ``sample<K>``."""
    if folder == answers:
        return 0
    match = _SAMPLE.fullmatch(folder.name)
    if folder.parent != answers or match is None or int(match.group(1)) < 1:
        return None
    return int(match.group(1)) - 1


def transcript_lines(folder: Path) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """The replay lines found under ``folder`` per programmer, and the problem folders left out (not Re^4's)."""
    if not folder.is_dir():
        raise InputError(folder, "(folder)", "is not a folder", "point at _3Programmers_for_Reproduction/")
    lines: dict[str, list[dict[str, Any]]] = {}
    unknown: set[str] = set()
    for answers in sorted(p for p in folder.rglob("*_ans") if p.is_dir()):
        model = answers.name.removesuffix("_ans")
        problem = answers.parent.name
        if problem not in PROBLEMS:
            unknown.add(problem)
            continue
        if model not in PROGRAMMERS:
            raise InputError(
                answers, "(folder)", f"names programmer '{model}'", f"expected one of {sorted(PROGRAMMERS)}_ans"
            )
        for path in sorted(answers.rglob("solu_*.dat")):
            sample = _sample_of(path.parent, answers)
            if path.name not in STAGES or sample is None:
                continue
            lines.setdefault(PROGRAMMERS[model], []).append(
                {
                    "suite": SUITE,
                    "case": PROBLEMS[problem],
                    "sample": sample,
                    "attempt": STAGES[path.name],
                    "response": path.read_text(encoding="utf-8", errors="replace"),
                    "source": str(path.relative_to(folder)),
                }
            )
    if not lines:
        raise InputError(
            folder, "(folder)", "holds no <problem>/<Model>_ans/[sampleK/]solu_*.dat", "point at the released folder"
        )
    for found in lines.values():
        found.sort(key=lambda line: (line["case"], line["sample"], line["attempt"]))
    return lines, sorted(unknown)


def import_re4_transcripts(folder: Path, out: Path) -> tuple[dict[str, int], list[str]]:
    """Write ``out/<programmer>.jsonl`` for every programmer found under ``folder``; return the number of
    replies per programmer and the problem folders left out."""
    lines, unknown = transcript_lines(Path(folder))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for programmer, found in lines.items():
        atomic_write_text(out / f"{programmer}.jsonl", "".join(json.dumps(line) + "\n" for line in found))
    return {programmer: len(found) for programmer, found in sorted(lines.items())}, unknown
