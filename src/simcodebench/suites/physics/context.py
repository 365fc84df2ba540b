"""The prompt's ``[CONTEXT]`` and ``[EXAMPLES]`` (PhysCodeBench A.1.3), trimmed to a token budget.

The paper puts all of Genesis's ``examples/`` and its API and user-guide documentation (~100K tokens; 32K for
32B models) into the prompt and does not say how it trims. Ours:

- ``[CONTEXT]``: an API reference generated from the installed package (:mod:`.api_reference`, run once by the
  genesis environment's Python and cached in the environment as ``API_REFERENCE``, one file per version of
  the generator);
- ``[EXAMPLES]``: our own short scripts (``cases/physics/examples/*.py``, each run on the pinned version by a
  test), then, when ``scoring.context.examples_dir`` names a folder (a checkout's ``examples/``), every ``.py``
  under it, in path order.

Budget (``scoring.context.token_budget``, default 100 000; tokens estimated as characters / 4): the reference
gets at most ``reference_share`` of it (default 0.5), cut at a section boundary; the examples fill the rest
whole, in order, skipping any that would not fit. What was left out is counted in the prompt-free metadata
(:func:`build_context`'s ``dropped``).

Fitting the model's window (:func:`context_pieces`, the plugin's ``optional_context``): what the budget kept is
offered as removable pieces, each ``### `` section of the reference (a ``#``/``##`` heading travels with the
section after it) and each example, ranked by relevance to the case's visible ``spec`` (its ``domains`` and
``object_types``), most relevant first:

0. the reference's core parts (``gs.init``, ``gs.Scene``, the camera);
1. examples of the case's own family (their path names a solver of one of its domains: rigid, mechanics ->
   ``rigid``; fluid -> ``sph``, ``liquid``, ``pbd``, ``mpm``; soft body -> ``mpm``, ``fem``, ``pbd``, ``elastic``);
2. reference sections naming such a solver or one of the case's objects (``sphere``, ``plane``, ``box``, ...);
3. the other examples;
4. the other reference sections.

The fitter drops rank 4 first, the last listed first among equals (:mod:`simcodebench.agents.fit_context`).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import sha256_text
from simcodebench.core.plugin import ContextPiece
from simcodebench.execution.environments import compiled_form_cache
from simcodebench.execution.harness_runs import python_request, run_harness_program

CHARS_PER_TOKEN = 4
DEFAULT_BUDGET = 100_000
API_REFERENCE = "simcodebench-api-reference.md"
GENERATOR = Path(__file__).with_name("api_reference.py")
DOCUMENTATION_SLOT = "genesis_documentation"
EXAMPLES_SLOT = "relevant_code_examples"
CORE_PARTS = ("## Initialisation", "## Scene", "## Camera")
SOLVERS = {
    "rigid": ("rigid",),
    "mechanics": ("rigid",),
    "fluid": ("sph", "liquid", "pbd", "mpm"),
    "soft body": ("mpm", "fem", "pbd", "elastic"),
}
"""The Genesis solvers (as words of section names and example paths) of each ``spec.domains`` value."""
OBJECT_WORDS = {"cube": "box", "ball": "sphere", "ground": "plane"}
"""Words of ``spec.object_types`` spelled as Genesis names them."""
RANK_CORE, RANK_OWN_EXAMPLE, RANK_OWN_SECTION, RANK_OTHER_EXAMPLE, RANK_OTHER_SECTION = range(5)


def estimate_tokens(text: str) -> int:
    """Tokens of ``text``, estimated as one per ``CHARS_PER_TOKEN`` characters."""
    return -(-len(text) // CHARS_PER_TOKEN)


def api_reference(environment: str = "genesis") -> str:
    """The generated API reference of the environment's Genesis (made on first use in the environment, here or in
    the run's image, then cached beside the environment's compiled-form cache)."""
    version = sha256_text(GENERATOR.read_text(encoding="utf-8"))[:12]
    cached = compiled_form_cache(environment) / f"{API_REFERENCE}.{version}"
    if not cached.is_file():
        with tempfile.TemporaryDirectory(prefix="simcodebench-api-reference-") as tmp:
            work = Path(tmp)
            shutil.copy2(GENERATOR, work / GENERATOR.name)
            result = run_harness_program(environment, python_request(environment, [GENERATOR.name], work, 600.0, 4096))
            if result.status != "ok":
                stderr = (work / "stderr.txt").read_text(errors="replace")[-2000:]
                raise InfrastructureError(f"generating the Genesis API reference failed ({result.status}):\n{stderr}")
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp_file = cached.with_name(f".{cached.name}.tmp")
            tmp_file.write_text((work / "stdout.txt").read_text(encoding="utf-8"), encoding="utf-8")
            tmp_file.replace(cached)
    return cached.read_text(encoding="utf-8")


def trim_sections(text: str, budget: int) -> str:
    """``text`` cut after the last whole ``### `` section that fits in ``budget`` tokens."""
    if estimate_tokens(text) <= budget:
        return text
    kept: list[str] = []
    for index, chunk in enumerate(text.split("\n### ")):
        piece = chunk if index == 0 else "### " + chunk
        if estimate_tokens("\n".join([*kept, piece])) > budget:
            break
        kept.append(piece)
    return "\n".join(kept)


