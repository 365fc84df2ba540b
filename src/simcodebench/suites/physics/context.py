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
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcodebench.core.errors import InfrastructureError
from simcodebench.core.io import sha256_text
from simcodebench.execution.environments import get_environment

CHARS_PER_TOKEN = 4
DEFAULT_BUDGET = 100_000
API_REFERENCE = "simcodebench-api-reference.md"
GENERATOR = Path(__file__).with_name("api_reference.py")


def estimate_tokens(text: str) -> int:
    """Tokens of ``text``, estimated as one per ``CHARS_PER_TOKEN`` characters."""
    return -(-len(text) // CHARS_PER_TOKEN)


def api_reference(environment: str = "genesis") -> str:
    """The generated API reference of the environment's Genesis (made on first use, then cached there)."""
    env = get_environment(environment)
    cached = env.prefix / f"{API_REFERENCE}.{sha256_text(GENERATOR.read_text(encoding='utf-8'))[:12]}"
    if not cached.is_file():
        result = subprocess.run(
            [str(env.python), str(GENERATOR)], capture_output=True, text=True, cwd=env.prefix, check=False
        )
        if result.returncode != 0:
            raise InfrastructureError(f"generating the Genesis API reference failed:\n{result.stderr[-2000:]}")
        tmp = cached.with_name(f".{cached.name}.tmp")
        tmp.write_text(result.stdout, encoding="utf-8")
        tmp.replace(cached)
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


def build_context(reference: str, examples: list[Path], options: dict[str, Any]) -> PromptContext:
    """Fill the budget: the reference (up to its share), then whole examples in order."""
    budget = int(options.get("token_budget", DEFAULT_BUDGET))
    documentation = trim_sections(reference, int(budget * float(options.get("reference_share", 0.5))))
    left = budget - estimate_tokens(documentation)
    blocks, dropped = [], []
    for path in examples:
        block = f"# {path.name}\n```python\n{path.read_text(encoding='utf-8', errors='replace').strip()}\n```\n"
        cost = estimate_tokens(block)
        if cost <= left:
            blocks.append(block)
            left -= cost
        else:
            dropped.append(str(path))
    text = "\n".join(blocks)
    return PromptContext(documentation, text, estimate_tokens(documentation) + estimate_tokens(text), dropped)
