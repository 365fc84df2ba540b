"""FoamBench's diagnostics of a generated case against the reference case (``similarity_report.py`` upstream).

For each of ``0/``, ``constant/`` and ``system/`` that the reference case has (files named ``log*`` and anything
under ``polyMesh`` left out): ``struct`` is the share of its reference files present at the same relative path,
``file`` the mean ROUGE-L F1 over its reference files (0 for a missing one); each is then averaged over those
folders. ROUGE-L compares the files after upstream's cleaning (comment lines and the banner dropped), tokenised as
the ``rouge-score`` package does (lower case, runs of letters and digits), without its Porter stemmer.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

FOLDERS = ("0", "constant", "system")
_TOKEN = re.compile(r"[a-z0-9]+")
_COMMENT_STARTS = ("//", "/*", "*")


def clean(text: str) -> str:
    """Upstream's cleaning: drop lines starting with ``//``, ``/*`` or ``*``, then everything before the first
    line holding ``FoamFile`` or ``{``."""
    kept = [line for line in text.splitlines(keepends=True) if not line.strip().startswith(_COMMENT_STARTS)]
    start = next((i for i, line in enumerate(kept) if "FoamFile" in line or "{" in line), len(kept))
    return "".join(kept[start:])


def tokens(text: str) -> list[str]:
    """Lower-case alphanumeric tokens (``rouge-score``'s default tokenizer, no stemming)."""
    return _TOKEN.findall(text.lower())


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence, by the bit-parallel algorithm of Crochemore et al. (2001)."""
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for index, token in enumerate(a):
        masks[token] = masks.get(token, 0) | (1 << index)
    full = (1 << len(a)) - 1
    v = full
    for token in b:
        u = v & masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l(reference: str, candidate: str) -> float:
    """ROUGE-L F1 of ``candidate`` against ``reference`` on cleaned text; identical files score 1."""
    ref, cand = clean(reference), clean(candidate)
    if ref == cand:
        return 1.0
    ref_tokens, cand_tokens = tokens(ref), tokens(cand)
    lcs = lcs_length(ref_tokens, cand_tokens)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(cand_tokens), lcs / len(ref_tokens)
    return 2 * precision * recall / (precision + recall)


def _compared(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return len(parts) > 1 and parts[0] in FOLDERS and "polyMesh" not in parts and not parts[-1].startswith("log")


def similarity(reference: dict[str, str], candidate: dict[str, str]) -> dict[str, float]:
    """``struct`` and ``file`` of a candidate case against the reference case (both ``{relative path: text}``)."""
    per_folder: dict[str, list[tuple[bool, float]]] = {}
    for path, text in reference.items():
        if _compared(path):
            other = candidate.get(path)
            score = rouge_l(text, other) if other is not None else 0.0
            per_folder.setdefault(PurePosixPath(path).parts[0], []).append((other is not None, score))
    if not per_folder:
        return {"struct": 0.0, "file": 0.0}
    structs = [sum(found for found, _ in rows) / len(rows) for rows in per_folder.values()]
    files = [sum(score for _, score in rows) / len(rows) for rows in per_folder.values()]
    return {"struct": sum(structs) / len(structs), "file": sum(files) / len(files)}