def example_files(own: Path, extra: Path | None) -> list[Path]:
    """Our example scripts, then the ``.py`` files under ``extra`` (in path order)."""
    files = sorted(own.glob("*.py"))
    if extra is not None:
        if not extra.is_dir():
            raise InfrastructureError(
                f"scoring.context.examples_dir: {extra} is not a folder; point it at a Genesis checkout's examples/"
            )
        files += sorted(extra.rglob("*.py"))
    return files


@dataclass
class PromptContext:
    """The two context slots and what the budget left out."""

    documentation: str
    examples: str
    tokens: int
    dropped: list[str] = field(default_factory=list)
    blocks: list[tuple[str, str]] = field(default_factory=list)
    """Each kept example: its path and its block (``examples`` is the blocks joined by newlines)."""


def build_context(reference: str, examples: list[Path], options: dict[str, Any]) -> PromptContext:
    """Fill the budget: the reference (up to its share), then whole examples in order."""
    budget = int(options.get("token_budget", DEFAULT_BUDGET))
    documentation = trim_sections(reference, int(budget * float(options.get("reference_share", 0.5))))
    left = budget - estimate_tokens(documentation)
    blocks: list[tuple[str, str]] = []
    dropped = []
    for path in examples:
        block = f"# {path.name}\n```python\n{path.read_text(encoding='utf-8', errors='replace').strip()}\n```\n"
        cost = estimate_tokens(block)
        if cost <= left:
            blocks.append((str(path), block))
            left -= cost
        else:
            dropped.append(str(path))
    text = "\n".join(block for _, block in blocks)
    tokens = estimate_tokens(documentation) + estimate_tokens(text)
    return PromptContext(documentation, text, tokens, dropped, blocks)


def reference_sections(documentation: str) -> list[tuple[str, str, str]]:
    """The reference as (part heading, section name, text) per ``### `` section, a heading line travelling with
    the section after it; the texts joined by newlines are ``documentation``."""
    sections: list[tuple[str, str, str]] = []
    pending: list[str] = []
    part = ""
    for chunk in re.split(r"\n(?=#{1,3} )", documentation) if documentation else []:
        if chunk.startswith("## "):
            part = chunk.splitlines()[0].strip()
        if not chunk.startswith("### "):
            pending.append(chunk)
            continue
        name = chunk[4:].split("(", 1)[0].strip()
        sections.append((part, name, "\n".join([*pending, chunk])))
        pending = []
    if pending:  # headings with no section after them (a budget cut): kept with the last section
        if sections:
            part, name, text = sections[-1]
            sections[-1] = (part, name, "\n".join([text, *pending]))
        else:
            sections.append((part, "heading", "\n".join(pending)))
    return sections


def _words(text: str) -> set[str]:
    """The lower-cased words of a name, camel case split (``RigidOptions``: rigid, options; ``SPHOptions``: sph,
    options)."""
    return {word.lower() for word in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", text)}


def case_terms(spec: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The solver words of the case's ``domains`` and the object words of its ``object_types``."""
    solvers = {word for domain in spec.get("domains", []) for word in SOLVERS.get(str(domain), ())}
    objects = {OBJECT_WORDS.get(word, word) for kind in spec.get("object_types", []) for word in _words(str(kind))}
    return solvers, objects


def context_pieces(built: PromptContext, spec: dict[str, Any]) -> list[ContextPiece]:
    """The kept reference sections and examples as removable pieces, ranked for the case (module docstring)."""
    solvers, objects = case_terms(spec)
    pieces = []
    for part, name, text in reference_sections(built.documentation):
        if part in CORE_PARTS:
            rank = RANK_CORE
        else:
            rank = RANK_OWN_SECTION if _words(name) & (solvers | objects) else RANK_OTHER_SECTION
        pieces.append(ContextPiece(DOCUMENTATION_SLOT, f"section {name}", text, rank))
    for path, block in built.blocks:
        where = "/".join(Path(path).parts[-2:])  # its folder names a family in Genesis's examples/
        rank = RANK_OWN_EXAMPLE if _words(where) & solvers else RANK_OTHER_EXAMPLE
        pieces.append(ContextPiece(EXAMPLES_SLOT, f"example {where}", block, rank))
    return pieces
